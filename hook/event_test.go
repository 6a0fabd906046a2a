package hook_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestPayloadJSONIsPinned pins the JSON of every payload type, the format
// command hooks read: key order, optional fields and units.
func TestPayloadJSONIsPinned(t *testing.T) {
	id := hook.Identity{RunID: "9b2f8f4e-1c1d-4f5e-8a11-3d2a6c0b7e55", SessionID: "s1", Source: hook.SourceUser}
	child := hook.Identity{RunID: "r2", SessionID: "agent-general-purpose-0a1b2c3d", AgentID: "agent-general-purpose-0a1b2c3d", Source: hook.SourceBackground}
	call := hook.ToolCall{ID: "toolu_1", Name: "bash", Input: json.RawMessage(`{"command":"go test ./... && echo <ok>"}`)}
	payloads := []hook.Payload{
		hook.RunStart{Identity: id, Input: json.RawMessage(`"fix the bug"`)},
		hook.RunStart{Identity: child},
		hook.RunEnd{Identity: id, Status: hook.StatusCompleted, Result: &hook.RunResult{
			Text: "done", Usage: model.Usage{InputTokens: 120, OutputTokens: 30, CacheReadTokens: 100}, StopReason: "stop"}},
		hook.RunEnd{Identity: id, Status: hook.StatusMaxTurns, Result: &hook.RunResult{Text: "", StopReason: "max_turns", Output: json.RawMessage(`{"ok":true}`)}},
		hook.RunEnd{Identity: id, Status: hook.StatusFailed, Err: &hook.ErrorInfo{Name: "ProviderError", Message: "overloaded"}},
		hook.ToolStart{Identity: id, Call: call},
		hook.ToolStart{Identity: id, Call: hook.ToolCall{ID: "t2", Name: "TaskList"}},
		hook.ToolEnd{Identity: id, Call: call, Result: &hook.ToolResult{ID: "toolu_1", Name: "bash", Content: "ok"}, Status: hook.StatusCompleted, Duration: 2345678 * time.Microsecond},
		hook.ToolEnd{Identity: id, Call: call, Status: hook.StatusCancelled, Err: &hook.ErrorInfo{Name: "Canceled", Message: "context canceled"}},
		hook.CompactStart{Identity: id, CompactionID: "cmp-1", Kind: hook.CompactAuto, Before: 150000},
		hook.CompactStart{Identity: hook.Identity{RunID: "r3", SessionID: "s1", Source: hook.SourceManual}, CompactionID: "cmp-2", Kind: hook.CompactManual, Before: 9000, Instructions: "keep the API notes"},
		hook.CompactEnd{Identity: id, CompactionID: "cmp-1", Kind: hook.CompactAuto, Before: 150000, After: 40000, Status: hook.StatusCompleted},
		hook.CompactStart{Identity: id, CompactionID: "cmp-4", Kind: hook.CompactAuto, Before: 150000, BeforeCounted: true},
		hook.CompactEnd{Identity: id, CompactionID: "cmp-4", Kind: hook.CompactAuto, Before: 150000, After: 40000, BeforeCounted: true, Status: hook.StatusCompleted},
		hook.CompactEnd{Identity: id, CompactionID: "cmp-5", Kind: hook.CompactManual, Before: 150000, After: 40000, BeforeCounted: true, AfterCounted: true, Status: hook.StatusCompleted},
		hook.CompactEnd{Identity: id, CompactionID: "cmp-3", Kind: hook.CompactMicro, Before: 10, After: 10, Status: hook.StatusFailed, Err: &hook.ErrorInfo{Name: "Error", Message: "planner failed"}},
	}
	var buf bytes.Buffer
	for _, p := range payloads {
		b, err := hook.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(b) {
			t.Fatalf("invalid JSON %s", b)
		}
		var ev struct{ Event hook.Event }
		if err := json.Unmarshal(b, &ev); err != nil || ev.Event != p.Event() {
			t.Fatalf("event field of %s", b)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	golden := filepath.Join("testdata", "payloads.golden")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("payload JSON changed; got:\n%s\nwant:\n%s", buf.Bytes(), want)
	}
}

func TestMarshalRejectsNilAndInvalidRaw(t *testing.T) {
	if _, err := hook.Marshal(nil); err == nil {
		t.Fatal("nil payload accepted")
	}
	if _, err := hook.Marshal(hook.RunStart{Input: json.RawMessage(`{`)}); err == nil {
		t.Fatal("invalid input accepted")
	}
}

func TestEventsAreValid(t *testing.T) {
	for _, e := range hook.Events() {
		if !e.Valid() {
			t.Errorf("%s not valid", e)
		}
	}
	for _, e := range []hook.Event{"", "run", "Run:Start", "tool:*"} {
		if e.Valid() {
			t.Errorf("%q valid", e)
		}
	}
}
