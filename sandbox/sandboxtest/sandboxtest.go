// Package sandboxtest helps tests that need a working sandbox.
package sandboxtest

import (
	"errors"
	"os"
	"testing"

	"github.com/lite-agent/lite-agent-go/sandbox"
)

// Bubblewrap returns a [sandbox.Bubblewrap] with opts. When bubblewrap is
// missing or cannot run here, the test is skipped with a message naming
// scripts/install-bubblewrap.sh, unless the environment variable CI is
// set, when it fails instead. Other errors fail the test.
func Bubblewrap(t testing.TB, opts sandbox.Options) *sandbox.Bubblewrap {
	t.Helper()
	b, err := sandbox.NewBubblewrap(t.Context(), opts)
	if errors.Is(err, sandbox.ErrUnavailable) {
		if os.Getenv("CI") != "" {
			t.Fatalf("package sandbox: %v (CI is set: run scripts/install-bubblewrap.sh)", err)
		}
		t.Skipf("package sandbox: %v; install it with scripts/install-bubblewrap.sh", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}
