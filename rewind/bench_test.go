package rewind_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/lite-agent/lite-agent-go/rewind"
)

// BenchmarkRestorePlan plans and preflights a restore (a dry run) over 200
// files changed twice each, a 1,601-record log in memory: the work done
// before a restore changes anything.
func BenchmarkRestorePlan(b *testing.B) {
	w := newWorld(b, nil)
	cp := w.prompt("go")
	for round := range 2 {
		for i := range 200 {
			w.change(fmt.Sprintf("d%d/f%d.txt", i%10, i), fmt.Appendf(nil, "content %d %d", i, round))
		}
	}
	ctx := context.Background()
	for b.Loop() {
		res, err := rewind.Restore(ctx, w.cp, w.files, w.id, cp, rewind.Options{DryRun: true}, nil)
		if err != nil || len(res.Files) != 200 {
			b.Fatal(res, err)
		}
	}
}
