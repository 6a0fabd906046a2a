package mcphost

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/strictjson"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Identity and protocol of the client.
const (
	clientName    = "lite-agent"
	clientVersion = "0.16.0"
	// protocolVersion is the version requested first. The SDK falls back to
	// the newest version an older server supports.
	protocolVersion = "2026-07-28"
	// terminateWait is how long closing a stdio server waits for it to exit
	// after its stdin is closed, and again after SIGTERM, before SIGKILL.
	terminateWait = time.Second
)

// inheritedEnv are the host variables every stdio server gets: the official
// transports' safe defaults.
var inheritedEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}

// A server is the state of one configured server.
type server struct {
	h    *Host
	def  Server        // validated and normalized
	busy chan struct{} // one slot, held while connecting or listing

	mu      sync.Mutex // guards the fields below
	status  Status
	err     error        // why, when status is StatusError
	conn    *conn        // the live connection, or nil
	tools   []remoteTool // catalog of the last successful listing
	changed bool         // the catalog may have changed since that listing
	built   map[string]tool.Tool
}

// A remoteTool is one entry of a server's catalog.
type remoteTool struct {
	name        string
	description string
	schema      json.RawMessage
	key         string // digest of name, description and schema
}

// A snapshot is a server's connection and catalog at one moment.
type snapshot struct {
	conn  *conn
	tools []remoteTool
}

// A conn is one live session with a server.
type conn struct {
	sess   *mcp.ClientSession
	pid    int             // of a stdio server's process group leader
	client *http.Transport // of an http server, to drop idle connections
	once   sync.Once
}

// close ends the session, kills what remains of a stdio server's process
// group and drops idle HTTP connections. It is idempotent and waits for
// the server's process to be reaped.
func (c *conn) close() {
	c.once.Do(func() {
		_ = c.sess.Close()
		killGroup(c.pid)
		if c.client != nil {
			c.client.CloseIdleConnections()
		}
	})
}

// needsConnect reports whether ensure would connect s.
func (s *server) needsConnect() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn == nil && (s.status == StatusConfigured || s.status == StatusStale)
}

// fail records err, a *ServerError, as s's failure.
func (s *server) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status == StatusClosed {
		return
	}
	s.status, s.err = StatusError, err
	s.tools, s.built = nil, nil
	s.h.opts.Logger.Warn("mcp server failed", "server", s.def.Name, "error", err.Error())
}

// markChanged notes that s's catalog may have changed: the next Tools or
// call lists it again.
func (s *server) markChanged() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.changed = true
}

// dropConn forgets c, a connection that failed, so that the next use of s
// reconnects, and closes it.
func (s *server) dropConn(c *conn) {
	s.mu.Lock()
	current := s.conn == c
	if current {
		s.conn = nil
		if s.status == StatusReady {
			s.status = StatusStale
		}
	}
	s.mu.Unlock()
	c.close()
	if current {
		// Logged once the server's process has been reaped.
		s.h.opts.Logger.Warn("mcp connection lost", "server", s.def.Name)
	}
}

// ensure returns s's connection and current catalog, connecting s or
// listing its catalog again first if needed. granted says that
// Options.Connect has just granted a connection; without it ensure asks
// before connecting. Failures other than ctx being done are recorded as
// the server's sticky error.
func (s *server) ensure(ctx context.Context, granted bool) (snapshot, error) {
	select {
	case s.busy <- struct{}{}:
	case <-ctx.Done():
		return snapshot{}, ctx.Err()
	}
	defer func() { <-s.busy }()

	s.mu.Lock()
	status, c, changed, tools := s.status, s.conn, s.changed, s.tools
	err := s.err
	s.mu.Unlock()
	switch {
	case status == StatusClosed:
		return snapshot{}, ErrClosed
	case status == StatusError:
		return snapshot{}, err
	case c != nil && !changed:
		return snapshot{conn: c, tools: tools}, nil
	}

	if c != nil {
		s.mu.Lock()
		s.changed = false
		s.mu.Unlock()
		tools, err := s.list(ctx, c)
		if err == nil {
			s.setCatalog(c, tools)
			return snapshot{conn: c, tools: tools}, nil
		}
		if ctx.Err() != nil {
			s.markChanged()
			return snapshot{}, ctx.Err()
		}
		if !errors.Is(err, mcp.ErrConnectionClosed) {
			serr := &ServerError{Server: s.def.Name, Err: err}
			s.dropConn(c)
			s.fail(serr)
			return snapshot{}, serr
		}
		s.dropConn(c)
	}

	if !granted {
		if err := s.h.authorize(ctx, s); err != nil {
			if ctx.Err() != nil {
				return snapshot{}, ctx.Err()
			}
			s.fail(err)
			return snapshot{}, err
		}
	}
	if !s.h.begin() {
		return snapshot{}, ErrClosed
	}
	defer s.h.wg.Done()
	s.mu.Lock()
	prev := s.status
	s.status = StatusConnecting
	s.mu.Unlock()

	c, tools, err = s.dial(ctx)
	if err != nil {
		if ctx.Err() != nil || s.h.isClosed() {
			s.mu.Lock()
			if s.status == StatusConnecting {
				s.status = prev
			}
			s.mu.Unlock()
			if s.h.isClosed() {
				return snapshot{}, ErrClosed
			}
			return snapshot{}, ctx.Err()
		}
		serr := &ServerError{Server: s.def.Name, Err: err}
		s.fail(serr)
		return snapshot{}, serr
	}
	if !s.h.begin() {
		c.close()
		return snapshot{}, ErrClosed
	}
	s.mu.Lock()
	s.conn = c
	s.mu.Unlock()
	s.setCatalog(c, tools)
	go func() {
		defer s.h.wg.Done()
		_ = c.sess.Wait()
		s.dropConn(c)
	}()
	return snapshot{conn: c, tools: tools}, nil
}

