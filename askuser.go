package liteagent

import (
	"context"
	"errors"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/tool"
)

// AskUserTool is the name of the tool an agent with [Options.OnAskUser]
// offers for questions to the person it works for.
const AskUserTool = "ask_user"

// A Question is what the model asks through ask_user.
type Question struct {
	// CallID is the id of the ask_user call.
	CallID string
	// SessionID is the session of the prompt that asks.
	SessionID string
	// Text is the question.
	Text string
	// Options are the choices the model offers; nil for a free answer.
	Options []string
	// MultiSelect says that several options may be chosen.
	MultiSelect bool
}

// An Answer is the person's answer to a [Question]: the options chosen,
// or a free text.
type Answer struct {
	// Selected are the options chosen. When not empty, they are the
	// answer, joined with ", ", and Text is ignored. They are passed on
	// as given, not checked against the question's options.
	Selected []string
	// Text is a free answer; empty (or blank) with no Selected means
	// "(no answer)".
	Text string
}

// An AskUserFunc answers the model's questions (see [Options.OnAskUser]).
// It is called for one question at a time per agent family, should return
// promptly once ctx is done, and may return an error, which the model
// receives as the tool's error.
type AskUserFunc func(ctx context.Context, q Question) (Answer, error)

// askUserInput is the input of ask_user.
type askUserInput struct {
	Question    string   `json:"question" jsonschema:"the question, in plain words"`
	Options     []string `json:"options,omitempty" jsonschema:"choices to offer; omit for a free answer"`
	MultiSelect bool     `json:"multiSelect,omitempty" jsonschema:"whether several options may be chosen"`
}

// RefineSchema requires a question.
func (askUserInput) RefineSchema(s *jsonschema.Schema) {
	s.Properties["question"].MinLength = jsonschema.Ptr(1)
}

// noAnswer is what the model receives for an empty answer.
const noAnswer = "(no answer)"

// askUserTool returns ask_user over ask. Questions of the agent family go
// to ask one at a time, in the order they come.
func askUserTool(ask AskUserFunc) tool.Tool {
	turn := make(chan struct{}, 1)
	return tool.New(AskUserTool, "Ask the user a question and wait for the answer. Use it only when you cannot go on without the user's decision or information; offer options when the choices are known.",
		func(ctx context.Context, c *tool.Call, in askUserInput) (tool.Result, error) {
			call := &model.Block{Type: model.BlockToolCall, ID: c.ID, Name: AskUserTool}
			select {
			case turn <- struct{}{}:
				defer func() { <-turn }()
			case <-ctx.Done():
				return tool.Result{}, ctx.Err()
			}
			c.Emit(Event{Type: engine.EventInputRequest, Tool: &ToolEvent{Call: call}, Text: in.Question})
			ans, err := ask(ctx, Question{CallID: c.ID, SessionID: c.SessionID, Text: in.Question, Options: in.Options, MultiSelect: in.MultiSelect})
			if err != nil {
				if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
					return tool.Result{}, ctxErr
				}
				return tool.Errorf("the user could not be asked: %v", err), nil
			}
			text := noAnswer
			switch {
			case len(ans.Selected) > 0:
				text = strings.Join(ans.Selected, ", ")
			case strings.TrimSpace(ans.Text) != "":
				text = ans.Text
			}
			c.Emit(Event{Type: engine.EventInputResolved, Tool: &ToolEvent{Call: call}, Text: text})
			return tool.Text(text), nil
		})
}
