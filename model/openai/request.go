package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/lite-agent/lite-agent-go/model"
)

// chatRequest is the body of a streaming Chat Completions request.
type chatRequest struct {
	Model         string        `json:"model"`
	Messages      []chatMessage `json:"messages"`
	Stream        bool          `json:"stream"`
	StreamOptions streamOptions `json:"stream_options"`
	MaxTokens     int           `json:"max_tokens,omitempty"`
	Temperature   *float64      `json:"temperature,omitempty"`
	TopP          *float64      `json:"top_p,omitempty"`
	Seed          *int64        `json:"seed,omitempty"`
	Stop          []string      `json:"stop,omitempty"`
	Tools         []chatTool    `json:"tools,omitempty"`
	ToolChoice    any           `json:"tool_choice,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// chatMessage is one message of a request. Content is always sent: an
// assistant message that only calls tools has "", which servers accept more
// widely than null or a missing member.
type chatMessage struct {
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	ToolCalls  []chatToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type chatToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

// chatFunction is a called function; Arguments is a JSON document encoded
// as a string, as the API wants it.
type chatFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type chatTool struct {
	Type     string  `json:"type"`
	Function toolDef `json:"function"`
}

type toolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

type namedToolChoice struct {
	Type     string `json:"type"`
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
}

// emptySchema is the parameters of a tool with no input schema.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// body returns the JSON body of the request for req.
func body(req model.Request) ([]byte, error) {
	if req.Model == "" {
		return nil, errors.New("no model named in the request")
	}
	if req.MaxTokens < 0 {
		return nil, fmt.Errorf("max tokens %d is negative", req.MaxTokens)
	}
	cr := chatRequest{
		Model:         req.Model,
		Messages:      messages(req),
		Stream:        true,
		StreamOptions: streamOptions{IncludeUsage: true},
		MaxTokens:     req.MaxTokens,
		Temperature:   req.Temperature,
		TopP:          req.TopP,
		Seed:          req.Seed,
		Stop:          req.Stop,
	}
	for _, t := range req.Tools {
		params := emptySchema
		if len(bytes.TrimSpace(t.InputSchema)) > 0 {
			if !json.Valid(t.InputSchema) {
				return nil, fmt.Errorf("tool %q: input schema is not valid JSON", t.Name)
			}
			params = t.InputSchema
		}
		cr.Tools = append(cr.Tools, chatTool{Type: "function", Function: toolDef{Name: t.Name, Description: t.Description, Parameters: params}})
	}
	if len(req.Tools) > 0 {
		choice, err := toolChoice(req.ToolChoice)
		if err != nil {
			return nil, err
		}
		cr.ToolChoice = choice
	}
	b, err := json.Marshal(cr)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	return b, nil
}

// toolChoice returns the tool_choice member for c, or nil to send none.
func toolChoice(c model.ToolChoice) (any, error) {
	switch c.Mode {
	case "":
		return nil, nil
	case model.ToolChoiceAuto, model.ToolChoiceNone, model.ToolChoiceRequired:
		return string(c.Mode), nil
	case model.ToolChoiceTool:
		if c.Name == "" {
			return nil, errors.New("tool choice names no tool")
		}
		n := namedToolChoice{Type: "function"}
		n.Function.Name = c.Name
		return n, nil
	}
	return nil, fmt.Errorf("unknown tool choice mode %q", c.Mode)
}

// messages maps the conversation: one system message first (Request.System
// and the text of system-role messages), then each message in order.
func messages(req model.Request) []chatMessage {
	var system []string
	if req.System != "" {
		system = append(system, req.System)
	}
	for _, m := range req.Messages {
		if m.Role == model.RoleSystem {
			if t := m.PlainText(); t != "" {
				system = append(system, t)
			}
		}
	}
	var out []chatMessage
	if len(system) > 0 {
		out = append(out, chatMessage{Role: "system", Content: strings.Join(system, "\n\n")})
	}
	for _, m := range req.Messages {
		switch m.Role {
		case model.RoleSystem:
		case model.RoleAssistant:
			if cm, ok := assistant(m); ok {
				out = append(out, cm)
			}
		default:
			out = append(out, user(m)...)
		}
	}
	return out
}

// assistant maps an assistant message: its text (text blocks and compaction
// summaries, joined by "\n") as content and its tool_call blocks as
// tool_calls. It reports false for a message with neither.
func assistant(m model.Message) (chatMessage, bool) {
	if m.Blocks == nil {
		return chatMessage{Role: "assistant", Content: m.Text}, true
	}
	var text []string
	cm := chatMessage{Role: "assistant"}
	for _, b := range m.Blocks {
		switch b.Type {
		case model.BlockText:
			text = append(text, b.Text)
		case model.BlockCompaction:
			if b.Content != "" {
				text = append(text, b.Content)
			}
		case model.BlockToolCall:
			cm.ToolCalls = append(cm.ToolCalls, chatToolCall{
				ID:       b.ID,
				Type:     "function",
				Function: chatFunction{Name: b.Name, Arguments: arguments(b.Input)},
			})
		}
	}
	cm.Content = strings.Join(text, "\n")
	return cm, len(text) > 0 || len(cm.ToolCalls) > 0
}

// arguments returns a tool call's input as the compact JSON string the API
// wants; input that is missing or not JSON is sent as {}.
func arguments(input json.RawMessage) string {
	var buf bytes.Buffer
	if len(input) == 0 || json.Compact(&buf, input) != nil {
		return "{}"
	}
	return buf.String()
}

// user maps a message of any other role: each tool_result block becomes a
// tool message, and the text (text blocks and compaction summaries, joined
// by "\n") one user message after them.
func user(m model.Message) []chatMessage {
	if m.Blocks == nil {
		return []chatMessage{{Role: "user", Content: m.Text}}
	}
	var out []chatMessage
	var text []string
	for _, b := range m.Blocks {
		switch b.Type {
		case model.BlockToolResult:
			out = append(out, chatMessage{Role: "tool", Content: b.Content, ToolCallID: b.ID})
		case model.BlockText:
			text = append(text, b.Text)
		case model.BlockCompaction:
			if b.Content != "" {
				text = append(text, b.Content)
			}
		}
	}
	if len(text) > 0 {
		out = append(out, chatMessage{Role: "user", Content: strings.Join(text, "\n")})
	}
	return out
}
