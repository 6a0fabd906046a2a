package audit

import (
	"encoding/json"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
)

// eventJSON is the event member of a record: an [engine.Event] with its
// kind-specific parts as nested objects, durations in milliseconds and the
// error as its text. Empty fields are left out.
type eventJSON struct {
	Type       string          `json:"type"`
	SessionID  string          `json:"sessionId,omitempty"`
	AgentID    string          `json:"agentId,omitempty"`
	Turn       int             `json:"turn,omitempty"`
	Text       string          `json:"text,omitempty"`
	Message    *model.Message  `json:"message,omitempty"`
	Error      string          `json:"error,omitempty"`
	Fatal      bool            `json:"fatal,omitempty"`
	Tool       *toolJSON       `json:"tool,omitempty"`
	ModelCall  *modelCallJSON  `json:"modelCall,omitempty"`
	Task       *taskJSON       `json:"task,omitempty"`
	Permission *permissionJSON `json:"permission,omitempty"`
	Retry      *retryJSON      `json:"retry,omitempty"`
	Diagnostic *diagnosticJSON `json:"diagnostic,omitempty"`
	Context    *contextJSON    `json:"context,omitempty"`
	Compaction *compactionJSON `json:"compaction,omitempty"`
	Restore    *restoreJSON    `json:"restore,omitempty"`
	Completion *completionJSON `json:"completion,omitempty"`
	Result     *resultJSON     `json:"result,omitempty"`
}

type toolJSON struct {
	Call       *model.Block `json:"call,omitempty"`
	Result     *model.Block `json:"result,omitempty"`
	IsError    bool         `json:"isError,omitempty"`
	DurationMS int64        `json:"durationMs,omitempty"`
}

type modelCallJSON struct {
	Model         string       `json:"model,omitempty"`
	Usage         *model.Usage `json:"usage,omitempty"`
	StopReason    string       `json:"stopReason,omitempty"`
	DurationMS    int64        `json:"durationMs,omitempty"`
	MaxTokens     int          `json:"maxTokens,omitempty"`
	MaxTokensFrom int          `json:"maxTokensFrom,omitempty"`
	InputTokens   int          `json:"inputTokens,omitempty"`
	InputCounted  bool         `json:"inputCounted,omitempty"`
}

type taskJSON struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Owner  string `json:"owner,omitempty"`
}

type permissionJSON struct {
	Decision  string `json:"decision"`
	By        string `json:"by,omitempty"`
	RuleID    string `json:"ruleId,omitempty"`
	Reason    string `json:"reason,omitempty"`
	Simulated bool   `json:"simulated,omitempty"`
}

type retryJSON struct {
	Attempt int    `json:"attempt"`
	WaitMS  int64  `json:"waitMs"`
	Reason  string `json:"reason,omitempty"`
}

type diagnosticJSON struct {
	Code string `json:"code"`
}

type contextJSON struct {
	Level        int      `json:"level"`
	Reason       string   `json:"reason,omitempty"`
	BeforeTokens int      `json:"beforeTokens"`
	AfterTokens  int      `json:"afterTokens"`
	Counted      bool     `json:"counted,omitempty"`
	ArchiveRefs  []string `json:"archiveRefs,omitempty"`
}

type compactionJSON struct {
	Phase         string `json:"phase"`
	Stage         string `json:"stage,omitempty"`
	Before        int    `json:"before,omitempty"`
	After         int    `json:"after,omitempty"`
	BeforeCounted bool   `json:"beforeCounted,omitempty"`
	AfterCounted  bool   `json:"afterCounted,omitempty"`
	Generation    int    `json:"generation,omitempty"`
}

type restoreJSON struct {
	Phase     string `json:"phase"`
	ToSeq     int64  `json:"toSeq"`
	Completed int    `json:"completed"`
	Total     int    `json:"total"`
	Message   string `json:"message,omitempty"`
}

