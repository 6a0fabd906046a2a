package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/lite-agent/lite-agent-go/model"
)

// params maps req to the SDK's request parameters (see the package doc).
// It fails only when a tool's input schema is not a JSON object.
func (p *Provider) params(req model.Request) (sdk.MessageNewParams, error) {
	out := sdk.MessageNewParams{
		Model:     sdk.Model(req.Model),
		MaxTokens: p.maxTokensFor(req.Model),
	}
	if req.MaxTokens > 0 {
		out.MaxTokens = int64(req.MaxTokens)
	}
	// The SDK no longer models temperature and top_p (newer models refuse
	// them), so they travel as extra fields when the caller sets them.
	extra := map[string]any{}
	if req.Temperature != nil {
		extra["temperature"] = *req.Temperature
	}
	if req.TopP != nil {
		extra["top_p"] = *req.TopP
	}
	if len(extra) > 0 {
		out.SetExtraFields(extra)
	}
	if len(req.Stop) > 0 {
		out.StopSequences = append([]string(nil), req.Stop...)
	}

	system := req.System
	for _, m := range req.Messages {
		if m.Role == model.RoleSystem {
			system = joinSystem(system, m.PlainText())
			continue
		}
		if mp, ok := messageParam(m); ok {
			out.Messages = append(out.Messages, mp)
		}
	}

	for i, t := range req.Tools {
		schema, err := inputSchema(t.InputSchema)
		if err != nil {
			return out, fmt.Errorf("tool %d (%s): %w", i, t.Name, err)
		}
		tp := &sdk.ToolParam{Name: t.Name, InputSchema: schema}
		if t.Description != "" {
			tp.Description = param.NewOpt(t.Description)
		}
		out.Tools = append(out.Tools, sdk.ToolUnionParam{OfTool: tp})
	}
	if len(out.Tools) > 0 {
		out.ToolChoice = toolChoice(req.ToolChoice)
	}

	// Prompt caching: one breakpoint, on the longest stable prefix there is.
	switch {
	case system != "":
		out.System = []sdk.TextBlockParam{{Text: system, CacheControl: sdk.NewCacheControlEphemeralParam()}}
	case len(out.Tools) > 0:
		out.Tools[len(out.Tools)-1].OfTool.CacheControl = sdk.NewCacheControlEphemeralParam()
	default:
		out.CacheControl = sdk.NewCacheControlEphemeralParam()
	}
	return out, nil
}

// joinSystem appends a system message's text to the system prompt.
func joinSystem(system, text string) string {
	switch {
	case text == "":
		return system
	case system == "":
		return text
	}
	return system + "\n\n" + text
}

// messageParam maps a user, tool or assistant message. It reports false for
// a message left with no content.
func messageParam(m model.Message) (sdk.MessageParam, bool) {
	var blocks []sdk.ContentBlockParamUnion
	if m.Blocks == nil {
		blocks = []sdk.ContentBlockParamUnion{sdk.NewTextBlock(m.Text)}
	} else {
		for _, b := range m.Blocks {
			if cb, ok := blockParam(b); ok {
				blocks = append(blocks, cb)
			}
		}
	}
	if len(blocks) == 0 {
		return sdk.MessageParam{}, false
	}
	if m.Role == model.RoleAssistant {
		return sdk.NewAssistantMessage(blocks...), true
	}
	return sdk.NewUserMessage(blocks...), true
}

