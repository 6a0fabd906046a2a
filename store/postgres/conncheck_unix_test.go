//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package postgres

import (
	"crypto/tls"
	"net"
	"testing"
	"time"
)

// TestConnGoneLooksOnlyAtPlainSockets: a plain socket with bytes nobody
// asked for, or closed by its peer, is gone; a TLS connection is never
// judged by its raw bytes (a session ticket is not a FATAL), so pgxpool's
// ping stays its check.
func TestConnGoneLooksOnlyAtPlainSockets(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dial := func() (client, server net.Conn) {
		t.Helper()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		s, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(); s.Close() })
		return c, s
	}
	settle := func() { time.Sleep(50 * time.Millisecond) }

	c, _ := dial()
	if connGone(c) {
		t.Error("an idle plain socket with nothing to read is gone")
	}
	c, s := dial()
	s.Write([]byte("E"))
	settle()
	if !connGone(c) {
		t.Error("a plain socket with unasked bytes is not gone")
	}
	c, s = dial()
	s.Close()
	settle()
	if !connGone(c) {
		t.Error("a plain socket its peer closed is not gone")
	}
	c, s = dial()
	s.Write([]byte{0x17, 0x03, 0x03})
	settle()
	if connGone(tls.Client(c, &tls.Config{InsecureSkipVerify: true})) {
		t.Error("a TLS connection was judged by its raw bytes")
	}
}