// setCatalog publishes the catalog listed on c.
func (s *server) setCatalog(c *conn, tools []remoteTool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != c {
		return
	}
	s.tools = tools
	s.status = StatusReady
	s.err = nil
	s.built = nil
}

// dial starts or contacts the server, initializes a session and lists the
// catalog, all within the server's timeout.
func (s *server) dial(ctx context.Context) (*conn, []remoteTool, error) {
	cfg := s.def.Config
	ctx, cancel := context.WithTimeoutCause(ctx, cfg.Timeout, fmt.Errorf("timed out after %v", cfg.Timeout))
	defer cancel()
	stop := context.AfterFunc(s.h.closeCtx, cancel)
	defer stop()

	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			s.h.opts.Logger.Debug("mcp tool list changed", "server", s.def.Name)
			s.markChanged()
		},
		ProgressNotificationHandler: s.onProgress,
	})
	c := &conn{}
	var transport mcp.Transport
	var cmd *exec.Cmd
	if cfg.Type == TransportHTTP {
		hc, base := s.h.httpClient(cfg)
		c.client = base
		transport = &mcp.StreamableClientTransport{
			Endpoint:     cfg.URL,
			HTTPClient:   hc,
			MaxEventSize: s.h.opts.MaxResponseBytes,
		}
	} else {
		cmd = exec.Command(cfg.Command, cfg.Args...)
		cmd.Env = serverEnv(cfg.Env)
		cmd.Dir = s.h.opts.Dir
		ownGroup(cmd)
		transport = &mcp.CommandTransport{Command: cmd, TerminateDuration: terminateWait}
	}
	sess, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if cmd != nil && cmd.Process != nil {
		c.pid = cmd.Process.Pid
	}
	if err != nil {
		killGroup(c.pid)
		if c.client != nil {
			c.client.CloseIdleConnections()
		}
		return nil, nil, s.scrub(dialError(ctx, err))
	}
	c.sess = sess
	tools, err := s.list(ctx, c)
	if err != nil {
		c.close()
		return nil, nil, err
	}
	return c, tools, nil
}

// dialError prefers the cause of ctx, such as the server's timeout, to the
// error it produced.
func dialError(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
		return cause
	}
	return err
}

