package postgres

import (
	"context"
	"net"

	"github.com/jackc/pgx/v5"
)

// prepareConn is the pool's check of an idle connection before it hands
// it out: a connection whose server process has gone (killed by
// pg_terminate_backend, or a server restart: it sent its FATAL message and
// closed) is dropped, and the pool takes or makes another. Without it the
// first statement after such an event failed on the dead connection (and
// with it a turn that ran on a healthy server), up to a second after the
// connection was last used, when pgxpool's own ping took over. The check
// reads nothing and writes nothing: it peeks at the socket without
// waiting (see connGone).
func prepareConn(_ context.Context, c *pgx.Conn) (bool, error) {
	return !connGone(c.PgConn().Conn()), nil
}

// netConner is a connection wrapping another (a *tls.Conn); connGone
// does not look beneath it.
type netConner interface{ NetConn() net.Conn }
