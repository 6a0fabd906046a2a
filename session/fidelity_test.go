package session_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
)

func TestTypedReadKeepsWhatTheEventDoesNotHold(t *testing.T) {
	const frame = `{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":`
	tests := []struct {
		name    string
		event   string
		keepRaw bool
		text    string // the user or assistant text as read, if checked
		back    string // the event as written back, if not as stored
	}{
		{name: "plain", event: `{"type":"user","message":{"role":"user","content":"hi"}}`},
		{name: "unknown event member", event: `{"type":"user","message":{"role":"user","content":"hi"},"mood":"calm"}`, keepRaw: true},
		{name: "unknown message member", event: `{"type":"user","message":{"role":"user","content":"hi","name":"ana"}}`, keepRaw: true},
		{name: "unknown block member", event: `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"a","citations":[{"n":1}]}]}}`, keepRaw: true},
		{name: "unknown block type", event: `{"type":"assistant","message":{"role":"assistant","content":[{"type":"image","source":{"a":1}}]}}`},
		{name: "lone surrogate", event: `{"type":"user","message":{"role":"user","content":"half \ud800 pair"}}`, keepRaw: true, text: "half \ufffd pair"},
		{name: "surrogate pair", event: `{"type":"user","message":{"role":"user","content":"\ud83d\ude00"}}`, text: "😀",
			back: `{"type":"user","message":{"role":"user","content":"😀"}}`},
		{name: "unknown tool_result member", event: `{"type":"tool_result","result":{"type":"tool_result","id":"c","content":"ok"},"turn":1,"durationMs":5}`, keepRaw: true},
		{name: "unknown event type", event: `{"type":"future","x":1}`},
		{name: "assistant usage", event: `{"type":"assistant","message":{"role":"assistant","content":"a"},"usage":{"inputTokens":7,"outputTokens":2,"cacheReadTokens":3},"inputEstimate":5,"model":"m"}`},
		// An assistant record's usage, estimate and model that another
		// writer spelled otherwise, or that the event holds otherwise,
		// are written back as stored.
		{name: "usage of reordered counts", event: `{"type":"assistant","message":{"role":"assistant","content":"a"},"usage":{"outputTokens":2,"inputTokens":7}}`, keepRaw: true},
		{name: "usage without outputTokens", event: `{"type":"assistant","message":{"role":"assistant","content":"a"},"usage":{"inputTokens":7}}`, keepRaw: true},
		{name: "usage of a zero cache count", event: `{"type":"assistant","message":{"role":"assistant","content":"a"},"usage":{"inputTokens":7,"outputTokens":2,"cacheReadTokens":0}}`, keepRaw: true},
		{name: "zero usage", event: `{"type":"assistant","message":{"role":"assistant","content":"a"},"usage":{"inputTokens":0,"outputTokens":0}}`, keepRaw: true},
		{name: "empty usage", event: `{"type":"assistant","message":{"role":"assistant","content":"a"},"usage":{}}`, keepRaw: true},
		{name: "zero inputEstimate", event: `{"type":"assistant","message":{"role":"assistant","content":"a"},"inputEstimate":0}`, keepRaw: true},
		{name: "huge inputEstimate", event: `{"type":"assistant","message":{"role":"assistant","content":"a"},"inputEstimate":4000000000000}`, keepRaw: true},
		{name: "empty model", event: `{"type":"assistant","message":{"role":"assistant","content":"a"},"model":""}`, keepRaw: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			line := frame + tt.event + "}"
			if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(line+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			cp := newCP(t, dir, session.FileOptions{})
			recs, err := cp.Read(t.Context(), "s1", 0)
			if err != nil || len(recs) != 1 {
				t.Fatalf("Read = %d records, %v", len(recs), err)
			}
			rec := recs[0]
			if got := rec.Raw != nil; got != tt.keepRaw {
				t.Fatalf("Raw = %s, want kept %v", rec.Raw, tt.keepRaw)
			}
			if tt.keepRaw && string(rec.Raw) != tt.event {
				t.Errorf("Raw = %s, want %s", rec.Raw, tt.event)
			}
			b, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			want := line
			if tt.back != "" {
				want = frame + tt.back + "}"
			}
			if string(b) != want {
				t.Errorf("written back as\n%s\nwant\n%s", b, want)
			}
			if tt.text != "" {
				var got string
				switch e := rec.Event.(type) {
				case session.UserEvent:
					got = e.Message.PlainText()
				case session.AssistantEvent:
					got = e.Message.PlainText()
				}
				if got != tt.text {
					t.Errorf("text %q, want %q", got, tt.text)
				}
			}
			// The same through UnmarshalJSON.
			var back session.StoredEvent
			if err := json.Unmarshal([]byte(line), &back); err != nil {
				t.Fatal(err)
			}
			if string(back.Raw) != string(rec.Raw) {
				t.Errorf("UnmarshalJSON Raw = %s, want %s", back.Raw, rec.Raw)
			}
			if strings.Contains(tt.name, "unknown event type") {
				if _, ok := rec.Event.(session.RawEvent); !ok {
					t.Errorf("event %T, want RawEvent", rec.Event)
				}
			}
		})
	}
}
