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
	dial := socketPair(t)
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

// TestConnGoneDoesNotWaitForAReadInProgress: pgx's background reader,
// started by a write slower than 15 ms, can stay blocked in a read of an
// idle connection in the pool. connGone must not wait for it: it waited
// for the socket's read lock that read holds, so the pool's next Acquire
// of the connection, and the statement after it, hung for ever whatever
// its context (seen: a conformance test of the package stuck for ten
// minutes in connGone under -race on a loaded machine).
func TestConnGoneDoesNotWaitForAReadInProgress(t *testing.T) {
	c, _ := socketPair(t)()
	reading := make(chan struct{})
	go func() {
		close(reading)
		var b [1]byte
		_, _ = c.Read(b[:]) // blocks until s writes or c closes
	}()
	<-reading
	time.Sleep(50 * time.Millisecond) // the read is in progress
	done := make(chan bool, 1)
	go func() { done <- connGone(c) }()
	select {
	case gone := <-done:
		if gone {
			t.Error("an idle socket another goroutine reads is gone")
		}
	case <-time.After(5 * time.Second):
		t.Error("connGone waits for a read in progress")
	}
}

// socketPair returns a function that makes a connected pair of TCP
// sockets on the loopback, closed when the test ends.
func socketPair(t *testing.T) func() (client, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return func() (client, server net.Conn) {
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
}
