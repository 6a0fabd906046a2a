package sandbox_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/sandbox/sandboxtest"
)

// BenchmarkStart measures what the sandbox adds to starting a command:
// "/bin/sh -c 'exit 0'" run directly and under bubblewrap.
func BenchmarkStart(b *testing.B) {
	wd := b.TempDir()
	sb := sandboxtest.Bubblewrap(b, sandbox.Options{Workdir: wd})
	for _, bc := range []struct {
		name string
		sb   sandbox.Sandbox
	}{{"direct", nil}, {"bwrap", sb}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command("/bin/sh", "-c", "exit 0")
				cmd.Dir = wd
				if bc.sb != nil {
					if err := bc.sb.Wrap(cmd); err != nil {
						b.Fatal(err)
					}
				}
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAfterRun measures the repository check after a command on a
// workdir of 1,000 directories of 10 files each (11,000 entries), or on
// the directory LITE_AGENT_BENCH_WORKDIR names (a project with a big
// node_modules): AfterRun after a command that changed no directory,
// which reads none of them again; AfterRun-cold, the first check of a
// session, which reads them all; and find(1) over the same tree, which
// reads what the cold check reads.
func BenchmarkAfterRun(b *testing.B) {
	wd := os.Getenv("LITE_AGENT_BENCH_WORKDIR")
	if wd == "" {
		wd = b.TempDir()
		for d := range 1000 {
			dir := filepath.Join(wd, fmt.Sprintf("pkg%d", d%10), fmt.Sprintf("d%d", d))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			for f := range 10 {
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.js", f)), nil, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	sb := sandboxtest.Bubblewrap(b, sandbox.Options{Workdir: wd})
	// The directories are remembered once they are older than MemoSlack.
	time.Sleep(sandbox.MemoSlack)
	b.Run("AfterRun", func(b *testing.B) {
		if err := sb.AfterRun(b.Context()); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := sb.AfterRun(b.Context()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AfterRun-cold", func(b *testing.B) {
		for b.Loop() {
			sandbox.ForgetWalk(sb)
			if err := sb.AfterRun(b.Context()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("find", func(b *testing.B) {
		if _, err := exec.LookPath("find"); err != nil {
			b.Skip("no find")
		}
		for b.Loop() {
			cmd := exec.Command("find", ".")
			cmd.Dir = wd
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
