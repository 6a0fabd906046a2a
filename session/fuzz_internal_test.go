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
			full.check("s", pos)
			skim.parse(newReader(line), false)
			skim.check("s", pos)
			if !msgjson.Valid(line) && (full.kind != storage.ProblemSyntax || skim.kind != storage.ProblemSyntax) {
				t.Fatalf("invalid JSON classified %q/%q", full.kind, skim.kind)
			}
			if full.problem == "" && skim.problem != "" {
				t.Fatalf("skim refuses (%s) a line the full decode accepts", skim.problem)
			}
			if skim.problem == "" && full.problem != "" && full.kind != storage.ProblemEvent {
				t.Fatalf("skim accepts a line the full decode refuses for its frame (%s)", full.problem)
			}
			if full.problem != "" {
				continue
			}
			again, err := appendRecord(nil, pos, "s", pos-1, jsonstr.FormatTime(full.ts), full.event)
			if err != nil {
				t.Fatalf("re-encoding an accepted line: %v", err)
			}
			var back frame
			back.parse(newReader(again), true)
			back.check("s", pos)
			if back.problem != "" {
				t.Fatalf("re-encoded line %s refused: %s", again, back.problem)
			}
			third, err := appendRecord(nil, pos, "s", pos-1, jsonstr.FormatTime(back.ts), back.event)
			if err != nil || !bytes.Equal(third, again) {
				t.Fatalf("encoding is not stable:\n%s\n%s", again, third)
			}
			if bytes.ContainsAny(again, "\n\r") {
				t.Fatalf("re-encoded line holds a line break: %q", again)
			}
		}
	})
}
