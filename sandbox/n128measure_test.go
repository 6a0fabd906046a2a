//go:build linux

package sandbox_test

import (
	"os"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/sandbox/sandboxtest"
)

func TestN128Measure(t *testing.T) {
	wd := os.Getenv("N128_WD")
	if wd == "" {
		t.Skip()
	}
	sb := sandboxtest.Bubblewrap(t, sandbox.Options{Workdir: wd})
	for i := 0; i < 5; i++ {
		start := time.Now()
		err := sb.AfterRun(t.Context())
		t.Logf("AfterRun %v err=%v", time.Since(start), err)
	}
}
