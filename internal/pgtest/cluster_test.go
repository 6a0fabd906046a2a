package pgtest_test

import (
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
)

// A cluster asked to start at ids below the first commit-log page (a
// fresh test server's, as in CI) starts as a new cluster does: pg_resetwal
// -x 0 failed TestALostCommitAskedAboutOnAnotherServer in CI.
func TestClusterBelowTheFirstPage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster")
	}
	u := pgtest.Cluster(t, 1000, "small")
	c, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(t.Context())
	var x int64
	if err := c.QueryRow(t.Context(), `SELECT txid_current()`).Scan(&x); err != nil || x >= 32768 {
		t.Fatalf("txid_current() = %d, %v", x, err)
	}
}
