package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
)

// The values of run --output.
const (
	outputText       = "text"        // the answer on stdout, activity on stderr
	outputJSON       = "json"        // one JSON object when the run ends
	outputStreamJSON = "stream-json" // one JSON event per line as it happens
)

// wireEvent is one line of run --output stream-json. Its field names are
// stable: new fields may be added, none renamed or removed. Type is the
// event type of the agent's event stream (turn_start, text_delta, message,
// tool_call_start, tool_result, permission_decision, approval_request,
// approval_resolved, turn_end, retry, error, done, …); which other fields
// are set depends on it, as in [liteagent.Event]. The last line of a run is a
// "result" line, as in --output json.
type wireEvent struct {
	Type       string          `json:"type"`
	SessionID  string          `json:"sessionId,omitempty"`
	AgentID    string          `json:"agentId,omitempty"`
	Turn       int             `json:"turn,omitempty"`
	Model      string          `json:"model,omitempty"`
	Text       string          `json:"text,omitempty"`
	Message    *wireMessage    `json:"message,omitempty"`
	Call       *wireCall       `json:"call,omitempty"`
	Result     *wireToolResult `json:"result,omitempty"`
	IsError    bool            `json:"isError,omitempty"`
	DurationMS int64           `json:"durationMs,omitempty"`
	Usage      *model.Usage    `json:"usage,omitempty"`
	StopReason string          `json:"stopReason,omitempty"`
	TaskID     string          `json:"taskId,omitempty"`
	Status     string          `json:"status,omitempty"`
	Owner      string          `json:"owner,omitempty"`
	Code       string          `json:"code,omitempty"`
	Decision   string          `json:"decision,omitempty"`
	By         string          `json:"by,omitempty"`
	RuleID     string          `json:"ruleId,omitempty"`
	Reason     string          `json:"reason,omitempty"`
	Simulated  bool            `json:"simulated,omitempty"`
	Attempt    int             `json:"attempt,omitempty"` // retry: 1 for the first
	WaitMS     int64           `json:"waitMs,omitempty"`  // retry: the wait before it
	Error      string          `json:"error,omitempty"`
	Fatal      bool            `json:"fatal,omitempty"`
	Done       *wireDone       `json:"done,omitempty"`
}

// wireMessage is an assistant message: its text and its tool calls.
type wireMessage struct {
	Text  string     `json:"text"`
	Calls []wireCall `json:"calls,omitempty"`
}

// wireCall is a tool call.
type wireCall struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// wireToolResult is a tool's result.
type wireToolResult struct {
	ID      string `json:"id"`
	Content string `json:"content"`
	IsError bool   `json:"isError,omitempty"`
}

// wireDone is the outcome of one prompt (a done event).
type wireDone struct {
	StopReason string          `json:"stopReason"`
	Text       string          `json:"text"`
	Turns      int             `json:"turns"`
	Usage      model.Usage     `json:"usage"`
	Output     json.RawMessage `json:"output,omitempty"`
}

// runResult is the object run --output json prints, and the last line of
// --output stream-json (type "result"). Its field names are stable.
type runResult struct {
	Type      string `json:"type"` // always "result"
	SessionID string `json:"sessionId"`
	// StopReason is how the prompt ended: stop, aborted or max_turns;
	// when it did not end (the run failed before the agent started, or
	// during the prompt), aborted for an interrupt and error otherwise.
	StopReason string `json:"stopReason"`
	// Text is the last answer: the prompt's, or that of the last turn that
	// delivered background work to the session.
	Text  string      `json:"text"`
	Turns int         `json:"turns"`
	Usage model.Usage `json:"usage"`
	// Output is the structured answer, when the prompt gave one.
	Output json.RawMessage `json:"output,omitempty"`
	// Error is why the run failed; "" on success.
	Error string `json:"error,omitempty"`
}

