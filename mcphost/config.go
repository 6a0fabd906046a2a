package mcphost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/strictjson"
	"github.com/lite-agent/lite-agent-go/internal/syserr"
	"github.com/lite-agent/lite-agent-go/storage"
)

// maxJSONDepth bounds the nesting of a configuration file. mcps.json needs
// four levels; the margin keeps hostile files from costing anything.
const maxJSONDepth = 16

// A Transport is how the host talks to a server.
type Transport string

// The transports. There is no legacy SSE transport and no fallback from one
// transport to another.
const (
	// TransportStdio starts the server as a child process and exchanges
	// newline-delimited JSON-RPC messages over its standard input and output.
	TransportStdio Transport = "stdio"
	// TransportHTTP talks to a Streamable HTTP endpoint.
	TransportHTTP Transport = "http"
)

// A Source says where a server's configuration came from.
type Source string

// The sources, in the order they are merged.
const (
	// SourceGlobal is <home>/mcps.json.
	SourceGlobal Source = "global"
	// SourceProject is <workdir>/.<namespace>/mcps.json.
	SourceProject Source = "project"
	// SourceConstructor is LoadOptions.Servers, given by the host program.
	SourceConstructor Source = "constructor"
)

// PermissionSource returns the "source" of the "mcp_connect" permission
// input for a server of source s: "user" for SourceGlobal (the user's own
// data home), "project" for SourceProject (the project directory, which a
// cloned repository may supply), and "host" for SourceConstructor. An
// unknown source is "project", the least trusted. Permission rules match
// on it, so a host can allow the user's and its own servers and still ask
// about a repository's.
func (s Source) PermissionSource() string {
	switch s {
	case SourceGlobal:
		return "user"
	case SourceConstructor:
		return "host"
	}
	return "project"
}

// ConfigFile is the name of the file, in the data home and in the project
// configuration directory, that lists MCP servers.
const ConfigFile = "mcps.json"

// Limits of the configuration.
const (
	// MaxConfigBytes is the largest mcps.json accepted: 256 KiB.
	MaxConfigBytes = 256 << 10
	// DefaultMaxServers is the number of servers a configuration may hold
	// unless [LoadOptions.MaxServers] or [Options.MaxServers] say otherwise.
	DefaultMaxServers = 32
	// DefaultTimeout bounds connecting, listing tools and each call when
	// [ServerConfig.Timeout] is zero.
	DefaultTimeout = 30 * time.Second
	// MaxTimeout is the largest [ServerConfig.Timeout] accepted.
	MaxTimeout = 300 * time.Second
	// maxArgs is the most arguments a stdio server may be given.
	maxArgs = 256
)

// ServerConfig configures one MCP server. In mcps.json it is the object
// under the server's name; the JSON keys are given with each field. Nothing
// in it is interpolated: "$HOME" is passed on as those five characters.
type ServerConfig struct {
	// Type is the transport, "stdio" or "http" (JSON "type"). The zero
	// value means stdio.
	Type Transport

	// Command is the program a stdio server runs (JSON "command"), looked up
	// in the host's PATH when it has no slash. Required for stdio; it must
	// not contain NUL.
	Command string
	// Args are the program's arguments (JSON "args"): at most 256 strings
	// without NUL. Only for stdio.
	Args []string
	// Env adds variables to the environment of a stdio server (JSON "env").
	// Names match ^[A-Za-z_][A-Za-z0-9_]*$ and values contain no NUL. The
	// server otherwise inherits only HOME, LOGNAME, PATH, SHELL, TERM and
	// USER from the host. Values are never shown, logged or put in errors.
	Env map[string]string

	// URL is the Streamable HTTP endpoint of an http server (JSON "url"):
	// https, or http on localhost, 127.0.0.1 or [::1]; without user
	// information or fragment. Required for http.
	URL string
	// Headers are sent with every HTTP request (JSON "headers"), for
	// example an Authorization header. Host, Connection, Content-Length,
	// Mcp-Protocol-Version and Mcp-Session-Id are reserved. Values are never
	// shown, logged or put in errors. Only for http.
	Headers map[string]string

	// Timeout bounds connecting (start, handshake and tool listing), each
	// later listing and each call, which is given Timeout again whenever
	// the server reports progress (JSON "timeoutMs", in milliseconds, 1 to
	// 300000). Zero means DefaultTimeout.
	Timeout time.Duration
}