type completionJSON struct {
	ID      string `json:"id"`
	Label   string `json:"label,omitempty"`
	Status  string `json:"status"`
	IsError bool   `json:"isError,omitempty"`
	Content string `json:"content,omitempty"`
}

// resultJSON is the outcome of a prompt. Its assistant and tool result
// messages are left out, as their own events carried them; the prompt's
// user message is kept, as no other event carries it.
type resultJSON struct {
	StopReason string          `json:"stopReason"`
	Turns      int             `json:"turns"`
	Usage      model.Usage     `json:"usage"`
	Text       string          `json:"text,omitempty"`
	Prompt     *model.Message  `json:"prompt,omitempty"`
	Output     json.RawMessage `json:"output,omitempty"`
}

// encodeEvent returns the JSON of ev, before redaction.
func encodeEvent(ev engine.Event) ([]byte, error) {
	e := eventJSON{
		Type: string(ev.Type), SessionID: ev.SessionID, AgentID: ev.AgentID, Turn: ev.Turn,
		Text: ev.Text, Message: ev.Message, Fatal: ev.Fatal,
	}
	if ev.Err != nil {
		e.Error = ev.Err.Error()
	}
	if t := ev.Tool; t != nil {
		e.Tool = &toolJSON{Call: t.Call, Result: t.Result, IsError: t.IsError, DurationMS: t.Duration.Milliseconds()}
	}
	if m := ev.ModelCall; m != nil {
		e.ModelCall = &modelCallJSON{Model: m.Model, Usage: m.Usage, StopReason: string(m.StopReason), DurationMS: m.Duration.Milliseconds(),
			MaxTokens: m.MaxTokens, MaxTokensFrom: m.MaxTokensFrom, InputTokens: m.InputTokens, InputCounted: m.InputCounted}
	}
	if t := ev.Task; t != nil {
		e.Task = &taskJSON{ID: t.ID, Status: string(t.Status), Owner: t.Owner}
	}
	if p := ev.Permission; p != nil {
		e.Permission = &permissionJSON{Decision: string(p.Decision), By: string(p.By), RuleID: p.RuleID, Reason: p.Reason, Simulated: p.Simulated}
	}
	if r := ev.Retry; r != nil {
		e.Retry = &retryJSON{Attempt: r.Attempt, WaitMS: r.Wait.Milliseconds(), Reason: r.Reason}
	}
	if d := ev.Diagnostic; d != nil {
		e.Diagnostic = &diagnosticJSON{Code: d.Code}
	}
	if c := ev.Context; c != nil {
		e.Context = &contextJSON{Level: c.Level, Reason: c.Reason, BeforeTokens: c.BeforeTokens, AfterTokens: c.AfterTokens, Counted: c.Counted, ArchiveRefs: c.ArchiveRefs}
	}
	if c := ev.Compaction; c != nil {
		e.Compaction = &compactionJSON{Phase: string(c.Phase), Stage: string(c.Stage), Before: c.Before, After: c.After,
			BeforeCounted: c.BeforeCounted, AfterCounted: c.AfterCounted, Generation: c.Generation}
	}
	if r := ev.Restore; r != nil {
		e.Restore = &restoreJSON{Phase: r.Phase, ToSeq: r.ToSeq, Completed: r.Completed, Total: r.Total, Message: r.Message}
	}
	if c := ev.Completion; c != nil {
		e.Completion = &completionJSON{ID: c.ID, Label: c.Label, Status: string(c.Status), IsError: c.IsError, Content: c.Content}
	}
	if r := ev.Result; r != nil {
		e.Result = &resultJSON{StopReason: string(r.StopReason), Turns: r.Turns, Usage: r.Usage, Text: r.Text, Output: r.Output}
		if len(r.Messages) > 0 && r.Messages[0].Role == model.RoleUser {
			e.Result.Prompt = &r.Messages[0]
		}
		if len(e.Result.Output) > 0 && !json.Valid(e.Result.Output) {
			e.Result.Output = nil
		}
	}
	return json.Marshal(e)
}
