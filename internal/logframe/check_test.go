package logframe_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/logframe"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// TestCheckAgreesWithHead checks Check against Head, which
// applies the same checks to every record of a log (Verify and Read also
// decode the events they check).
func TestCheckAgreesWithHead(t *testing.T) {
	const ts = `"ts":"2026-07-22T12:00:00.000Z"`
	first := `{"seq":1,"sessionId":"s1","parentSeq":null,` + ts + `,"event":{"type":"user","message":{"role":"user","content":"hi"}}}`
	second := func(body string) string { return `{"seq":2,"sessionId":"s1","parentSeq":1,` + ts + `,` + body + `}` }
	for _, tc := range []struct {
		name, line string
		ok         bool
		message    string // the start of the error's message, if not ok
	}{
		{"valid", second(`"event":{"type":"user","message":{"role":"user","content":"hi"}}`), true, ""},
		{"unknown event type", second(`"event":{"type":"future_event","x":1}`), true, ""},
		// Head does not decode the event's members; neither does
		// Check.
		{"event body of the wrong shape", second(`"event":{"type":"user","message":42}`), true, ""},
		{"escaped session id", `{"seq":2,"sessionId":"s\u0031","parentSeq":1,` + ts + `,"event":{"type":"summary"}}`, true, ""},
		{"wrong seq", `{"seq":3,"sessionId":"s1","parentSeq":2,` + ts + `,"event":{"type":"user"}}`, false, ""},
		{"wrong session", `{"seq":2,"sessionId":"s2","parentSeq":1,` + ts + `,"event":{"type":"user"}}`, false, ""},
		{"wrong parent", `{"seq":2,"sessionId":"s1","parentSeq":null,` + ts + `,"event":{"type":"user"}}`, false, ""},
		{"no ts", `{"seq":2,"sessionId":"s1","parentSeq":1,"event":{"type":"user"}}`, false, ""},
		{"bad ts", `{"seq":2,"sessionId":"s1","parentSeq":1,"ts":"yesterday","event":{"type":"user"}}`, false, ""},
		{"no event", second(`"x":1`), false, ""},
		{"event without a type", second(`"event":{"message":"hi"}`), false, ""},
		{"event type not a string", second(`"event":{"type":7}`), false, ""},
		{"not JSON", second(`"event":{"type":"user"`), false, ""},
		{"not an object", `[1,2]`, false, ""},
		{"an envelope", `{"liteAgentStorage":1,"codec":"gzip-v1","payload":"AAAA"}`, false, "Encoded storage requires its configured codec"},
		{"a torn envelope", `{"liteAgentStorage":1,"codec":"gzip-v1","payl`, false, "Encoded storage requires its configured codec"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := logframe.Check([]byte(tc.line), "s1", 2, false)
			var se *storage.Error
			switch {
			case tc.ok && err != nil:
				t.Errorf("Check = %v, want nil", err)
			case !tc.ok && !errors.As(err, &se):
				t.Errorf("Check = %v, want a *storage.Error", err)
			case !tc.ok && tc.message != "" && se.Message != tc.message:
				t.Errorf("message %q, want %q", se.Message, tc.message)
			case !tc.ok && tc.message == "" && !strings.HasPrefix(se.Message, "Corrupt checkpoint record 2: "):
				t.Errorf("message %q", se.Message)
			}

			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(first+"\n"+tc.line+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = cp.Head(t.Context(), "s1")
			if headOK := err == nil; headOK != tc.ok {
				t.Errorf("Head = %v, Check ok = %v", err, tc.ok)
			}
		})
	}
	if err := logframe.Check([]byte(first), "s1", 1, false); err != nil {
		t.Errorf("first record: %v", err)
	}
}

func TestCheckAllocatesNothingForAValidRecord(t *testing.T) {
	line := []byte(`{"seq":7,"sessionId":"s1","parentSeq":6,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"a \"quoted\" word"}]}}}`)
	allocs := testing.AllocsPerRun(100, func() {
		if err := logframe.Check(line, "s1", 7, false); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Check allocates %.0f times", allocs)
	}
}

// TestCheckOfAnEncodedLogTakesAnEnvelopeKey checks that a decoded
// record holding a liteAgentStorage member is judged by its frame, as the
// reader of an encoded log judges it, and refused in a plaintext log.
func TestCheckOfAnEncodedLogTakesAnEnvelopeKey(t *testing.T) {
	line := []byte(`{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","liteAgentStorage":1,"event":{"type":"user"}}`)
	if err := logframe.Check(line, "s1", 1, true); err != nil {
		t.Errorf("encoded log: %v", err)
	}
	var se *storage.Error
	if err := logframe.Check(line, "s1", 1, false); !errors.As(err, &se) || se.Message != "Encoded storage requires its configured codec" {
		t.Errorf("plaintext log: %v", err)
	}

	dir := t.TempDir()
	enc := storage.Encoding{Codec: codec.Gzip()}
	stored, err := enc.Encode(t.Context(), storage.KindCheckpoint, "s1", "1", line)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), append(stored, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cp.Head(t.Context(), "s1"); err != nil {
		t.Errorf("Head of the encoded log: %v", err)
	}
}

// benchLines are records of the shapes a session log holds most: a user
// prompt, an assistant reply with a tool call and a tool result.
var benchLines = [][]byte{
	[]byte(`{"seq":41,"sessionId":"s0007","parentSeq":40,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"7/41 the agent read file main.go and found that function handler returns an error when request body is empty so it proposes a patch adding check before decoding together with test case"}}}`),
	[]byte(`{"seq":41,"sessionId":"s0007","parentSeq":40,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"7/41 the agent read file main.go and found that function handler returns an error when request body is empty so it proposes"},{"type":"tool_call","id":"c41","name":"bash","input":{"command":"ls -la 41"}}]}}}`),
	[]byte(`{"seq":41,"sessionId":"s0007","parentSeq":40,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"tool_result","result":{"type":"tool_result","id":"c40","content":"7/41 the agent read file main.go and found that function handler returns an error when request body is empty so it proposes a patch adding check before decoding together with test case covering nil input plus logging of id duration status code go build ./... ok FAIL"},"turn":41}}`),
}

func BenchmarkCheck(b *testing.B) {
	var n int64
	for _, l := range benchLines {
		n += int64(len(l))
	}
	b.SetBytes(n / int64(len(benchLines)))
	for i := 0; b.Loop(); i++ {
		if err := logframe.Check(benchLines[i%len(benchLines)], "s0007", 41, false); err != nil {
			b.Fatal(err)
		}
	}
}
