package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Named returns dsn with a random application_name, and the name, so that
// a test can find the server processes of the connections made with it
// (see Terminate, WaitForLock).
func Named(tb testing.TB, dsn string) (string, string) {
	tb.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	app := "pgtest_" + hex.EncodeToString(b)
	q := u.Query()
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	return u.String(), app
}

// Terminate ends the server processes of the connections named app, as an
// administrator's pg_terminate_backend does, waiting for them to exit, and
// returns how many there were.
func Terminate(tb testing.TB, conn *pgx.Conn, app string) int {
	tb.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM (SELECT pg_terminate_backend(pid, 5000)
		FROM pg_stat_activity WHERE application_name = $1) x`, app).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// WaitForLock returns once a statement of a connection named app waits
// for a lock, and fails tb after 10 seconds.
func WaitForLock(tb testing.TB, conn *pgx.Conn, app string) {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var waiting int
		if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, app).Scan(&waiting); err != nil {
			tb.Fatal(err)
		}
		if waiting > 0 {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatal("no statement of " + app + " waited for a lock")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Connect opens a connection of its own to the test database, closed when
// tb ends.
func Connect(tb testing.TB) *pgx.Conn {
	tb.Helper()
	conn, err := pgx.Connect(context.Background(), URL(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