// blockParam maps one content block; it reports false for a block that is
// not sent.
func blockParam(b model.Block) (sdk.ContentBlockParamUnion, bool) {
	switch b.Type {
	case model.BlockText:
		return sdk.NewTextBlock(b.Text), true
	case model.BlockToolCall:
		return sdk.ContentBlockParamUnion{OfToolUse: &sdk.ToolUseBlockParam{
			ID:    b.ID,
			Name:  b.Name,
			Input: toolInput(b.Input),
		}}, true
	case model.BlockToolResult:
		tr := &sdk.ToolResultBlockParam{ToolUseID: b.ID}
		if b.Content != "" {
			tr.Content = []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: b.Content}}}
		}
		if b.IsError {
			tr.IsError = param.NewOpt(true)
		}
		return sdk.ContentBlockParamUnion{OfToolResult: tr}, true
	case model.BlockNative:
		if b.Provider != ProviderName || !isObject(b.Data) {
			return sdk.ContentBlockParamUnion{}, false
		}
		return param.Override[sdk.ContentBlockParamUnion](json.RawMessage(b.Data)), true
	case model.BlockCompaction:
		raw := []byte(`{"type":"compaction","content":`)
		if b.NullContent {
			raw = append(raw, "null"...)
		} else {
			s, _ := json.Marshal(b.Content) // a string always marshals
			raw = append(raw, s...)
		}
		raw = append(raw, '}')
		return param.Override[sdk.ContentBlockParamUnion](json.RawMessage(raw)), true
	}
	return sdk.ContentBlockParamUnion{}, false
}

// toolInput returns a tool call's input as raw JSON, {} when it is missing
// or not a JSON object.
func toolInput(in json.RawMessage) json.RawMessage {
	if !isObject(in) {
		return json.RawMessage(`{}`)
	}
	return in
}

// isObject reports whether raw is one valid JSON object, with nothing
// around it but JSON whitespace (space, tab, CR, LF). bytes.TrimSpace
// would not do: it also trims \v, \f and Unicode spaces, which JSON
// decoders refuse.
func isObject(raw json.RawMessage) bool {
	t := bytes.TrimLeft(raw, jsonSpace)
	return len(t) > 0 && t[0] == '{' && json.Valid(raw)
}

// jsonSpace is the whitespace JSON allows between tokens.
const jsonSpace = " \t\r\n"

// inputSchema returns schema without its top-level "$schema" member, keeping
// the order of the others. A nil or empty schema means an object with no
// properties.
func inputSchema(schema json.RawMessage) (sdk.ToolInputSchemaParam, error) {
	if len(bytes.TrimLeft(schema, jsonSpace)) == 0 {
		return sdk.ToolInputSchemaParam{Properties: map[string]any{}}, nil
	}
	raw, err := dropMember(schema, "$schema")
	if err != nil {
		return sdk.ToolInputSchemaParam{}, err
	}
	return param.Override[sdk.ToolInputSchemaParam](json.RawMessage(raw)), nil
}

// dropMember rewrites the JSON object obj without its top-level member key,
// keeping the other members and their order.
func dropMember(obj json.RawMessage, key string) ([]byte, error) {
	errNotObject := errors.New("input schema must be a JSON object")
	if !isObject(obj) {
		return nil, errNotObject
	}
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // '{'
		return nil, errNotObject
	}
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errNotObject
		}
		name, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, errNotObject
		}
		if name == key {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(name)
		b.Write(k)
		b.WriteByte(':')
		if err := json.Compact(&b, val); err != nil {
			return nil, errNotObject
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// toolChoice maps a tool choice; the zero value sends none, which the API
// treats as auto.
func toolChoice(tc model.ToolChoice) sdk.ToolChoiceUnionParam {
	switch tc.Mode {
	case model.ToolChoiceAuto:
		return sdk.ToolChoiceUnionParam{OfAuto: &sdk.ToolChoiceAutoParam{}}
	case model.ToolChoiceNone:
		return sdk.ToolChoiceUnionParam{OfNone: &sdk.ToolChoiceNoneParam{}}
	case model.ToolChoiceRequired:
		return sdk.ToolChoiceUnionParam{OfAny: &sdk.ToolChoiceAnyParam{}}
	case model.ToolChoiceTool:
		return sdk.ToolChoiceParamOfTool(tc.Name)
	}
	return sdk.ToolChoiceUnionParam{}
}

// stopReason maps the API's stop_reason.
func stopReason(s string) model.StopReason {
	switch s {
	case "end_turn":
		return model.StopEndTurn
	case "tool_use":
		return model.StopToolUse
	case "max_tokens":
		return model.StopMaxTokens
	}
	return model.StopOther
}
