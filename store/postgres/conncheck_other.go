//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package postgres

import "net"

// connGone reports false: on this system the idle check is pgxpool's own
// ping after a second idle.
func connGone(net.Conn) bool { return false }
