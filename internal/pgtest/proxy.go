package pgtest

import (
	"bytes"
	"encoding/binary"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"
)

// A Proxy stands between a Store and the test database, so that a test
// can do to the Store's connections what a server restart does: cut every
// one of them, and refuse new ones for a while.
type Proxy struct {
	ln     net.Listener
	target string // guarded by mu: see Retarget

	mu     sync.Mutex
	conns  map[net.Conn]bool
	refuse bool
	mute   bool // accept and never answer
	frozen bool // see Mute
	// match, dropRequest and cutAfter: see LoseReplyTo, DropRequest and
	// CutAfterRequest.
	match       []byte
	dropRequest bool
	cutAfter    bool
	delay       time.Duration // see DelayRequest
	strand      bool          // see StrandRequest
	noCancel    bool          // see DropCancels
	counters    []*msgCounter // per connection accepted, in order: see Messages
	hookMatch   []byte        // see OnRequest
	hook        func()
	replyMatch  []byte // see OnReply
	replyHook   func()
	wg          sync.WaitGroup
}

// OnRequest makes the proxy run fn when a client next sends a message
// holding match, before it passes the message on (the client waits for
// its answer meanwhile), so that a test can act at the moment a request
// goes out: between two statements of a call, say. It is apart from the
// rules of LoseReplyTo and the like, which it does not replace. The rule
// applies once.
func (p *Proxy) OnRequest(match []byte, fn func()) {
	p.mu.Lock()
	p.hookMatch, p.hook = bytes.Clone(match), fn
	p.mu.Unlock()
}

// OnReply makes the proxy run fn when the server next sends a client
// bytes holding match, before it passes them on (the client waits for
// them meanwhile): a test can act once the server has answered and
// before the client knows the answer. It is apart from OnRequest and the
// rules of LoseReplyTo and the like. The rule applies once.
func (p *Proxy) OnReply(match []byte, fn func()) {
	p.mu.Lock()
	p.replyMatch, p.replyHook = bytes.Clone(match), fn
	p.mu.Unlock()
}

// takeReplyHook returns the function of OnReply if b holds its match,
// clearing the rule, and nil otherwise.
func (p *Proxy) takeReplyHook(b []byte) func() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.replyMatch == nil || !bytes.Contains(b, p.replyMatch) {
		return nil
	}
	fn := p.replyHook
	p.replyMatch, p.replyHook = nil, nil
	return fn
}

// takeHook returns the function of OnRequest if b holds its match,
// clearing the rule, and nil otherwise.
func (p *Proxy) takeHook(b []byte) func() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hookMatch == nil || !bytes.Contains(b, p.hookMatch) {
		return nil
	}
	fn := p.hook
	p.hookMatch, p.hook = nil, nil
	return fn
}

// A MessageCount is what clients sent through a Proxy: per connection, in
// the order the proxy accepted them, the number of messages of each type
// of the frontend protocol ('Q' a simple query; 'P', 'B', 'D', 'E' the
// parse, bind, describe and execute of the extended protocol; 'S' a sync;
// 'X' a terminate), the first message of a connection (its startup, or a
// cancel request) under 0.
type MessageCount []map[byte]int

// Of returns the messages of type typ on every connection.
func (m MessageCount) Of(typ byte) int {
	n := 0
	for _, c := range m {
		n += c[typ]
	}
	return n
}

// RoundTrips returns the requests after which a client waits for the
// server, on every connection: its syncs and simple queries. A pipelined
// batch ends with one sync, one round trip.
func (m MessageCount) RoundTrips() int { return m.Of('S') + m.Of('Q') }

// Conns returns how many connections sent anything.
func (m MessageCount) Conns() int { return len(m) }

// Messages returns the messages clients sent since the proxy started or
// ResetMessages, per connection that sent any.
func (p *Proxy) Messages() MessageCount {
	p.mu.Lock()
	cs := p.counters
	p.mu.Unlock()
	var m MessageCount
	for _, c := range cs {
		if n := c.snapshot(); len(n) > 0 {
			m = append(m, n)
		}
	}
	return m
}

// ResetMessages starts the counts of Messages again from zero (a
// connection open goes on being counted).
func (p *Proxy) ResetMessages() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.counters {
		c.reset()
	}
}

// A msgCounter reads the frontend protocol stream of one connection, cut
// anywhere into the reads the proxy makes, and counts its messages by
// type.
type msgCounter struct {
	mu      sync.Mutex
	started bool   // the startup message is past
	head    []byte // the start of the message under way, until its length is known
	skip    int    // the bytes of the message under way still to come
	n       map[byte]int
}

