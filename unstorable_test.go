package liteagent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/tool"
)

// TestAResultThatLooksEncodedIsShortenedInPlace checks that a tool result
// the plaintext stores cannot keep (it has the form of an encoded record,
// which they would not read back) does not end the turn: the context
// engine shortens it in place instead of archiving it, and legacy
// compaction leaves it unspilled.
func TestAResultThatLooksEncodedIsShortenedInPlace(t *testing.T) {
	body := `{"liteAgentStorage":1,"codec":"gzip-v1","payload":"` + strings.Repeat("QUJD", 62_500) + `"}`
	dump := tool.New("dump", "Prints a record.", func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
		return tool.Text(body), nil
	})
	for _, legacy := range []bool{false, true} {
		t.Run(map[bool]string{false: "context engine", true: "legacy compaction"}[legacy], func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(nil) // plaintext
			opts.Tools, opts.LegacyCompaction = []tool.Tool{dump}, legacy
			opts.ContextWindow = 4000
			a := f.agent(t, opts)
			f.p.Reply(modeltest.ToolCalls(call("d", "dump", `{}`)), modeltest.Text("seen"))
			if _, err := a.Send(t.Context(), "dump it"); err != nil {
				t.Fatal(err)
			}
			f.p.Reply(modeltest.Text("ok"))
			if _, err := a.Send(t.Context(), "and now?"); err != nil {
				t.Fatalf("a result that looks encoded ended the turn: %v", err)
			}
			if legacy {
				return // the Reactive pass may trim it; the turn went on
			}
			reqs := f.p.Requests()
			got := resultContents(reqs[len(reqs)-1])
			if len(got) != 1 || !strings.HasPrefix(got[0], "[tool result externalized after presentation] ") {
				t.Errorf("the result in the last request = %.120q, want it shortened in place", got)
			}
		})
	}
}