// normalize returns c with defaults filled in and empty collections made
// nil, the form two configurations are compared in.
func (c ServerConfig) normalize() ServerConfig {
	if c.Type == "" {
		c.Type = TransportStdio
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if len(c.Args) == 0 {
		c.Args = nil
	} else {
		c.Args = slices.Clone(c.Args)
	}
	if len(c.Env) == 0 {
		c.Env = nil
	} else {
		c.Env = maps.Clone(c.Env)
	}
	if len(c.Headers) == 0 {
		c.Headers = nil
	} else {
		c.Headers = maps.Clone(c.Headers)
	}
	return c
}

// equal reports whether two normalized configurations are the same.
func (c ServerConfig) equal(d ServerConfig) bool {
	return c.Type == d.Type && c.Command == d.Command && slices.Equal(c.Args, d.Args) &&
		maps.Equal(c.Env, d.Env) && c.URL == d.URL && maps.Equal(c.Headers, d.Headers) &&
		c.Timeout == d.Timeout
}

// A Server is one configured server: its name, where it was configured and
// how to reach it.
type Server struct {
	// Name is the server's name, 1 to 24 ASCII letters, digits, '_' or
	// '-', without "__" and not ending in '_'. Its tools are called
	// mcp__<Name>__<tool>.
	Name string
	// Source is where the configuration came from.
	Source Source
	// File is the mcps.json the server was read from; "" for the
	// constructor source.
	File string
	// Config is how to reach the server.
	Config ServerConfig
}

// Config is the merged MCP configuration of an agent: every server of every
// source, sorted by name. The zero value configures no servers. [New]
// validates a Config again, so a host may also build one by hand.
type Config struct {
	// Servers lists the configured servers, each name once.
	Servers []Server
	// Skipped lists the servers of the project's mcps.json that
	// [LoadConfig] left out because the global mcps.json or the
	// constructor options configure the same name differently: each
	// names the kept place First and the project file Second. A host
	// should show them to the user (liteagent logs each as a warning).
	Skipped []ConflictError
}

// LoadOptions says where LoadConfig looks for servers.
type LoadOptions struct {
	// Paths is the layout whose Home and ProjectConfigDir hold the global
	// and the project mcps.json. An empty Home or ProjectConfigDir skips
	// that file. No other place is ever read: not a parent directory, not
	// the .lite-agent directory of a project under another namespace, not
	// another tool's configuration.
	Paths storage.ProjectPaths

	// Servers are the host program's own servers (source "constructor"),
	// merged after the files.
	Servers map[string]ServerConfig

	// NoFiles skips both files, leaving only Servers.
	NoFiles bool

	// MaxServers caps the number of servers after merging; zero means
	// DefaultMaxServers.
	MaxServers int
}

// A ConfigError reports an invalid, oversized or conflicting configuration.
// It names the file and the server but never repeats a value: env values,
// headers, URLs and arguments stay out of the message.
type ConfigError struct {
	// File is the mcps.json at fault; "" for the constructor source or for
	// a problem of the merged configuration.
	File string
	// Server is the server at fault, if one is.
	Server string
	// Message says what is wrong.
	Message string
	// Err is the system error that made the file unreadable (an
	// *fs.PathError from opening, stating or reading it), if any.
	Err error
}

// Unwrap returns the system error, if any.
func (e *ConfigError) Unwrap() error { return e.Err }

// Error names the mcps.json file, the server and what is wrong.
func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString("invalid MCP configuration")
	if e.File != "" {
		b.WriteString(" in " + e.File)
	}
	if e.Server != "" {
		b.WriteString(": server " + quoteName(e.Server))
	}
	b.WriteString(": " + e.Message)
	if e.Err != nil {
		// The path is already named; a *fs.PathError would repeat it.
		b.WriteString(": " + syserr.Text(e.Err))
	}
	return b.String()
}

