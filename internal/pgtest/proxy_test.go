package pgtest

import (
	"encoding/binary"
	"maps"
	"testing"

	"github.com/jackc/pgx/v5"
)

// msg is a typed frontend message of the given body.
func msg(typ byte, body string) []byte {
	b := []byte{typ, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[1:], uint32(4+len(body)))
	return append(b, body...)
}

// untyped is an untyped frontend message (startup, SSL request) with code.
func untyped(code uint32, body string) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint32(b, uint32(8+len(body)))
	binary.BigEndian.PutUint32(b[4:], code)
	return append(b, body...)
}

// The counter counts the same messages however the stream is cut into
// reads: a message's header split between two reads, a body longer than
// a read, several messages in one.
func TestMsgCounterCountsMessagesAcrossReads(t *testing.T) {
	var stream []byte
	stream = append(stream, untyped(80877103, "")...) // SSL request, refused
	stream = append(stream, untyped(196608, "user\x00me\x00\x00")...)
	stream = append(stream, msg('P', "\x00SELECT 1\x00\x00\x00")...)
	stream = append(stream, msg('B', string(make([]byte, 300)))...)
	stream = append(stream, msg('E', "\x00\x00\x00\x00\x00")...)
	stream = append(stream, msg('S', "")...)
	stream = append(stream, msg('Q', "commit\x00")...)
	stream = append(stream, msg('X', "")...)
	want := map[byte]int{0: 1, 'P': 1, 'B': 1, 'E': 1, 'S': 1, 'Q': 1, 'X': 1}
	for step := 1; step <= len(stream); step++ {
		var m msgCounter
		for i := 0; i < len(stream); i += step {
			m.feed(stream[i:min(i+step, len(stream))])
		}
		if got := m.snapshot(); !maps.Equal(got, want) {
			t.Fatalf("reads of %d bytes: %v, want %v", step, got, want)
		}
	}
}

// Through a proxy, a simple query is one 'Q', a statement of the extended
// protocol prepared once and then run from pgx's cache one sync each, and
// the counts are per connection.
func TestProxyCountsMessagesPerConnection(t *testing.T) {
	p, dsn := NewProxy(t, URL(t))
	a, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(t.Context())
	b, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(t.Context())
	if m := p.Messages(); m.Conns() != 2 || m.Of(0) != 2 {
		t.Fatalf("after two connects: %v", m)
	}
	p.ResetMessages()
	if _, err := a.Exec(t.Context(), "select 1", pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatal(err)
	}
	var n int
	for range 3 {
		if err := b.QueryRow(t.Context(), "select $1::int", 7).Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	m := p.Messages()
	if m.Conns() != 2 {
		t.Fatalf("%d connections counted, want 2: %v", m.Conns(), m)
	}
	if m[0]['Q'] != 1 || (MessageCount{m[0]}).RoundTrips() != 1 {
		t.Errorf("simple query: %v, want one 'Q'", m[0])
	}
	// Prepared (parse, describe, sync), then three binds and executes,
	// a sync each.
	if got := m[1]; got['P'] != 1 || got['B'] != 3 || got['E'] != 3 || got['S'] != 4 || got['Q'] != 0 {
		t.Errorf("three prepared runs: %v", got)
	}
	if m.RoundTrips() != 5 {
		t.Errorf("round trips = %d, want 5", m.RoundTrips())
	}
}
