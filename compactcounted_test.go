package liteagent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// collectHooks adds to opts a func hook of each of events that records its
// payloads, and returns what takes the payloads recorded so far.
func collectHooks(opts *liteagent.Options, events ...hook.Event) (take func() []hook.Payload) {
	var (
		mu   sync.Mutex
		seen []hook.Payload
	)
	for _, ev := range events {
		opts.Hooks = append(opts.Hooks, hook.Hook{Event: ev, Func: func(_ context.Context, p hook.Payload) error {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, p)
			return nil
		}})
	}
	return func() []hook.Payload {
		mu.Lock()
		defer mu.Unlock()
		got := seen
		seen = nil
		return got
	}
}

// replyReadingBig writes big.txt (10,000 characters) in the workdir and
// has the model read it with read_file, then answer "read".
func (f *fixture) replyReadingBig(t *testing.T) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(f.workdir, "big.txt"), []byte(strings.Repeat("data ", 2000)), 0o600); err != nil {
		t.Fatal(err)
	}
	f.p.Reply(modeltest.ToolCalls(call("r", "read_file", `{"path":"big.txt"}`)), modeltest.Text("read"))
}

// TestCompactHooksSayWhatWasCounted: compact:start and compact:end say
// whether their figures are the provider's count, as the compaction
// events do: an automatic compaction's before as its context_status's
// Counted (its after is an estimate scaled to the count), a manual one's
// as CompactResult's BeforeCounted and AfterCounted. The payloads had no
// such flag.
func TestCompactHooksSayWhatWasCounted(t *testing.T) {
	for _, count := range []bool{true, false} {
		f := newFixture(t)
		opts := f.options(nil)
		if count {
			opts.Model = modeltest.Dense{Provider: f.p}
		}
		opts.System = "You help."
		opts.AllowedTools = []string{"read_file", "context"}
		opts.ContextWindow = 2000
		take := collectHooks(&opts, hook.EventCompactStart, hook.EventCompactEnd)
		a := f.agent(t, opts)
		f.replyReadingBig(t)
		var statuses []engine.ContextStatus
		for ev, err := range a.Run(t.Context(), "read big.txt") {
			if err != nil {
				t.Fatal(err)
			}
			if ev.Type == liteagent.EventContextStatus {
				statuses = append(statuses, *ev.Context)
			}
		}
		auto := take()
		if len(auto) == 0 || len(auto) != 2*len(statuses) {
			t.Fatalf("count %v: hooks %+v, context statuses %+v", count, auto, statuses)
		}
		for i, st := range statuses {
			s, e := auto[2*i].(hook.CompactStart), auto[2*i+1].(hook.CompactEnd)
			if st.Counted != count || s.BeforeCounted != count || e.BeforeCounted != count || e.AfterCounted || s.Before != int64(st.BeforeTokens) {
				t.Errorf("count %v: context status %+v: compact:start %+v, compact:end %+v", count, st, s, e)
			}
		}

		res, err := a.Compact(t.Context(), liteagent.CompactOptions{})
		if err != nil {
			t.Fatal(err)
		}
		manual := take()
		if len(manual) != 2 {
			t.Fatalf("count %v: manual compaction hooks %+v", count, manual)
		}
		s, e := manual[0].(hook.CompactStart), manual[1].(hook.CompactEnd)
		if res.BeforeCounted != count || s.BeforeCounted != res.BeforeCounted || e.BeforeCounted != res.BeforeCounted || e.AfterCounted != res.AfterCounted {
			t.Errorf("count %v: result %+v: compact:start %+v, compact:end %+v", count, res, s, e)
		}
	}
}