// A ConflictError reports one server name configured differently in two
// sources.
type ConflictError struct {
	// Server is the name configured twice.
	Server string
	// First and Second are where it was configured, each a file path or,
	// for the constructor source, "constructor options".
	First, Second string
}

// Error names the server and the two places that define it.
func (e *ConflictError) Error() string {
	return fmt.Sprintf("conflicting MCP server %s in %s and %s", quoteName(e.Server), e.First, e.Second)
}

// quoteName renders a server name for a message: 'name' when it is a valid
// name, a Go-quoted string cut to 64 bytes otherwise.
func quoteName(name string) string {
	if validName(name) {
		return "'" + name + "'"
	}
	return strictjson.QuoteKey(name)
}

// isWordByte reports whether c is an ASCII letter, digit or '_'.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// validName reports whether name may name a server: it matches
// ^[a-zA-Z0-9_-]{1,24}$, holds no "__" and does not end in '_'. With a
// trailing '_' the names of the server's tools, mcp__<name>___<tool>,
// would begin with mcp__<name minus '_'>__, so that a rule or a hook
// written for another server's tools (mcp__github__*) would match those
// of a server "github_" a cloned repository declares.
func validName(name string) bool {
	if name == "" || len(name) > 24 || strings.Contains(name, "__") || strings.HasSuffix(name, "_") {
		return false
	}
	for i := range len(name) {
		if !isWordByte(name[i]) && name[i] != '-' {
			return false
		}
	}
	return true
}

// validEnvName reports whether name matches ^[A-Za-z_][A-Za-z0-9_]*$, the
// syntax of an environment variable name.
func validEnvName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for i := range len(name) {
		if !isWordByte(name[i]) {
			return false
		}
	}
	return true
}

// ValidateName returns an error unless name is 1 to 24 ASCII letters,
// digits, '_' or '-' without "__" and not ending in '_', the names servers
// may have.
func ValidateName(name string) error {
	if !validName(name) {
		return errors.New("MCP server name must be 1-24 letters, digits, underscores or hyphens, without '__' and not ending in '_'")
	}
	return nil
}

// reservedHeaders are the HTTP headers the transport owns.
var reservedHeaders = []string{"host", "connection", "content-length", "mcp-protocol-version", "mcp-session-id"}

// Validate reports the first problem of c, or nil. Its messages never
// contain a value of c.
func (c ServerConfig) Validate() error {
	if c.Timeout < 0 || c.Timeout > MaxTimeout || (c.Timeout > 0 && c.Timeout < time.Millisecond) {
		return errors.New("timeoutMs must be an integer from 1 to 300000")
	}
	switch c.Type {
	case "", TransportStdio:
		if c.URL != "" || len(c.Headers) > 0 {
			return errors.New("url and headers are only for http servers")
		}
		if strings.TrimSpace(c.Command) == "" || strings.ContainsRune(c.Command, 0) {
			return errors.New("command must be a non-empty string without NUL")
		}
		if len(c.Args) > maxArgs {
			return fmt.Errorf("args must be at most %d strings", maxArgs)
		}
		for i, a := range c.Args {
			if strings.ContainsRune(a, 0) {
				return fmt.Errorf("args[%d] contains NUL", i)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(c.Env)) {
			if !validEnvName(k) {
				return fmt.Errorf("env name %s must match ^[A-Za-z_][A-Za-z0-9_]*$", strictjson.QuoteKey(k))
			}
			if strings.ContainsRune(c.Env[k], 0) {
				return fmt.Errorf("env %s: value contains NUL", k)
			}
		}
		return nil
	case TransportHTTP:
		if c.Command != "" || len(c.Args) > 0 || len(c.Env) > 0 {
			return errors.New("command, args and env are only for stdio servers")
		}
		if _, err := checkURL(c.URL); err != nil {
			return err
		}
		for _, k := range slices.Sorted(maps.Keys(c.Headers)) {
			if !validHeaderName(k) {
				return fmt.Errorf("header name %s is not a valid HTTP header name", strictjson.QuoteKey(k))
			}
			if slices.Contains(reservedHeaders, strings.ToLower(k)) {
				return fmt.Errorf("headers contains a reserved HTTP header (%s)", k)
			}
			if strings.ContainsAny(c.Headers[k], "\r\n\x00") {
				return fmt.Errorf("header %s: value contains CR, LF or NUL", k)
			}
		}
		return nil
	default:
		return errors.New(`type must be "stdio" or "http"`)
	}
}

// errURL is the complaint about an unacceptable server URL. It never
// repeats the URL, which may carry a token.
var errURL = errors.New("url requires HTTPS (HTTP is allowed on loopback only), without URL credentials or fragments")

// checkURL parses an http server's URL and checks the rules of
// [ServerConfig.URL].
func checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.Fragment != "" || strings.Contains(raw, "#") || u.Opaque != "" {
		return nil, errURL
	}
	switch u.Scheme {
	case "https":
	case "http":
		h := u.Hostname()
		if h != "localhost" && h != "127.0.0.1" && h != "::1" {
			return nil, errURL
		}
	default:
		return nil, errURL
	}
	if port := u.Port(); port == "" && strings.HasSuffix(u.Host, ":") {
		return nil, errURL
	}
	if net.ParseIP(u.Hostname()) == nil && strings.ContainsAny(u.Hostname(), " %") {
		return nil, errURL
	}
	return u, nil
}

