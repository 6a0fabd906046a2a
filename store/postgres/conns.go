package postgres

import (
	"context"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// closeGrace is how long Close lets the pool's connections say goodbye to
// the server (a Terminate each, and a cancel request for each one closed
// under a statement, which pgx gives 15 s), before it closes every
// network connection of the Store: on a database that stopped answering,
// Close returns after about this long instead of 15 s or a lease's TTL.
// Acquires that gave up (see Project.insertLease) are waited for as long
// as the database answers a new connection's ping (within half of this)
// each closeGrace: cut, their statements may commit a lease nobody
// releases.
const closeGrace = 2 * time.Second

// A connSet holds the network connections a Store's pool dialed (for its
// connections and for the cancel requests pgx sends when it closes one
// under a statement), so that Close can end those a database that stopped
// answering leaves hanging. Once closed, it closes what it holds and
// refuses to dial.
type connSet struct {
	mu     sync.Mutex
	m      map[*setConn]struct{}
	closed bool
}

// dial returns inner's connections, held in cs until closed.
func (cs *connSet) dial(inner pgconn.DialFunc) pgconn.DialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := inner(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		sc := &setConn{Conn: c, set: cs}
		cs.mu.Lock()
		closed := cs.closed
		if !closed {
			if cs.m == nil {
				cs.m = map[*setConn]struct{}{}
			}
			cs.m[sc] = struct{}{}
		}
		cs.mu.Unlock()
		if closed {
			c.Close()
			return nil, net.ErrClosed
		}
		return sc, nil
	}
}

// close closes every connection cs holds, making the calls blocked on
// them fail at once, and every later dial.
func (cs *connSet) close() {
	cs.mu.Lock()
	cs.closed = true
	held := cs.m
	cs.m = nil
	cs.mu.Unlock()
	for c := range held {
		_ = c.Conn.Close()
	}
}

// isClosed reports whether cs was closed (see Store.Close): it dials no
// more.
func (cs *connSet) isClosed() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.closed
}

// A setConn is a connection held in a connSet until closed.
type setConn struct {
	net.Conn
	set *connSet
}

// Close closes the connection and forgets it.
func (c *setConn) Close() error {
	c.set.mu.Lock()
	delete(c.set.m, c)
	c.set.mu.Unlock()
	return c.Conn.Close()
}

// SyscallConn returns the raw connection beneath, for connGone's peek;
// syscall.EINVAL when it has none.
func (c *setConn) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := c.Conn.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, syscall.EINVAL
}
