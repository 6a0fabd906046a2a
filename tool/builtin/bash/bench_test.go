package bash_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin/bash"
)

func ratio(b *testing.B, baseline float64, unit string) {
	if baseline > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/baseline, unit)
	}
}

func perOp(b *testing.B) float64 { return float64(b.Elapsed().Nanoseconds()) / float64(b.N) }

// BenchmarkBash measures a bash call of "true" (a process group, a pipe,
// the reader and the kill of the group) against running the same shell
// with os/exec ("x-exec").
func BenchmarkBash(b *testing.B) {
	dir := b.TempDir()
	bt, err := bash.Tool(bash.Options{Workdir: dir})
	if err != nil {
		b.Fatal(err)
	}
	var baseline float64
	b.Run("baseline=exec", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("/bin/bash", "-c", "true")
			cmd.Dir = dir
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
		baseline = perOp(b)
	})
	b.Run("bash", func(b *testing.B) {
		var tl tool.Tool = bt
		for b.Loop() {
			if res, err := tl.Call(context.Background(), nil, json.RawMessage(`{"command":"true"}`)); err != nil || res.IsError {
				b.Fatal(res.Content, err)
			}
		}
		ratio(b, baseline, "x-exec")
	})
}
