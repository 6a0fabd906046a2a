//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package postgres

import (
	"errors"
	"net"
	"syscall"
)

// connGone reports whether the peer of an idle connection has closed it
// or sent something unasked (a server process that ends sends a FATAL
// error first): one non-blocking peek at the socket, no data consumed.
// A connection it cannot look at (TLS among them) counts as alive.
func connGone(c net.Conn) bool {
	if _, ok := c.(netConner); ok {
		// Under TLS the socket may hold records nobody asked for that
		// are not the end (a session ticket, a key update): peeking at
		// the raw bytes cannot tell them from a FATAL. pgxpool's own
		// ping of a connection idle for a second stays the check.
		return false
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	gone := false
	var buf [1]byte
	// Control, not Read: Read waits for the socket's read lock, which
	// pgx's background reader holds while it is blocked in a read of the
	// idle connection (it starts when a write takes over 15 ms and may
	// stay in its last read once the statement is done), so the check
	// hung for ever. The peek needs no lock: it neither waits nor
	// consumes. Bytes that reader is about to take may make a live
	// connection look gone: it is then only dropped and replaced.
	err = rc.Control(func(fd uintptr) {
		_, _, rerr := syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case rerr == nil:
			gone = true // n > 0: bytes nobody asked for; n == 0: closed
		case errors.Is(rerr, syscall.EAGAIN), errors.Is(rerr, syscall.EWOULDBLOCK), errors.Is(rerr, syscall.EINTR):
		default:
			gone = true // ECONNRESET and the like
		}
	})
	return gone || err != nil
}
