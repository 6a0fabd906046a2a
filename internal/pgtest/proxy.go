package pgtest

import (
	"net"
	"net/url"
	"sync"
	"testing"
)

// A Proxy stands between a Store and the test database, so that a test
// can do to the Store's connections what a server restart does: cut every
// one of them, and refuse new ones for a while.
type Proxy struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	conns  map[net.Conn]bool
	refuse bool
	mute   bool // accept and never answer
	wg     sync.WaitGroup
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

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		refuse, mute := p.refuse, p.mute
		if !refuse {
			p.conns[c] = true
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
			s, err := net.Dial("tcp", p.target)
			if err != nil {
				p.drop(c)
				return
			}
			p.mu.Lock()
			p.conns[s] = true
			p.mu.Unlock()
			var cw sync.WaitGroup
			cw.Add(2)
			pipe := func(dst, src net.Conn) {
				defer cw.Done()
				buf := make([]byte, 32<<10)
				for {
					n, err := src.Read(buf)
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

// Hole makes the proxy accept new connections and never answer them.
func (p *Proxy) Hole(on bool) {
	p.mu.Lock()
	p.mute = on
	p.mu.Unlock()
}