// feed counts the messages of b, the next bytes of the stream.
func (m *msgCounter) feed(b []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for len(b) > 0 {
		if m.skip > 0 {
			k := min(m.skip, len(b))
			m.skip -= k
			b = b[k:]
			continue
		}
		// An untyped message (startup, SSL or GSS request, cancel
		// request) starts with its length and a code; a typed one with
		// its type and its length.
		hl := 5
		if !m.started {
			hl = 8
		}
		k := min(hl-len(m.head), len(b))
		m.head = append(m.head, b[:k]...)
		b = b[k:]
		if len(m.head) < hl {
			return
		}
		if m.n == nil {
			m.n = map[byte]int{}
		}
		if m.started {
			m.n[m.head[0]]++
			m.skip = int(binary.BigEndian.Uint32(m.head[1:5])) - 4
		} else {
			switch binary.BigEndian.Uint32(m.head[4:8]) {
			case 80877103, 80877104:
				// An SSL or GSS encryption request: the startup follows
				// (the proxy passes no encrypted stream: refused).
			default:
				m.started = true
				m.n[0]++
			}
			m.skip = int(binary.BigEndian.Uint32(m.head[:4])) - 8
		}
		m.head = m.head[:0]
	}
}

// snapshot returns a copy of the counts.
func (m *msgCounter) snapshot() map[byte]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := make(map[byte]int, len(m.n))
	for k, v := range m.n {
		c[k] = v
	}
	return c
}

// reset zeroes the counts, the reading of the stream going on.
func (m *msgCounter) reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n = nil
}

// DropCancels makes the proxy close, without passing them on, the
// connections on which a client asks the server to cancel a statement (a
// CancelRequest, which pgx sends when a connection fails under a
// statement), as a network that loses them or a pooler that ignores them
// does; false passes them on again.
func (p *Proxy) DropCancels(drop bool) {
	p.mu.Lock()
	p.noCancel = drop
	p.mu.Unlock()
}

// isCancelRequest reports whether b starts with a CancelRequest message.
func isCancelRequest(b []byte) bool {
	return len(b) >= 8 && bytes.Equal(b[:8], []byte{0, 0, 0, 16, 0x04, 0xd2, 0x16, 0x2e})
}

// CutAfterRequest makes the proxy pass the next message a client sends
// that holds match to the server and then cut that connection at once,
// both ways, without waiting for the server: the server has the request
// (it runs it, and a statement outside a transaction commits, unless it
// notices the client gone first), and the client sees its connection
// lost while the server may still be at work. The rule applies once.
func (p *Proxy) CutAfterRequest(match []byte) {
	p.mu.Lock()
	p.match, p.dropRequest, p.cutAfter, p.delay, p.strand = bytes.Clone(match), false, true, 0, false
	p.mu.Unlock()
}

// LoseReplyTo makes the proxy pass the next message a client sends that
// holds match to the server and then cut that connection as soon as the
// server answers, without passing the answer on: the server did what was
// asked (a COMMIT committed), and the client sees its connection lost.
// The rule applies once.
func (p *Proxy) LoseReplyTo(match []byte) {
	p.mu.Lock()
	p.match, p.dropRequest, p.cutAfter, p.delay, p.strand = bytes.Clone(match), false, false, 0, false
	p.mu.Unlock()
}

// DelayRequest makes the proxy hold the next message a client sends that
// holds match for d before passing it on (and everything the client sends
// after it, in order), as a network that retransmits a lost segment does:
// the message reaches the server late, even when the client has given up
// and closed the connection meanwhile (the server reads the request before
// the end of the stream, and runs it). The rule applies once.
func (p *Proxy) DelayRequest(match []byte, d time.Duration) {
	p.mu.Lock()
	p.match, p.dropRequest, p.cutAfter, p.delay, p.strand = bytes.Clone(match), false, false, d, false
	p.mu.Unlock()
}

// DropRequest makes the proxy cut the connection on which a client next
// sends a message holding match, without passing the message on: the
// server never sees it, and the client sees its connection lost. The rule
// applies once.
func (p *Proxy) DropRequest(match []byte) {
	p.mu.Lock()
	p.match, p.dropRequest, p.cutAfter, p.delay, p.strand = bytes.Clone(match), true, false, 0, false
	p.mu.Unlock()
}

// StrandRequest makes the proxy cut the client's side of the connection on
// which a client next sends a message holding match, without passing the
// message on, and keep the server's side open (until Cut): the server
// never sees the request nor the end of the connection, as after a
// network partition, and its backend waits (idle, in its transaction if
// one was open) for a client that is gone. The rule applies once.
func (p *Proxy) StrandRequest(match []byte) {
	p.mu.Lock()
	p.match, p.dropRequest, p.cutAfter, p.delay, p.strand = bytes.Clone(match), true, false, 0, true
	p.mu.Unlock()
}

