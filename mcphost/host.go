package mcphost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/tool"
)

// Default limits of a Host.
const (
	// DefaultMaxTools is the largest catalog one server may list.
	DefaultMaxTools = 128
	// DefaultMaxResponseBytes is the largest tool result accepted, measured
	// as the JSON of its content and structured content.
	DefaultMaxResponseBytes = 4 << 20
	// DefaultMaxInlineBytes is the largest text result returned to the
	// model as it is; larger ones are archived.
	DefaultMaxInlineBytes = 16 << 10
	// MaxCatalogBytes is the largest catalog (the JSON of all tools of one
	// server) accepted.
	MaxCatalogBytes = 512 << 10
	// MaxCatalogPages is the most pages a tool listing may take.
	MaxCatalogPages = 16
	// MaxProgressMessage is the most characters of a progress message
	// passed on in a ProgressEvent.
	MaxProgressMessage = 1024
)

// Options configures a Host. The zero value denies every connection, so a
// Host built with it lists configured servers but never starts or contacts
// one.
type Options struct {
	// Connect decides whether the host may connect to a server: start a
	// stdio server's command or contact an http server. It is the
	// "mcp_connect" permission: a nil error grants the connection, an error
	// denies it (the server's status becomes "error" until Reset). nil
	// denies every connection. It is called before anything of the server
	// is started or contacted, again after a lost connection, and never
	// concurrently with itself for one Host; it must not call Tools.
	// ConnectRequest.Input is the input of the permission check named
	// PermissionName.
	Connect func(ctx context.Context, req ConnectRequest) error

	// Dir is the working directory of stdio servers; "" means the current
	// directory of the process.
	Dir string

	// Transports lists the transports the host allows; a server of another
	// transport makes New fail with ErrTransportDisabled. nil allows all.
	Transports []Transport

	// MaxServers caps the number of servers; zero means DefaultMaxServers.
	MaxServers int
	// MaxTools caps the tools of one server's catalog; zero means
	// DefaultMaxTools. A larger catalog fails discovery.
	MaxTools int
	// MaxResponseBytes caps a tool result in bytes; zero means
	// DefaultMaxResponseBytes. A larger result is a failed call, and an
	// HTTP response body larger than this fails its request.
	MaxResponseBytes int
	// MaxInlineBytes is the largest text result, in UTF-8 bytes, returned
	// to the model as it is; zero means DefaultMaxInlineBytes. Larger
	// results, and results holding anything but text and resource links,
	// are archived.
	MaxInlineBytes int

	// Archive returns the archive of the session whose turn is calling the
	// tool (the call's [tool.Call.SessionID]). Results that must be archived are put
	// there with metadata {"kind":"mcp-result","server","tool","name"}.
	// nil, or a nil Archive, makes such results an error telling the model
	// to ask for a smaller text result.
	Archive func(ctx context.Context, sessionID string) (archive.Archive, error)

	// OnProgress receives the progress a server reports for a call, in
	// order, with the context of the call and the tool call value, through
	// which a host reports it to the call's turn. It runs on a goroutine of the
	// call and has returned for every event it was given before the call's
	// result is returned; it is never called after that. So an event the
	// SDK hands over only after the result has arrived (the SDK handles
	// notifications apart from responses) is dropped, as are events that
	// arrive while it is still busy with 16 earlier ones of the same call.
	// nil discards progress.
	OnProgress func(ctx context.Context, c *tool.Call, ev ProgressEvent)

	// Logger receives connection failures and lost connections, naming
	// servers and never values of their configuration. nil logs nothing.
	Logger *slog.Logger
}

// A ProgressEvent is one progress notification of a running call.
type ProgressEvent struct {
	// Tool is the name the model called: mcp__<server>__<tool>.
	Tool string
	// Server is the server running the call.
	Server string
	// Progress is the progress so far; it grows with each event.
	Progress float64
	// Total is the progress at completion, or 0 if unknown.
	Total float64
	// Message describes the progress, at most MaxProgressMessage
	// characters; it may be empty.
	Message string
}

// A ConnectRequest describes a connection the host is about to make, for
// the permission check. It carries no secret: env values and headers are
// reduced to their names and the URL to its origin.
type ConnectRequest struct {
	// Server is the server's name.
	Server string
	// SessionID is the session whose prompt connects the server (see
	// [Host.ToolsFor]); "" when none is known.
	SessionID string
	// Source and File say where the server was configured.
	Source Source
	File   string
	// Type is the transport.
	Type Transport
	// Command and Args are what a stdio server runs.
	Command string
	Args    []string
	// EnvKeys are the names of the variables a stdio server is given,
	// sorted.
	EnvKeys []string
	// Origin is scheme://host[:port] of an http server.
	Origin string
	// HeaderKeys are the names of the headers sent to an http server,
	// sorted.
	HeaderKeys []string
}