// origin returns scheme://host[:port] of a valid server URL.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// validHeaderName reports whether k is an HTTP token.
func validHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for i := range len(k) {
		c := k[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// LoadConfig reads the global and the project mcps.json of opts.Paths and
// merges them with opts.Servers, in that order. It starts, connects and
// executes nothing.
//
// A missing file is skipped; a file that is not a regular file, is larger
// than 256 KiB, is not valid strict JSON (invalid UTF-8, duplicate keys,
// unknown keys) or holds an invalid server is a *ConfigError naming it. A
// name configured in two sources is kept once when both configurations are
// equal (after defaults are filled in). Otherwise the entry of the
// project file gives way: the global file's or the constructor's is kept
// and the project's is listed in [Config.Skipped]; the global file and the
// constructor disagreeing is a *ConflictError naming both places. More than opts.MaxServers servers is a *ConfigError.
// The global and the project file being one file (the same real path) is
// read once, as global.
//
// LoadConfig is [LoadConfigContext] with context.Background().
func LoadConfig(opts LoadOptions) (Config, error) {
	return LoadConfigContext(context.Background(), opts)
}

// LoadConfigContext is [LoadConfig] bounded by ctx: a ctx done before a
// file is read stops the load, reading no further file, and returns ctx's
// error, wrapped.
func LoadConfigContext(ctx context.Context, opts LoadOptions) (Config, error) {
	maxServers := opts.MaxServers
	if maxServers <= 0 {
		maxServers = DefaultMaxServers
	}
	m := merger{byName: map[string]int{}}
	if !opts.NoFiles {
		var seen []string
		for _, f := range []struct {
			dir    string
			source Source
		}{{opts.Paths.Home, SourceGlobal}, {opts.Paths.ProjectConfigDir, SourceProject}} {
			if f.dir == "" {
				continue
			}
			if err := ctx.Err(); err != nil {
				return Config{}, fmt.Errorf("mcphost: load %s: %w", ConfigFile, err)
			}
			file := filepath.Join(f.dir, ConfigFile)
			if real, err := filepath.EvalSymlinks(file); err == nil {
				if slices.Contains(seen, real) {
					continue
				}
				seen = append(seen, real)
			}
			servers, err := readFile(file, f.source)
			if err != nil {
				return Config{}, err
			}
			for _, s := range servers {
				if err := m.add(s); err != nil {
					return Config{}, err
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(opts.Servers)) {
		c := opts.Servers[name]
		if err := ValidateName(name); err != nil {
			return Config{}, &ConfigError{Server: name, Message: err.Error()}
		}
		if err := c.Validate(); err != nil {
			return Config{}, &ConfigError{Server: name, Message: err.Error()}
		}
		if err := m.add(Server{Name: name, Source: SourceConstructor, Config: c.normalize()}); err != nil {
			return Config{}, err
		}
	}
	if len(m.servers) > maxServers {
		return Config{}, &ConfigError{Message: fmt.Sprintf("configuration exceeds %d servers", maxServers)}
	}
	slices.SortFunc(m.servers, func(a, b Server) int { return strings.Compare(a.Name, b.Name) })
	return Config{Servers: m.servers, Skipped: m.skipped}, nil
}

// merger accumulates servers from the sources in order.
type merger struct {
	servers []Server
	byName  map[string]int // index into servers
	skipped []ConflictError
}

// add merges s, which is valid and normalized. A name configured
// differently in the project file and in a trusted source (the global
// file, the constructor options) keeps the trusted source's entry and
// records the project's as skipped: a project, which a cloned repository
// may supply, can neither take over a server of the user's or the host's
// (and the rules and hooks written for its tools) nor stop the agent
// from starting by trying. Two trusted sources that disagree are a
// *ConflictError.
func (m *merger) add(s Server) error {
	if i, ok := m.byName[s.Name]; ok {
		prev := m.servers[i]
		if prev.Config.equal(s.Config) {
			return nil
		}
		switch {
		case s.Source == SourceProject:
			m.skipped = append(m.skipped, ConflictError{Server: s.Name, First: place(prev), Second: place(s)})
			return nil
		case prev.Source == SourceProject:
			m.skipped = append(m.skipped, ConflictError{Server: s.Name, First: place(s), Second: place(prev)})
			m.servers[i] = s
			return nil
		}
		return &ConflictError{Server: s.Name, First: place(prev), Second: place(s)}
	}
	m.byName[s.Name] = len(m.servers)
	m.servers = append(m.servers, s)
	return nil
}

// place names where s was configured.
func place(s Server) string {
	if s.File == "" {
		return "constructor options"
	}
	return s.File
}

// readFile reads one mcps.json. A missing file holds no servers.
func readFile(file string, source Source) ([]Server, error) {
	fail := func(format string, a ...any) error {
		return &ConfigError{File: file, Message: fmt.Sprintf(format, a...)}
	}
	failIO := func(what string, err error) error {
		return &ConfigError{File: file, Message: what, Err: err}
	}
	// O_NONBLOCK keeps a FIFO planted in place of the file from blocking
	// the open; the descriptor is then checked to be a regular file.
	f, err := os.OpenFile(file, os.O_RDONLY|oNonblock, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, failIO("cannot open the file", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, failIO("cannot stat the file", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fail("not a regular file")
	}
	if info.Size() > MaxConfigBytes {
		return nil, fail("file exceeds %d KiB", MaxConfigBytes>>10)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxConfigBytes+1))
	if err != nil {
		return nil, failIO("cannot read the file", err)
	}
	if len(data) > MaxConfigBytes {
		return nil, fail("file exceeds %d KiB", MaxConfigBytes>>10)
	}
	servers, err := parseFile(data)
	if err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			ce.File = file
			return nil, ce
		}
		return nil, fail("%s", err.Error())
	}
	for i := range servers {
		servers[i].Source = source
		servers[i].File = file
	}
	return servers, nil
}

// parseFile decodes the contents of an mcps.json:
//
//	{"mcpServers": {"<name>": {…}, …}}
//
// The servers come back in file order, validated and normalized.
func parseFile(data []byte) ([]Server, error) {
	v, err := strictjson.Decode(data, maxJSONDepth)
	if err != nil {
		return nil, err
	}
	top, ok := v.(*strictjson.Object)
	if !ok {
		return nil, fmt.Errorf("the top level must be an object, not %s", strictjson.TypeName(v))
	}
	for _, k := range top.Keys {
		if k != "mcpServers" {
			return nil, fmt.Errorf("unknown top-level key %s; want only \"mcpServers\"", strictjson.QuoteKey(k))
		}
	}
	raw, ok := top.Vals["mcpServers"]
	if !ok {
		return nil, nil
	}
	servers, ok := raw.(*strictjson.Object)
	if !ok {
		return nil, fmt.Errorf("mcpServers must be an object, not %s", strictjson.TypeName(raw))
	}
	var out []Server
	for _, name := range servers.Keys {
		if err := ValidateName(name); err != nil {
			return nil, &ConfigError{Server: name, Message: err.Error()}
		}
		c, err := decodeServer(servers.Vals[name])
		if err == nil {
			err = c.Validate()
		}
		if err != nil {
			return nil, &ConfigError{Server: name, Message: err.Error()}
		}
		out = append(out, Server{Name: name, Config: c.normalize()})
	}
	return out, nil
}

// serverKeys are the keys a server object may have, by transport.
var serverKeys = map[Transport][]string{
	TransportStdio: {"type", "command", "args", "env", "timeoutMs"},
	TransportHTTP:  {"type", "url", "headers", "timeoutMs"},
}

// decodeServer converts one parsed server object to a ServerConfig,
// checking JSON types and keys; Validate checks the values.
func decodeServer(v any) (ServerConfig, error) {
	obj, ok := v.(*strictjson.Object)
	if !ok {
		return ServerConfig{}, fmt.Errorf("the server must be an object, not %s", strictjson.TypeName(v))
	}
	var c ServerConfig
	if t, ok := obj.Vals["type"]; ok {
		s, ok := t.(string)
		if !ok || (s != string(TransportStdio) && s != string(TransportHTTP)) {
			return ServerConfig{}, errors.New(`type must be "stdio" or "http"`)
		}
		c.Type = Transport(s)
	}
	allowed := serverKeys[cmpOr(c.Type, TransportStdio)]
	for _, k := range obj.Keys {
		if !slices.Contains(allowed, k) {
			return ServerConfig{}, fmt.Errorf("unknown key %s for a %s server", strictjson.QuoteKey(k), cmpOr(c.Type, TransportStdio))
		}
	}
	var err error
	for _, k := range obj.Keys {
		val := obj.Vals[k]
		switch k {
		case "command":
			c.Command, err = asString(k, val)
		case "url":
			c.URL, err = asString(k, val)
		case "args":
			c.Args, err = asStrings(k, val)
		case "env":
			c.Env, err = asStringMap(k, val)
		case "headers":
			c.Headers, err = asStringMap(k, val)
		case "timeoutMs":
			c.Timeout, err = asMillis(val)
		}
		if err != nil {
			return ServerConfig{}, err
		}
	}
	if c.Type == TransportStdio || c.Type == "" {
		if _, ok := obj.Vals["command"]; !ok {
			return ServerConfig{}, errors.New("command is required")
		}
	} else if _, ok := obj.Vals["url"]; !ok {
		return ServerConfig{}, errors.New("url is required")
	}
	return c, nil
}

// cmpOr returns t, or def when t is empty.
func cmpOr(t, def Transport) Transport {
	if t == "" {
		return def
	}
	return t
}

func asString(key string, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s must be a string, not %s", key, strictjson.TypeName(v))
	}
	return s, nil
}

func asStrings(key string, v any) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s must be an array of strings, not %s", key, strictjson.TypeName(v))
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("%s[%d] must be a string, not %s", key, i, strictjson.TypeName(e))
		}
		out = append(out, s)
	}
	return out, nil
}

func asStringMap(key string, v any) (map[string]string, error) {
	obj, ok := v.(*strictjson.Object)
	if !ok {
		return nil, fmt.Errorf("%s must be an object of strings, not %s", key, strictjson.TypeName(v))
	}
	out := make(map[string]string, len(obj.Keys))
	for _, k := range obj.Keys {
		s, ok := obj.Vals[k].(string)
		if !ok {
			return nil, fmt.Errorf("%s %s must be a string, not %s", key, strictjson.QuoteKey(k), strictjson.TypeName(obj.Vals[k]))
		}
		out[k] = s
	}
	return out, nil
}

func asMillis(v any) (time.Duration, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, errors.New("timeoutMs must be an integer from 1 to 300000")
	}
	ms, err := n.Int64()
	if err != nil || ms < 1 || ms > MaxTimeout.Milliseconds() {
		return 0, errors.New("timeoutMs must be an integer from 1 to 300000")
	}
	return time.Duration(ms) * time.Millisecond, nil
}
