package engine_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// BenchmarkResume measures the first turn of a new engine on a session of
// 100,000 events (what resuming it in a new process costs the engine):
// reading the log, projecting it and building the request. "uncompacted"
// starts from a log without a view; "compacted" from the log after
// Engine.Compact, which is read from its view (of the whole history: these
// small messages leave level 4 nothing to shorten).
func BenchmarkResume(b *testing.B) {
	const n = 100000
	seeded := b.TempDir()
	cp, err := session.NewFileCheckpointer(seeded, session.FileOptions{})
	if err != nil {
		b.Fatal(err)
	}
	seedSession(b, cp, "s", n)
	compacted := b.TempDir()
	if err := os.CopyFS(compacted, os.DirFS(seeded)); err != nil {
		b.Fatal(err)
	}
	ccp, err := session.NewFileCheckpointer(compacted, session.FileOptions{})
	if err != nil {
		b.Fatal(err)
	}
	eng, err := engine.New(engine.Options{Provider: replyProvider{}, Checkpointer: ccp, Model: "m", Context: &engine.ContextOptions{}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := eng.Compact(b.Context(), "s", engine.CompactOptions{}); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		from string
		ctx  *engine.ContextOptions
	}{
		{"context=off", seeded, nil},
		{"context=on/uncompacted", seeded, &engine.ContextOptions{}},
		{"context=on/compacted", compacted, &engine.ContextOptions{}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				dir := filepath.Join(b.TempDir(), fmt.Sprint(i))
				if err := os.CopyFS(dir, os.DirFS(tc.from)); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				firstTurn(b, dir, tc.ctx)
			}
		})
	}
}

// firstTurn runs one turn of a new engine on session s of the log in dir.
func firstTurn(b *testing.B, dir string, c *engine.ContextOptions) {
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		b.Fatal(err)
	}
	eng, err := engine.New(engine.Options{Provider: replyProvider{modeltest.Text("ok").Chunks()}, Checkpointer: cp, Model: "m", Context: c})
	if err != nil {
		b.Fatal(err)
	}
	for _, err := range eng.Turn(b.Context(), "s", model.UserText("next")) {
		if err != nil {
			b.Fatal(err)
		}
	}
}
