package main

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/task"
)

// TestToWire checks that each kind-specific part of an event lands in the
// stable stream-json fields it always filled.
func TestToWire(t *testing.T) {
	call := model.ToolCallBlock("c1", "bash", json.RawMessage(`{"command":"ls"}`))
	result := model.Block{Type: model.BlockToolResult, ID: "c1", Content: "boom", IsError: true}
	use := &model.Usage{InputTokens: 3, OutputTokens: 4}
	tests := []struct {
		name string
		ev   liteagent.Event
		want string
	}{
		{"tool_call_end", liteagent.Event{Type: liteagent.EventToolCallEnd, Turn: 2, Tool: &liteagent.ToolEvent{Call: &call, IsError: true, Duration: 1500 * time.Millisecond}},
			`{"type":"tool_call_end","turn":2,"call":{"id":"c1","name":"bash","input":{"command":"ls"}},"isError":true,"durationMs":1500}`},
		{"tool_result", liteagent.Event{Type: liteagent.EventToolResult, Tool: &liteagent.ToolEvent{Call: &call, Result: &result}},
			`{"type":"tool_result","call":{"id":"c1","name":"bash","input":{"command":"ls"}},"result":{"id":"c1","content":"boom","isError":true}}`},
		{"model_call_end", liteagent.Event{Type: liteagent.EventModelCallEnd, Turn: 1, ModelCall: &liteagent.ModelCallEvent{Model: "m", Usage: use, Duration: 2 * time.Second}},
			`{"type":"model_call_end","turn":1,"model":"m","durationMs":2000,"usage":{"inputTokens":3,"outputTokens":4}}`},
		{"turn_end", liteagent.Event{Type: liteagent.EventTurnEnd, Turn: 1, ModelCall: &liteagent.ModelCallEvent{StopReason: model.StopEndTurn}},
			`{"type":"turn_end","turn":1,"stopReason":"stop"}`},
		{"task_update", liteagent.Event{Type: liteagent.EventTaskUpdate, AgentID: "g1", Task: &liteagent.TaskEvent{ID: "7", Status: task.InProgress, Owner: "alice"}},
			`{"type":"task_update","agentId":"g1","taskId":"7","status":"in_progress","owner":"alice"}`},
		{"permission_decision", liteagent.Event{Type: liteagent.EventPermission, Tool: &liteagent.ToolEvent{Call: &call},
			Permission: &liteagent.PermissionEvent{Decision: liteagent.DecisionDeny, By: liteagent.ByPolicy, RuleID: "user:1", Reason: "no", Simulated: true}},
			`{"type":"permission_decision","call":{"id":"c1","name":"bash","input":{"command":"ls"}},"decision":"deny","by":"policy","ruleId":"user:1","reason":"no","simulated":true}`},
		{"retry", liteagent.Event{Type: liteagent.EventRetry, Turn: 1, Retry: &liteagent.RetryEvent{Attempt: 2, Wait: 250 * time.Millisecond, Reason: "overloaded (529)"}, Err: errors.New("busy")},
			`{"type":"retry","turn":1,"reason":"overloaded (529)","attempt":2,"waitMs":250,"error":"busy"}`},
		{"diagnostic", liteagent.Event{Type: liteagent.EventDiagnostic, Diagnostic: &liteagent.DiagnosticEvent{Code: "hook_failed"}, Text: "exit 1"},
			`{"type":"diagnostic","text":"exit 1","code":"hook_failed"}`},
		{"error", liteagent.Event{Type: liteagent.EventError, SessionID: "s", Err: errors.New("x"), Fatal: true},
			`{"type":"error","sessionId":"s","error":"x","fatal":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(toWire(tt.ev))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("toWire =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