// serverEnv returns the environment of a stdio server: the inherited safe
// variables of the host, then env.
func serverEnv(env map[string]string) []string {
	var out []string
	for _, k := range inheritedEnv {
		if _, ok := env[k]; ok {
			continue
		}
		if v, ok := os.LookupEnv(k); ok && !strings.HasPrefix(v, "()") {
			out = append(out, k+"="+v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, k+"="+env[k])
	}
	return out
}

// scrub returns err with every secret of s's configuration (env values,
// header values, the URL's path and query) replaced, because errors of the
// SDK and of net/http may quote a URL or a request.
func (s *server) scrub(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	cfg := s.def.Config
	if cfg.URL != "" {
		msg = strings.ReplaceAll(msg, cfg.URL, origin(cfg.URL)+"/…")
	}
	for _, m := range []map[string]string{cfg.Env, cfg.Headers} {
		for _, v := range m {
			if len(v) >= 4 {
				msg = strings.ReplaceAll(msg, v, "[redacted]")
			}
		}
	}
	return errors.New(msg)
}

// list reads the whole catalog of the server on c, checking the catalog
// limits and every tool's schema.
func (s *server) list(ctx context.Context, c *conn) ([]remoteTool, error) {
	cfg := s.def.Config
	ctx, cancel := context.WithTimeoutCause(ctx, cfg.Timeout, fmt.Errorf("listing tools timed out after %v", cfg.Timeout))
	defer cancel()
	var tools []remoteTool
	seen := map[string]bool{}
	size := 0
	cursor := ""
	for page := 0; ; page++ {
		if page == MaxCatalogPages {
			return nil, fmt.Errorf("tool list exceeds %d pages", MaxCatalogPages)
		}
		res, err := c.sess.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			if errors.Is(err, mcp.ErrConnectionClosed) {
				return nil, err
			}
			return nil, s.scrub(dialError(ctx, fmt.Errorf("listing tools: %w", err)))
		}
		for _, t := range res.Tools {
			b, err := json.Marshal(t)
			if err != nil {
				return nil, fmt.Errorf("tool %s: %w", strictjson.QuoteKey(t.Name), err)
			}
			size += len(b)
			if size > MaxCatalogBytes {
				return nil, fmt.Errorf("tool list exceeds %d KiB", MaxCatalogBytes>>10)
			}
			if len(tools) == s.h.opts.MaxTools {
				return nil, fmt.Errorf("tool list exceeds %d tools", s.h.opts.MaxTools)
			}
			if t.Name == "" || seen[t.Name] {
				return nil, fmt.Errorf("tool list has an empty or duplicate name %s", strictjson.QuoteKey(t.Name))
			}
			seen[t.Name] = true
			schema, err := json.Marshal(t.InputSchema)
			if err != nil || t.InputSchema == nil {
				return nil, fmt.Errorf("tool %s has no input schema", strictjson.QuoteKey(t.Name))
			}
			// Check the schema now, so that a bad one fails discovery
			// rather than the listing of every later Tools call.
			if _, err := tool.NewRaw("schema_check", "", schema, noCall); err != nil {
				return nil, fmt.Errorf("tool %s: %s", strictjson.QuoteKey(t.Name), strings.TrimPrefix(err.Error(), "tool schema_check: "))
			}
			rt := remoteTool{name: t.Name, description: t.Description, schema: schema}
			sum := sha256.Sum256([]byte(rt.name + "\x00" + rt.description + "\x00" + string(schema)))
			rt.key = hex.EncodeToString(sum[:])
			tools = append(tools, rt)
		}
		if res.NextCursor == "" {
			return tools, nil
		}
		cursor = res.NextCursor
	}
}

// noCall is the handler of the tool that only checks a schema.
func noCall(context.Context, *tool.Call, json.RawMessage) (tool.Result, error) {
	return tool.Result{}, errors.New("not callable")
}

// tool returns the tool.Tool calling rt under name, built once per
// catalog.
func (s *server) tool(name string, rt remoteTool) (tool.Tool, error) {
	key := name + "\x00" + rt.key
	s.mu.Lock()
	t, ok := s.built[key]
	s.mu.Unlock()
	if ok {
		return t, nil
	}
	desc := rt.description
	if strings.TrimSpace(desc) == "" {
		desc = rt.name
	}
	t, err := tool.NewRaw(name, desc, rt.schema, func(ctx context.Context, c *tool.Call, input json.RawMessage) (tool.Result, error) {
		return s.call(ctx, c, name, rt, input)
	})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.built == nil {
		s.built = map[string]tool.Tool{}
	}
	s.built[key] = t
	s.mu.Unlock()
	return t, nil
}

// httpClient returns the HTTP client of an http server: it sends the
// configured headers, refuses redirects and caps response bodies that are
// not event streams at MaxResponseBytes. It also returns the transport
// underneath, whose idle connections Close drops.
func (h *Host) httpClient(cfg ServerConfig) (*http.Client, *http.Transport) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	rt := &headerTransport{base: base, headers: cfg.Headers, max: int64(h.opts.MaxResponseBytes)}
	return &http.Client{
		Transport: rt,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return errors.New("MCP HTTP redirects are refused")
		},
	}, base
}

// headerTransport adds headers to every request and caps response bodies.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
	max     int64
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	// An event stream is a long-lived sequence of messages, each capped by
	// the transport's MaxEventSize; any other body is one message.
	if !strings.HasPrefix(strings.ToLower(resp.Header.Get("Content-Type")), "text/event-stream") {
		resp.Body = &cappedBody{rc: resp.Body, left: t.max}
	}
	return resp, nil
}

// cappedBody fails a read past its limit.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errHTTPTooLarge
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return 0, errHTTPTooLarge
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// errHTTPTooLarge fails an HTTP response body over the response cap.
var errHTTPTooLarge = errors.New("MCP HTTP response exceeds the response size limit")
