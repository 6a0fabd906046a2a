package sandbox_test

import (
	"os/exec"
	"testing"

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
