package liteagent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/tool"
)

// resultContents returns the tool result contents of a request, in order.
func resultContents(req model.Request) []string {
	var out []string
	for _, m := range req.Messages {
		for _, b := range m.Blocks {
			if b.Type == model.BlockToolResult {
				out = append(out, b.Content)
			}
		}
	}
	return out
}

func TestLegacyCompactionSpillsAndReadSpilledReturns(t *testing.T) {
	f := newFixture(t)
	body := strings.Repeat("build log line\n", 16_000) // 240,000 characters
	dump := tool.New("dump", "Prints the build log.", func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
		return tool.Text(body), nil
	})
	opts := f.options(aeadCodec(t, "k1"))
	opts.Tools, opts.LegacyCompaction = []tool.Tool{dump}, true
	a := f.agent(t, opts)

	ref := spill.Ref(body)
	f.p.Reply(modeltest.ToolCalls(call("d", "dump", `{}`)))
	f.p.Reply(modeltest.ToolCalls(call("r", "read_spilled", `{"ref":"`+ref+`"}`)))
	f.p.Reply(modeltest.ToolCalls(call("m", "read_spilled", `{"ref":"0123456789abcdef"}`)))
	f.p.Reply(modeltest.Text("done"))
	res, err := a.Send(t.Context(), "show me the build log")
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.p.Requests()
	marker := "[spilled:" + ref + "] 240000 bytes moved off-context — call read_spilled({ ref: \"" + ref + "\" }) to view the full content."
	if got := resultContents(reqs[1]); len(got) != 1 || got[0] != marker {
		t.Fatalf("second request's results = %.200q, want the spill marker", got)
	}
	// read_spilled returned the whole body (which the next request spills
	// again, under the same ref), and the missing text for another ref.
	var results []string
	for _, m := range res.Messages {
		for _, b := range m.Blocks {
			if b.Type == model.BlockToolResult {
				results = append(results, b.Content)
			}
		}
	}
	if len(results) != 3 || results[1] != body || results[2] != "No spilled content for ref '0123456789abcdef'" {
		t.Fatalf("tool results = %.100q", results)
	}
	// The body is in the project's spill directory, encoded.
	data, err := os.ReadFile(filepath.Join(a.Paths().SpillDir, ref+spill.FileSuffix))
	if err != nil || strings.Contains(string(data), "build log") {
		t.Fatalf("spill file: %v (plaintext %v)", err, strings.Contains(string(data), "build log"))
	}
	// Requests only are compacted: the fourth spills both bodies, under
	// the one ref.
	if last := resultContents(reqs[3]); last[0] != marker || last[1] != marker {
		t.Errorf("fourth request's results = %.200q", last)
	}
}

func TestLegacyCompactionTrimsOnOverflow(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.LegacyCompaction = true
	a := f.agent(t, opts)
	for _, p := range []string{"first", "second", "third"} {
		f.p.Reply(modeltest.Text("answer to " + p))
		if _, err := a.Send(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	f.p.Fail(model.NewError(model.ClassContextOverflow, 400, "prompt is too long", nil))
	f.p.Reply(modeltest.Text("short answer"))
	res, err := a.Send(t.Context(), "fourth")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "short answer" {
		t.Fatalf("result %q", res.Text)
	}
	reqs := f.p.Requests()
	retry := reqs[len(reqs)-1].Messages
	want := []string{"[2 earlier turn(s) dropped — context overflow]", "third", "answer to third", "fourth"}
	var got []string
	for _, m := range retry {
		got = append(got, m.PlainText())
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("retried request %q, want %q", got, want)
	}
}

func TestHostCompactionPasses(t *testing.T) {
	for _, name := range []string{"with the context engine", "without it"} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			var calls atomic.Int32
			tag := compaction.PassFunc("tag", func(_ context.Context, msgs []model.Message) ([]model.Message, error) {
				calls.Add(1)
				out := append([]model.Message{}, msgs...)
				return append(out, model.UserText("<tagged>")), nil
			})
			opts := f.options(nil)
			opts.Compaction = []compaction.Pass{tag}
			opts.DisableContext = name == "without it"
			a := f.agent(t, opts)
			f.p.Reply(modeltest.Text("hi"))
			if _, err := a.Send(t.Context(), "hello"); err != nil {
				t.Fatal(err)
			}
			reqs := f.p.Requests()
			msgs := reqs[0].Messages
			if calls.Load() == 0 || len(reqs) != 1 || msgs[len(msgs)-1].Text != "<tagged>" {
				t.Errorf("%d pass calls; request %+v", calls.Load(), msgs)
			}
			// read_spilled stays the archive alias without legacy compaction.
			for _, spec := range reqs[0].Tools {
				if spec.Name == "read_spilled" && !strings.Contains(string(spec.InputSchema), "offset") {
					t.Errorf("read_spilled is not the archive alias: %s", spec.InputSchema)
				}
			}
		})
	}
}

