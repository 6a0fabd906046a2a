package bash_test

import (
	"context"
	"encoding/json"
	"errors"
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
// with os/exec ("x-exec"), with each containment: the default (a cgroup
// where one can be made), the /proc session sweep alone and a PID
// namespace.
func BenchmarkBash(b *testing.B) {
	dir := b.TempDir()
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
	for _, c := range []struct {
		name string
		c    bash.Containment
	}{{"bash", bash.ContainAuto}, {"session", bash.ContainSession}, {"pidns", bash.ContainPIDNamespace}} {
		b.Run(c.name, func(b *testing.B) {
			bt, err := bash.Tool(bash.Options{Workdir: dir, Containment: c.c})
			var ce *bash.ContainmentError
			if errors.As(err, &ce) {
				b.Skip(err)
			}
			if err != nil {
				b.Fatal(err)
			}
			var tl tool.Tool = bt
			for b.Loop() {
				if res, err := tl.Call(context.Background(), nil, json.RawMessage(`{"command":"true"}`)); err != nil || res.IsError {
					b.Fatal(res.Content, err)
				}
			}
			ratio(b, baseline, "x-exec")
		})
	}
}
