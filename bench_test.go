package liteagent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// BenchmarkResumeToFirstRequest measures the time from liteagent.New to the
// first model request when resuming a session of 10,000, 100,000 and
// 300,000 events: layout resolution, config loading, the cleanup sweep,
// store and tool assembly, reading the log and building the request.
// "uncompacted" sessions are read whole (and the context engine commits
// its first view on the way); "compacted" ones end with a view committed
// by Agent.CompactSession (with CompactSummary), so only the view and the
// events after it are read. Each iteration starts from the same log.
// Run with -benchtime=3x or so: the larger logs take seconds to build.
func BenchmarkResumeToFirstRequest(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 300_000} {
		for _, compacted := range []bool{false, true} {
			name := fmt.Sprintf("events=%d/uncompacted", n)
			if compacted {
				name = fmt.Sprintf("events=%d/compacted", n)
			}
			b.Run(name, func(b *testing.B) { benchResume(b, n, compacted) })
		}
	}
}

func benchResume(b *testing.B, n int, compacted bool) {
	home, work := b.TempDir(), b.TempDir()
	b.Setenv(storage.HomeEnv, "")
	b.Setenv("HOME", b.TempDir())
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Namespace: "acme", Home: home}})
	if err != nil {
		b.Fatal(err)
	}
	cp, err := session.NewFileCheckpointer(paths.SessionsDir, session.FileOptions{Encoding: storage.Encoding{Namespace: "acme", ProjectID: paths.Hash}})
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat("lorem ipsum ", 16)
	for start := 0; start < n; start += 10_000 {
		var batch []session.Event
		for i := start; i < min(start+10_000, n); i++ {
			if i%2 == 0 {
				batch = append(batch, session.UserEvent{Message: model.UserText(fmt.Sprint(i, text))})
			} else {
				batch = append(batch, session.AssistantEvent{Message: model.AssistantText(fmt.Sprint(i, text))})
			}
		}
		if _, err := cp.Append(b.Context(), "s", batch, session.AnyHead); err != nil {
			b.Fatal(err)
		}
	}
	opts := liteagent.Options{ModelName: "m", Workdir: work, Storage: storage.Options{Namespace: "acme", Home: home}, DisableRetry: true}
	if compacted {
		o := opts
		o.CompactSummary = true
		o.Model = modeltest.NewFunc(func(context.Context, model.Request) ([]model.Chunk, error) {
			return modeltest.Text("a summary of the earlier conversation").Chunks(), nil
		})
		a, err := liteagent.New(b.Context(), o)
		if err != nil {
			b.Fatal(err)
		}
		if res, err := a.CompactSession(b.Context(), "s", liteagent.CompactOptions{}); err != nil || !res.Committed {
			b.Fatalf("compact: %+v %v", res, err)
		}
		a.Close()
	}
	head, err := cp.Head(b.Context(), "s")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var first time.Duration
	for b.Loop() {
		var start time.Time
		o := opts
		o.Model = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
			first += time.Since(start)
			return nil, context.Canceled // stop right after the request
		})
		start = time.Now()
		a, err := liteagent.New(b.Context(), o)
		if err != nil {
			b.Fatal(err)
		}
		a.Resume("s")
		a.Send(b.Context(), "next")
		a.Close()
		// Keep the log as it was for the next iteration.
		b.StopTimer()
		if err := cp.Truncate(b.Context(), "s", head, session.AnyHead); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(first.Microseconds())/float64(b.N)/1000, "ms-to-first-request")
}