func TestLegacyCompactionSpillStore(t *testing.T) {
	body := strings.Repeat("y", 210_000)
	ref := spill.Ref(body)
	tests := []struct {
		name string
		set  func(*liteagent.Options, *elsewhere)
		dir  func(a *liteagent.Agent, s *elsewhere) string // where the body is, "" for nowhere on disk
	}{
		{"data home", func(*liteagent.Options, *elsewhere) {}, func(a *liteagent.Agent, _ *elsewhere) string { return a.Paths().SpillDir }},
		{"Store", func(o *liteagent.Options, s *elsewhere) { o.Store = s }, func(_ *liteagent.Agent, s *elsewhere) string { return filepath.Join(s.dir, "spill") }},
		{"memory", func(o *liteagent.Options, _ *elsewhere) { o.DisableSessions = true }, func(*liteagent.Agent, *elsewhere) string { return "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			s := newElsewhere(t)
			dump := tool.New("dump", "Prints a lot.", func(context.Context, *tool.Call, struct{}) (tool.Result, error) {
				return tool.Text(body), nil
			})
			opts := f.options(nil)
			opts.Tools, opts.LegacyCompaction = []tool.Tool{dump}, true
			tt.set(&opts, s)
			a := f.agent(t, opts)
			f.p.Reply(modeltest.ToolCalls(call("d", "dump", `{}`)))
			f.p.Reply(modeltest.ToolCalls(call("r", "read_spilled", `{"ref":"`+ref+`"}`)))
			f.p.Reply(modeltest.Text("done"))
			res, err := a.Send(t.Context(), "go")
			if err != nil {
				t.Fatal(err)
			}
			if got := resultContents(f.p.Requests()[1]); len(got) != 1 || !strings.HasPrefix(got[0], "[spilled:"+ref+"]") {
				t.Fatalf("second request's results = %.100q", got)
			}
			if got := res.Messages[len(res.Messages)-2]; len(got.Blocks) != 1 || got.Blocks[0].Content != body {
				t.Fatalf("read_spilled result %.100q", got.Blocks[0].Content)
			}
			if dir := tt.dir(a, s); dir != "" {
				if _, err := os.Stat(filepath.Join(dir, ref+spill.FileSuffix)); err != nil {
					t.Errorf("spill file: %v", err)
				}
			}
			if _, err := os.Stat(a.Paths().SpillDir); (err == nil) != (tt.name == "data home") {
				t.Errorf("data home spill directory: %v", err)
			}
		})
	}
}

func TestSummaryPassInTheAgent(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	opts.DisableContext, opts.DisableTasks = true, true
	opts.Compaction = []compaction.Pass{compaction.Summary(f.p, compaction.SummaryOptions{
		Model: "summarizer", Threshold: 1, KeepRecentTurns: 1, Base: []compaction.Pass{},
	})}
	a := f.agent(t, opts)
	for _, p := range []string{"first", "second"} {
		f.p.Reply(modeltest.Text("answer to " + p))
		if _, err := a.Send(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	f.p.Reply(modeltest.Text("They asked twice."), modeltest.Text("third answer"))
	res, err := a.Send(t.Context(), "third")
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.p.Requests()
	if len(reqs) != 4 || reqs[2].Model != "summarizer" || res.Text != "third answer" {
		t.Fatalf("%d requests, the third for %q; result %q", len(reqs), reqs[2].Model, res.Text)
	}
	var got []string
	for _, m := range reqs[3].Messages {
		got = append(got, m.PlainText())
	}
	if want := []string{"[Summary of earlier conversation]\nThey asked twice.", "third"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("request after the summary %q, want %q", got, want)
	}
}