// Input returns the input of the "mcp_connect" permission check as JSON:
// {"server","source","configFile","type":"stdio","command","args","envKeys"}
// or {"server","source","configFile","type":"http","origin","headerKeys"},
// where source is "user", "project" or "host" ([Source.PermissionSource])
// and configFile, the file that configured the server, is left out for
// the host's own servers.
func (r ConnectRequest) Input() json.RawMessage {
	m := map[string]any{"server": r.Server, "source": r.Source.PermissionSource(), "type": r.Type}
	if r.File != "" {
		m["configFile"] = r.File
	}
	if r.Type == TransportHTTP {
		m["origin"] = r.Origin
		m["headerKeys"] = nonNil(r.HeaderKeys)
	} else {
		m["command"] = r.Command
		m["args"] = nonNil(r.Args)
		m["envKeys"] = nonNil(r.EnvKeys)
	}
	b, _ := json.Marshal(m) // cannot fail on strings
	return b
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// connectRequest describes the connection to s.
func connectRequest(s Server) ConnectRequest {
	c := s.Config
	r := ConnectRequest{Server: s.Name, Source: s.Source, File: s.File, Type: c.Type}
	if c.Type == TransportHTTP {
		r.Origin = origin(c.URL)
		r.HeaderKeys = slices.Sorted(maps.Keys(c.Headers))
	} else {
		r.Command = c.Command
		r.Args = slices.Clone(c.Args)
		r.EnvKeys = slices.Sorted(maps.Keys(c.Env))
	}
	return r
}

// Status is the state of a server's connection.
type Status string

// The statuses of a server.
const (
	// StatusConfigured: not connected yet.
	StatusConfigured Status = "configured"
	// StatusConnecting: being started, initialized and listed.
	StatusConnecting Status = "connecting"
	// StatusReady: connected, with its catalog listed.
	StatusReady Status = "ready"
	// StatusStale: the connection was lost; the next Tools or call of one
	// of its tools reconnects, after asking Options.Connect again.
	StatusStale Status = "stale"
	// StatusError: connecting or discovery failed, or the connection was
	// denied. It stays so until Reset.
	StatusError Status = "error"
	// StatusClosed: the Host is closed.
	StatusClosed Status = "closed"
)

// Errors of a Host, matched with errors.Is.
var (
	// ErrDenied reports a connection the Connect option refused.
	ErrDenied = errors.New("connection denied")
	// ErrClosed reports the use of a closed Host.
	ErrClosed = errors.New("MCP host is closed")
	// ErrTransportDisabled reports a server whose transport
	// Options.Transports does not allow.
	ErrTransportDisabled = errors.New("MCP transport is disabled by the host")
	// ErrUnknownServer reports a name no configured server has.
	ErrUnknownServer = errors.New("unknown MCP server")
)

// A ServerError reports that a server could not be connected or its tools
// listed. Its message names the server and never a value of its
// configuration.
type ServerError struct {
	// Server is the server's name.
	Server string
	// Err is the cause: wrapping ErrDenied for a refused connection, a
	// context error, or a description of the failure.
	Err error
}

// Error names the server and why it could not be used.
func (e *ServerError) Error() string {
	if errors.Is(e.Err, ErrDenied) {
		msg := fmt.Sprintf("MCP '%s' connection denied", e.Server)
		if cause := strings.TrimPrefix(e.Err.Error(), ErrDenied.Error()); cause != "" {
			msg += cause
		}
		return msg
	}
	return fmt.Sprintf("MCP '%s' connection or discovery failed: %v", e.Server, e.Err)
}

// Unwrap returns the cause, such as ErrDenied.
func (e *ServerError) Unwrap() error { return e.Err }

// Host connects an agent to the MCP servers of a Config and offers their
// tools. New validates and connects nothing; Tools connects lazily, each
// server after Options.Connect grants it, and keeps the connections until
// Close. A Host is safe for concurrent use: child agents may share their
// root's Host, and only the root should Close it.
//
// Make a Host with [New]: the zero Host is not usable (its Close alone
// does nothing).
type Host struct {
	opts     Options
	servers  []*server // sorted by name
	byName   map[string]*server
	closeCtx context.Context // done when Close begins
	cancel   context.CancelFunc
	tokens   atomic.Uint64 // progress token counter
	progress sync.Map      // progress token → *callProgress
	permMu   sync.Mutex    // serializes Options.Connect

	mu     sync.Mutex // guards the fields below
	closed bool
	wg     sync.WaitGroup // connects in flight and connection watchers; Add only under mu while !closed
}

// New returns a Host for the servers of cfg. It validates cfg again (names,
// configurations, duplicates, the server cap and allowed transports) and
// starts, connects and executes nothing.
func New(cfg Config, opts Options) (*Host, error) {
	if opts.MaxServers <= 0 {
		opts.MaxServers = DefaultMaxServers
	}
	if opts.MaxTools <= 0 {
		opts.MaxTools = DefaultMaxTools
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if opts.MaxInlineBytes <= 0 {
		opts.MaxInlineBytes = DefaultMaxInlineBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts.Transports = slices.Clone(opts.Transports)
	if len(cfg.Servers) > opts.MaxServers {
		return nil, &ConfigError{Message: fmt.Sprintf("configuration exceeds %d servers", opts.MaxServers)}
	}
	h := &Host{opts: opts, byName: map[string]*server{}}
	for _, s := range cfg.Servers {
		if err := ValidateName(s.Name); err != nil {
			return nil, &ConfigError{File: s.File, Server: s.Name, Message: err.Error()}
		}
		if err := s.Config.Validate(); err != nil {
			return nil, &ConfigError{File: s.File, Server: s.Name, Message: err.Error()}
		}
		if _, dup := h.byName[s.Name]; dup {
			return nil, &ConfigError{File: s.File, Server: s.Name, Message: "configured twice"}
		}
		s.Config = s.Config.normalize()
		if opts.Transports != nil && !slices.Contains(opts.Transports, s.Config.Type) {
			return nil, &ServerError{Server: s.Name, Err: ErrTransportDisabled}
		}
		sv := &server{h: h, def: s, busy: make(chan struct{}, 1), status: StatusConfigured}
		h.servers = append(h.servers, sv)
		h.byName[s.Name] = sv
	}
	slices.SortFunc(h.servers, func(a, b *server) int { return strings.Compare(a.def.Name, b.def.Name) })
	h.closeCtx, h.cancel = context.WithCancel(context.Background())
	return h, nil
}

// begin reserves a slot in h.wg for work that Close must wait for. It
// reports false once the Host is closed.
func (h *Host) begin() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.wg.Add(1)
	return true
}

// isClosed reports whether Close has begun.
func (h *Host) isClosed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// Tools connects every server not connected yet, refreshes catalogs that
// changed, and returns the tools of all servers, sorted by server and in
// each server's order, named mcp__<server>__<tool>.
//
// Servers that need a connection are first put to Options.Connect one at a
// time, in name order, then connected concurrently. The result is all or
// nothing: if any server is denied, fails to connect or to list, Tools
// returns nil and an error joining one *ServerError per failed server; the
// connections that succeeded are kept for the next call. A denied or
// failed server stays failed until Reset.
//
// The returned tools are safe for concurrent use and stay usable after
// later calls of Tools: a call of a tool whose server's catalog no longer
// lists it as it was is refused with an error result, never sent.
func (h *Host) Tools(ctx context.Context) ([]tool.Tool, error) {
	return h.ToolsFor(ctx, "")
}

// ToolsFor is [Host.Tools] for a prompt of session sessionID, which the
// [ConnectRequest] of a server it connects carries.
func (h *Host) ToolsFor(ctx context.Context, sessionID string) ([]tool.Tool, error) {
	if h.isClosed() {
		return nil, ErrClosed
	}
	granted := make([]bool, len(h.servers))
	for i, s := range h.servers {
		if !s.needsConnect() {
			continue
		}
		if err := h.authorize(ctx, s, sessionID); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			s.fail(err)
			continue
		}
		granted[i] = true
	}

	snaps := make([]snapshot, len(h.servers))
	errs := make([]error, len(h.servers))
	var wg sync.WaitGroup
	for i, s := range h.servers {
		wg.Go(func() {
			snaps[i], errs[i] = s.ensure(ctx, granted[i], sessionID)
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}

	names, err := assignNames(h.servers, snaps)
	if err != nil {
		return nil, err
	}
	var out []tool.Tool
	for i, s := range h.servers {
		for j := range snaps[i].tools {
			t, err := s.tool(names[i][j], snaps[i].tools[j])
			if err != nil {
				return nil, &ServerError{Server: s.def.Name, Err: err}
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// authorize asks Options.Connect whether s may be connected.
func (h *Host) authorize(ctx context.Context, s *server, sessionID string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if h.opts.Connect == nil {
		return &ServerError{Server: s.def.Name, Err: ErrDenied}
	}
	h.permMu.Lock()
	defer h.permMu.Unlock()
	req := connectRequest(s.def)
	req.SessionID = sessionID
	if err := h.opts.Connect(ctx, req); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &ServerError{Server: s.def.Name, Err: fmt.Errorf("%w: %w", ErrDenied, err)}
	}
	return nil
}

// A ToolInfo describes one tool of a connected server.
type ToolInfo struct {
	// Name is the name the model calls: mcp__<server>__<tool>.
	Name string `json:"name"`
	// RemoteName is the tool's name on the server.
	RemoteName string `json:"remoteName"`
	// Description is the server's description of the tool.
	Description string `json:"description,omitempty"`
}

// A ServerInfo describes one configured server for a listing. It carries
// no secret: env values and headers are reduced to their names and the URL
// loses its query.
type ServerInfo struct {
	// Name is the server's name.
	Name string `json:"name"`
	// Source and File say where it was configured.
	Source Source `json:"source"`
	File   string `json:"file,omitempty"`
	// Type is the transport.
	Type Transport `json:"type"`
	// Command and Args are what a stdio server runs.
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	// EnvKeys are the names of the variables a stdio server is given.
	EnvKeys []string `json:"envKeys,omitempty"`
	// URL is an http server's endpoint without query or fragment.
	URL string `json:"url,omitempty"`
	// HeaderKeys are the names of the headers sent to an http server.
	HeaderKeys []string `json:"headerKeys,omitempty"`
	// Status is the state of the connection.
	Status Status `json:"status"`
	// PID is the process id of a running stdio server.
	PID int `json:"pid,omitempty"`
	// Tools are the server's tools, once it has been listed.
	Tools []ToolInfo `json:"tools,omitempty"`
	// Error says why the server failed, when Status is "error".
	Error string `json:"error,omitempty"`
}

// List describes every configured server, sorted by name, as it is now:
// it connects nothing. Tools appear for servers that Tools has connected.
func (h *Host) List() []ServerInfo {
	snaps := make([]snapshot, len(h.servers))
	out := make([]ServerInfo, len(h.servers))
	for i, s := range h.servers {
		c := s.def.Config
		info := ServerInfo{Name: s.def.Name, Source: s.def.Source, File: s.def.File, Type: c.Type}
		if c.Type == TransportHTTP {
			info.URL = stripQuery(c.URL)
			info.HeaderKeys = slices.Sorted(maps.Keys(c.Headers))
		} else {
			info.Command = c.Command
			info.Args = slices.Clone(c.Args)
			info.EnvKeys = slices.Sorted(maps.Keys(c.Env))
		}
		s.mu.Lock()
		info.Status = s.status
		if s.err != nil {
			info.Error = s.err.Error()
		}
		if s.conn != nil {
			info.PID = s.conn.pid
		}
		snaps[i] = snapshot{tools: s.tools}
		s.mu.Unlock()
		out[i] = info
	}
	names, err := assignNames(h.servers, snaps)
	for i := range out {
		for j, rt := range snaps[i].tools {
			ti := ToolInfo{RemoteName: rt.name, Description: rt.description}
			if err == nil {
				ti.Name = names[i][j]
			}
			out[i].Tools = append(out[i].Tools, ti)
		}
	}
	return out
}

// stripQuery returns a valid server URL without query or fragment.
func stripQuery(raw string) string {
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		return raw[:i]
	}
	return raw
}

// Reset closes the connection of the server called name, if any, and
// forgets its catalog and failure, so that the next Tools connects it
// again (asking Options.Connect again). It returns an error wrapping
// ErrUnknownServer for a name that is not configured and ErrClosed after
// Close.
func (h *Host) Reset(name string) error {
	if h.isClosed() {
		return ErrClosed
	}
	s, ok := h.byName[name]
	if !ok {
		return fmt.Errorf("%w %s", ErrUnknownServer, quoteName(name))
	}
	s.mu.Lock()
	c := s.conn
	s.conn, s.tools, s.err, s.changed = nil, nil, nil, false
	s.status = StatusConfigured
	s.mu.Unlock()
	if c != nil {
		c.close()
	}
	return nil
}

// Close closes every connection, ending stdio servers and every process
// they started, and waits for connects in flight to give up. Tools and
// calls fail afterwards. Close is idempotent and always returns nil; on a
// nil or zero Host (one not made by New) it does nothing.
func (h *Host) Close() error {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	h.mu.Unlock()
	if h.cancel != nil {
		h.cancel()
	}
	var wg sync.WaitGroup
	for _, s := range h.servers {
		s.mu.Lock()
		c := s.conn
		s.conn = nil
		s.status = StatusClosed
		s.mu.Unlock()
		if c != nil {
			wg.Go(c.close)
		}
	}
	wg.Wait()
	h.wg.Wait()
	return nil
}
