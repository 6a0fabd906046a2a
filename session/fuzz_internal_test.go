package session

import (
	"bytes"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
	"github.com/lite-agent/lite-agent-go/internal/msgjson"
	"github.com/lite-agent/lite-agent-go/storage"
)

// FuzzDecodeLine feeds arbitrary bytes to the log line decoder as record 1
// and 2 of session "s". It must never panic; a line it accepts must
// re-encode to a line it accepts with the same meaning; validating without
// decoding (records a read does not return) must accept exactly the
// frames the full decode accepts, or be stricter only on event bodies;
// and a line that is not JSON must be classified as a syntax problem,
// since only those are ever repaired.
func FuzzDecodeLine(f *testing.F) {
	f.Add([]byte(`{"seq":1,"sessionId":"s","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"hi"}}}`))
	f.Add([]byte(`{"seq":2,"sessionId":"s","parentSeq":1,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"tool_result","result":{"type":"tool_result","id":"c","content":"x","isError":true},"turn":1}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		for pos := int64(1); pos <= 2; pos++ {
			var full, skim frame
			full.parse(newReader(line), true)
			full.Check("s", pos)
			skim.parse(newReader(line), false)
			skim.Check("s", pos)
			if !msgjson.Valid(line) && (full.Kind != storage.ProblemSyntax || skim.Kind != storage.ProblemSyntax) {
				t.Fatalf("invalid JSON classified %q/%q", full.Kind, skim.Kind)
			}
			if full.Problem == "" && skim.Problem != "" {
				t.Fatalf("skim refuses (%s) a line the full decode accepts", skim.Problem)
			}
			if skim.Problem == "" && full.Problem != "" && full.Kind != storage.ProblemEvent {
				t.Fatalf("skim accepts a line the full decode refuses for its frame (%s)", full.Problem)
			}
			if full.Problem != "" {
				continue
			}
			again, err := appendRecord(nil, pos, "s", pos-1, jsonstr.FormatTime(full.Time), full.event)
			if err != nil {
				t.Fatalf("re-encoding an accepted line: %v", err)
			}
			var back frame
			back.parse(newReader(again), true)
			back.Check("s", pos)
			if back.Problem != "" {
				t.Fatalf("re-encoded line %s refused: %s", again, back.Problem)
			}
			third, err := appendRecord(nil, pos, "s", pos-1, jsonstr.FormatTime(back.Time), back.event)
			if err != nil || !bytes.Equal(third, again) {
				t.Fatalf("encoding is not stable:\n%s\n%s", again, third)
			}
			if bytes.ContainsAny(again, "\n\r") {
				t.Fatalf("re-encoded line holds a line break: %q", again)
			}
		}
	})
}
