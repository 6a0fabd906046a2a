package tooltest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// recorder is a testing.TB that records whether the test was skipped or
// failed, and with what message.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}

func (r *recorder) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// need runs tooltest.Need on a recorder, as a test's goroutine would.
func need(t *testing.T, programs ...string) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		tooltest.Need(r, tooltest.CanaryTools, programs...)
	}()
	<-done
	return r
}

func TestNeedSkipsNamingTheScriptAndFailsUnderCI(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-program")
	for _, tc := range []struct {
		ci           string
		skip, failed bool
	}{{"", true, false}, {"true", false, true}} {
		t.Setenv("CI", tc.ci)
		r := need(t, "sh", missing, "also-missing-but-not-reached")
		if r.skipped != tc.skip || r.failed != tc.failed {
			t.Errorf("CI=%q: skipped %v, failed %v; want %v, %v", tc.ci, r.skipped, r.failed, tc.skip, tc.failed)
		}
		if !strings.Contains(r.msg, missing+" is not installed") || !strings.Contains(r.msg, "scripts/install-canary-tools.sh") {
			t.Errorf("CI=%q: message %q names neither the program nor the script", tc.ci, r.msg)
		}
	}
	if r := need(t, "sh"); r.skipped || r.failed {
		t.Errorf("sh is installed, yet %q", r.msg)
	}
}

// TestTheScriptsExist checks that the script the messages name is there,
// executable, in the repository two directories up.
func TestTheScriptsExist(t *testing.T) {
	script := strings.TrimPrefix(tooltest.CanaryTools, "install it with ")
	fi, err := os.Stat(filepath.Join("..", "..", script))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&0o111 == 0 {
		t.Errorf("%s is not executable: %v", script, fi.Mode())
	}
}

// TestLongRunsOnlyWhenAsked checks that a long test skips, naming the
// variable, unless LITE_AGENT_LONG_TESTS=1 or CI is set.
func TestLongRunsOnlyWhenAsked(t *testing.T) {
	for _, tc := range []struct {
		long, ci string
		skip     bool
	}{{"", "", true}, {"0", "", true}, {"1", "", false}, {"", "true", false}} {
		t.Setenv(tooltest.LongEnv, tc.long)
		t.Setenv("CI", tc.ci)
		r := &recorder{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			tooltest.Long(r, "runs maven")
		}()
		<-done
		if r.skipped != tc.skip {
			t.Errorf("%s=%q CI=%q: skipped %v, want %v", tooltest.LongEnv, tc.long, tc.ci, r.skipped, tc.skip)
		}
		if r.skipped && (!strings.Contains(r.msg, tooltest.LongEnv+"=1") || !strings.Contains(r.msg, "runs maven")) {
			t.Errorf("message %q names neither the variable nor why", r.msg)
		}
	}
}