// toWire converts an event of the agent to its stream-json form.
func toWire(ev liteagent.Event) wireEvent {
	w := wireEvent{
		Type: string(ev.Type), SessionID: ev.SessionID, AgentID: ev.AgentID, Turn: ev.Turn,
		Text: ev.Text, Fatal: ev.Fatal,
	}
	if m := ev.ModelCall; m != nil {
		w.Model, w.DurationMS, w.Usage, w.StopReason = m.Model, m.Duration.Milliseconds(), m.Usage, string(m.StopReason)
	}
	if t := ev.Task; t != nil {
		w.TaskID, w.Status, w.Owner = t.ID, string(t.Status), t.Owner
	}
	if d := ev.Diagnostic; d != nil {
		w.Code = d.Code
	}
	if pe := ev.Permission; pe != nil {
		w.Decision, w.By, w.RuleID, w.Reason, w.Simulated = string(pe.Decision), string(pe.By), pe.RuleID, pe.Reason, pe.Simulated
	}
	if r := ev.Retry; r != nil {
		w.Attempt, w.WaitMS, w.Reason = r.Attempt, r.Wait.Milliseconds(), r.Reason
	}
	if ev.Message != nil {
		m := &wireMessage{Text: ev.Message.PlainText()}
		for _, b := range ev.Message.Blocks {
			if b.Type == model.BlockToolCall {
				m.Calls = append(m.Calls, wireCall{ID: b.ID, Name: b.Name, Input: rawOrEmpty(b.Input)})
			}
		}
		w.Message = m
	}
	if t := ev.Tool; t != nil {
		w.IsError, w.DurationMS = t.IsError, t.Duration.Milliseconds()
		if t.Call != nil {
			w.Call = &wireCall{ID: t.Call.ID, Name: t.Call.Name, Input: rawOrEmpty(t.Call.Input)}
		}
		if t.Result != nil {
			w.Result = &wireToolResult{ID: t.Result.ID, Content: t.Result.Content, IsError: t.Result.IsError}
		}
	}
	if ev.Err != nil {
		w.Error = oneLine(ev.Err.Error())
	}
	if ev.Completion != nil {
		w.Status = string(ev.Completion.Status)
		w.IsError = ev.Completion.IsError
	}
	if d := ev.Result; d != nil {
		w.Done = &wireDone{StopReason: string(d.StopReason), Text: d.Text, Turns: d.Turns, Usage: d.Usage, Output: d.Output}
	}
	return w
}

// rawOrEmpty returns raw, or {} when it is empty or not JSON.
func rawOrEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || !json.Valid(raw) {
		return json.RawMessage(`{}`)
	}
	return raw
}

// jsonOutput writes run's machine-readable output: every event as a line
// (stream-json) and, at the end, the run's result. It is safe for
// concurrent use: background turns report through it from their own
// goroutines.
type jsonOutput struct {
	w      io.Writer
	stream bool

	mu  sync.Mutex // guards the fields below and writes to w
	res runResult
}

// event records ev in the result and, when streaming, writes it.
func (o *jsonOutput) event(ev liteagent.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if ev.Type == liteagent.EventDone && ev.Result != nil {
		d := ev.Result
		if o.res.SessionID == "" {
			o.res.SessionID = d.SessionID
		}
		if o.res.StopReason == "" {
			o.res.StopReason = string(d.StopReason)
		}
		if d.Text != "" {
			o.res.Text = d.Text
		}
		if d.Output != nil {
			o.res.Output = d.Output
		}
		o.res.Turns += d.Turns
		o.res.Usage = o.res.Usage.Add(d.Usage)
	}
	if o.stream {
		o.writeLocked(toWire(ev))
	}
}

// stopError is the stopReason of a run whose prompt did not end: it
// failed before the agent started or during the prompt.
const stopError = "error"

// finish writes the result of a run in session id ("" when the agent did
// not start) that ended with err.
func (o *jsonOutput) finish(id string, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.res.Type = "result"
	o.res.SessionID = id
	if err != nil {
		o.res.Error = oneLine(err.Error())
		if o.res.StopReason == "" {
			o.res.StopReason = stopError
			if errors.Is(err, errInterrupted) || errors.Is(err, context.Canceled) {
				o.res.StopReason = string(liteagent.StopAborted)
			}
		}
	}
	o.writeLocked(o.res)
}

func (o *jsonOutput) writeLocked(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return // every field marshals; raw JSON fields are checked
	}
	o.w.Write(append(b, '\n'))
}
