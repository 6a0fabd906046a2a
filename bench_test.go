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
// first model request when resuming a session of 10,000 events: layout
// resolution, config loading, the cleanup sweep, store and tool assembly,
// reading and folding the log and building the request.
func BenchmarkResumeToFirstRequest(b *testing.B) {
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
	var batch []session.Event
	for i := 0; i < 10000; i++ {
		if i%2 == 0 {
			batch = append(batch, session.UserEvent{Message: model.UserText(fmt.Sprint(i, text))})
		} else {
			batch = append(batch, session.AssistantEvent{Message: model.AssistantText(fmt.Sprint(i, text))})
		}
	}
	if _, err := cp.Append(b.Context(), "s", batch, session.AnyHead); err != nil {
		b.Fatal(err)
	}
	var first time.Duration
	for b.Loop() {
		var start time.Time
		p := modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
			first += time.Since(start)
			return nil, context.Canceled // stop right after the request
		})
		start = time.Now()
		a, err := liteagent.New(b.Context(), liteagent.Options{Model: p, ModelName: "m", Workdir: work, Storage: storage.Options{Namespace: "acme", Home: home}, DisableRetry: true})
		if err != nil {
			b.Fatal(err)
		}
		a.Resume("s")
		a.Send(b.Context(), "next")
		a.Close()
		// Keep the log at 10,000 events for the next iteration.
		b.StopTimer()
		if err := cp.Truncate(b.Context(), "s", 10000, session.AnyHead); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(first.Microseconds())/float64(b.N)/1000, "ms-to-first-request")
}
