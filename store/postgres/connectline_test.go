package postgres_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// TestConnectErrorIsOneLineWithoutADatabase: a URL without sslmode (the
// README's) makes the driver try twice, with and without TLS, and join the
// two failures with a newline. The *ConnectError is still one line, names
// host and database, and holds no password. It needs no database: nothing
// listens on port 1.
func TestConnectErrorIsOneLineWithoutADatabase(t *testing.T) {
	for _, dsn := range []string{
		"postgres://agent:s3cr3tpw@127.0.0.1:1/agents",
		"postgres://agent:s3cr3tpw@127.0.0.1:1/agents?sslmode=prefer",
		"host=127.0.0.1 port=1 dbname=agents user=agent password=s3cr3tpw",
	} {
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		st, err := postgres.Open(ctx, dsn, postgres.Options{})
		cancel()
		if err == nil {
			st.Close()
			t.Fatalf("%s: Open succeeded", dsn)
		}
		var ce *postgres.ConnectError
		msg := err.Error()
		if !errors.As(err, &ce) || strings.ContainsAny(msg, "\n\r\t") || strings.Contains(msg, "s3cr3tpw") ||
			!strings.Contains(msg, "127.0.0.1:1") || !strings.Contains(msg, "agents") {
			t.Errorf("%s: %T %q; want a one-line *ConnectError naming host and database, without the password", dsn, err, msg)
		}
	}
}
