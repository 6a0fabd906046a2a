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
	err = rc.Read(func(fd uintptr) bool {
		n, _, rerr := syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case rerr == nil:
			gone = true // n > 0: bytes nobody asked for; n == 0: closed
			_ = n
		case errors.Is(rerr, syscall.EAGAIN), errors.Is(rerr, syscall.EWOULDBLOCK), errors.Is(rerr, syscall.EINTR):
		default:
			gone = true // ECONNRESET and the like
		}
		return true
	})
	return gone || err != nil
}
