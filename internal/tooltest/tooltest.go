// Package tooltest skips a test that needs a program the machine lacks,
// with a message that says how to install it, except when the CI
// environment variable is set, where a missing component fails the test
// instead: CI installs everything the tests need (.ci/run), so there a
// skip would hide a test that no longer runs.
package tooltest

import (
	"os"
	"os/exec"
	"testing"
)

// CanaryTools says how to install the programs the canary tests of
// package permission (and a few others) run.
const CanaryTools = "install it with scripts/install-canary-tools.sh"

// NodeJS says how to get node, npm and npx, which no script installs:
// besides Go, Node.js is what the tests may assume.
const NodeJS = "install Node.js"

// LongEnv is the environment variable that runs the long tests: the
// canaries of package permission that run a whole toolchain (maven,
// cargo, a JDK, pip installs) for each of many lines. .ci/run sets it; so
// does CI being set.
const LongEnv = "LITE_AGENT_LONG_TESTS"

// Long skips t, a long test, unless the environment variable [LongEnv] is
// 1 or CI is set, with a message that names the variable and says why
// the test is long. It keeps go test ./... within its budget of minutes
// on two cores.
func Long(t testing.TB, why string) {
	t.Helper()
	if os.Getenv(LongEnv) == "1" || os.Getenv("CI") != "" {
		return
	}
	t.Skipf("a long test (%s): set %s=1 to run it, as .ci/run does", why, LongEnv)
}

// Need calls [Missing] for the first of programs that is not installed:
// a name is looked up on PATH, an absolute path is checked as it is. how
// says how to install them, e.g. [CanaryTools].
func Need(t testing.TB, how string, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			Missing(t, p+" is not installed", how)
		}
	}
}

// Missing skips t with the message "what; how", or fails it with that
// message when the environment variable CI is set.
func Missing(t testing.TB, what, how string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s; %s (CI is set: the test must not skip)", what, how)
	}
	t.Skipf("%s; %s", what, how)
}

// LeftOut is for a test that leaves out part of its cases (a line that
// runs a program that is not installed) and goes on: it logs "what; how",
// or, when the environment variable CI is set, reports it as an error, so
// that the test fails once it is done.
func LeftOut(t testing.TB, what, how string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Errorf("%s; %s (CI is set: no case may be left out)", what, how)
		return
	}
	t.Logf("%s; %s", what, how)
}
