// Package pgtest finds the PostgreSQL database the tests of this module
// may write to.
package pgtest

import (
	"os"
	"testing"
)

// Env names the variable holding the test database's URL;
// scripts/install-postgres.sh starts a throwaway cluster and prints it.
const Env = "LITE_AGENT_TEST_POSTGRES"

// URL returns the test database's URL. Without one the test skips, naming
// the variable and the script that starts a database; with CI set it fails
// instead, as a missing component must under CI.
func URL(tb testing.TB) string {
	tb.Helper()
	url := os.Getenv(Env)
	if url == "" {
		msg := Env + " is not set: run `eval \"$(scripts/install-postgres.sh)\"` to start a throwaway PostgreSQL"
		if os.Getenv("CI") != "" {
			tb.Fatal(msg + " (CI is set: PostgreSQL tests must not skip)")
		}
		tb.Skip(msg)
	}
	return url
}