// take reports whether the client's bytes b hold the pending match,
// whether the request is to be dropped, whether the connection is to be
// cut once it is passed on, and how long it is to be held first; a match
// clears the rule.
func (p *Proxy) take(b []byte) (hit, drop, cut bool, delay time.Duration, strand bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.match == nil || !bytes.Contains(b, p.match) {
		return false, false, false, 0, false
	}
	p.match = nil
	return true, p.dropRequest, p.cutAfter, p.delay, p.strand
}

// NewProxy starts a proxy to the host of dsn and returns it with dsn
// rewritten to go through it; it stops when t ends.
func NewProxy(t *testing.T, dsn string) (*Proxy, string) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, target: u.Host, conns: map[net.Conn]bool{}}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(func() {
		ln.Close()
		p.Cut()
		p.wg.Wait()
	})
	u.Host = ln.Addr().String()
	return p, u.String()
}

// Retarget makes the proxy send the connections it accepts from now on to
// the host of dsn (those open stay where they are), as a failover to
// another server behind the same address does.
func (p *Proxy) Retarget(tb testing.TB, dsn string) {
	tb.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	p.mu.Lock()
	p.target = u.Host
	p.mu.Unlock()
}

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		mc := &msgCounter{}
		p.mu.Lock()
		refuse, mute, target := p.refuse, p.mute, p.target
		if !refuse {
			p.conns[c] = true
			p.counters = append(p.counters, mc)
		}
		p.mu.Unlock()
		if refuse {
			c.Close()
			continue
		}
		if mute {
			continue // held open, never answered, closed by cut
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			s, err := net.Dial("tcp", target)
			if err != nil {
				p.drop(c)
				return
			}
			p.mu.Lock()
			p.conns[s] = true
			p.mu.Unlock()
			var cw sync.WaitGroup
			cw.Add(2)
			var losing sync.Mutex // guards lose
			lose := false         // the server's next answer is to be lost
			pipe := func(dst, src net.Conn) {
				defer cw.Done()
				buf := make([]byte, 32<<10)
				for first := true; ; first = false {
					n, err := src.Read(buf)
					if src == c {
						mc.feed(buf[:n])
					}
					if first && src == c && isCancelRequest(buf[:n]) {
						p.mu.Lock()
						no := p.noCancel
						p.mu.Unlock()
						if no {
							break
						}
					}
					p.mu.Lock()
					frozen := p.frozen
					p.mu.Unlock()
					if frozen {
						// Swallowed: a mute server neither reads nor
						// answers, and its connection stays open.
						if err != nil {
							break
						}
						continue
					}
					if n > 0 && src == c {
						if fn := p.takeHook(buf[:n]); fn != nil {
							fn()
						}
						hit, drop, cut, delay, strand := p.take(buf[:n])
						if hit && strand {
							p.drop(c) // the server's side stays open
							return
						}
						if hit && drop {
							break
						}
						if hit && delay > 0 {
							time.Sleep(delay)
							_, _ = dst.Write(buf[:n])
							continue
						}
						if hit && cut {
							_, _ = dst.Write(buf[:n])
							time.Sleep(50 * time.Millisecond) // the server reads it
							break
						}
						if hit {
							losing.Lock()
							lose = true
							losing.Unlock()
						}
					}
					if n > 0 && src == s {
						if fn := p.takeReplyHook(buf[:n]); fn != nil {
							fn()
						}
						losing.Lock()
						l := lose
						losing.Unlock()
						if l {
							break // the server answered: lose the answer
						}
					}
					if n > 0 {
						if _, werr := dst.Write(buf[:n]); werr != nil {
							break
						}
					}
					if err != nil {
						break
					}
				}
				p.drop(dst)
				p.drop(src)
			}
			go pipe(s, c)
			go pipe(c, s)
			cw.Wait()
		}()
	}
}

func (p *Proxy) drop(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	c.Close()
}

// Cut closes every connection through the proxy, as a server that
// restarts does.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// Down makes the proxy refuse (true) or accept (false) new connections.
func (p *Proxy) Down(refuse bool) {
	p.mu.Lock()
	p.refuse = refuse
	p.mu.Unlock()
}

// Mute makes the connections through the proxy, open or new, stop
// passing anything either way (true), as a server that hangs or a network
// that drops every packet does; the connections stay open. What was
// swallowed is lost: after Mute(false), Cut the connections.
func (p *Proxy) Mute(on bool) {
	p.mu.Lock()
	p.frozen = on
	p.mu.Unlock()
}

// Hole makes the proxy accept new connections and never answer them.
func (p *Proxy) Hole(on bool) {
	p.mu.Lock()
	p.mute = on
	p.mu.Unlock()
}
