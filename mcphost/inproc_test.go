//go:build unix

package mcphost_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/mcphost"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// goServer serves s over Streamable HTTP on a loopback test server. wrap,
// if not nil, wraps the handler (to check headers or redirect).
func goServer(t *testing.T, s *mcp.Server, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// newGoServer returns an MCP server with no tools yet.
func newGoServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
}

// textTool adds a tool named name answering text, counting its calls.
func textTool(s *mcp.Server, name, schema, text string, calls *atomic.Int64) {
	s.AddTool(&mcp.Tool{Name: name, Description: "says " + text, InputSchema: json.RawMessage(schema)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if calls != nil {
				calls.Add(1)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		})
}

// resultTool adds a tool named name returning res.
func resultTool(s *mcp.Server, name string, res *mcp.CallToolResult) {
	s.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(objectSchema)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return res, nil
	})
}

// httpConfig returns the configuration of the http server at url.
func httpConfig(url string) mcphost.ServerConfig {
	return mcphost.ServerConfig{Type: mcphost.TransportHTTP, URL: url}
}

func TestToolNameRules(t *testing.T) {
	cases := []struct{ server, remote, want string }{
		{"s", "echo", "mcp__s__echo"},
		{"my-srv", "get-sum_2", "mcp__my-srv__get-sum_2"},
		{"s", "read.file", "mcp__s__read_file_"},
		{"s", "écho", "mcp__s___cho_"},
		{"s", strings.Repeat("x", 57), "mcp__s__" + strings.Repeat("x", 47) + "_"},
		{"s", strings.Repeat("x", 56), "mcp__s__" + strings.Repeat("x", 56)},
		{"s", "", "mcp__s___"},
	}
	for _, tc := range cases {
		got := mcphost.ToolName(tc.server, tc.remote)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("ToolName(%q, %q) = %q, want prefix %q", tc.server, tc.remote, got, tc.want)
		}
		changed := tc.want != "mcp__"+tc.server+"__"+tc.remote
		if changed && len(got) != len(tc.want)+8 {
			t.Errorf("ToolName(%q, %q) = %q, want 8 hex digits after %q", tc.server, tc.remote, got, tc.want)
		}
		if len(got) > 64 || strings.ContainsFunc(got, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
		}) {
			t.Errorf("ToolName(%q, %q) = %q is not a valid tool name", tc.server, tc.remote, got)
		}
	}
	if mcphost.ToolName("s", "a.b") == mcphost.ToolName("s", "a b") {
		t.Error("two remote names that sanitize alike got one name")
	}
}

func TestSanitizedAndCollidingNamesReachTheirTools(t *testing.T) {
	a := newGoServer()
	long := strings.Repeat("long", 20)
	textTool(a, "read.file", objectSchema, "read", nil)
	textTool(a, "_x", objectSchema, "a-underscore-x", nil)
	textTool(a, long, objectSchema, "long", nil)
	// A tool whose plain name spells the sanitized name of read.file:
	// mcp__a__read_file_<8 hex>. (Two servers can no longer collide: a
	// server name may not end in '_', so "a" tool "_x" and "a_" tool "x"
	// cannot both spell mcp__a___x.)
	crafted := strings.TrimPrefix(mcphost.ToolName("a", "read.file"), "mcp__a__")
	textTool(a, crafted, objectSchema, "crafted", nil)
	h := newHost(t, map[string]mcphost.ServerConfig{"a": httpConfig(goServer(t, a, nil))}, mcphost.Options{Connect: allow})
	tools, err := h.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tl := range tools {
		if _, dup := got[tl.Name()]; dup {
			t.Fatalf("two tools named %s", tl.Name())
		}
		got[tl.Name()] = callOK(t, tl, `{}`).Content
	}
	want := map[string]string{
		"mcp__a___x":                "a-underscore-x",
		mcphost.ToolName("a", long): "long",
	}
	for name, text := range want {
		if got[name] != text {
			t.Errorf("%s answered %q, want %q (tools: %v)", name, got[name], text, got)
		}
	}
	byText := map[string]string{}
	for name, text := range got {
		byText[text] = name
	}
	for _, text := range []string{"read", "crafted"} {
		if name := byText[text]; !strings.HasPrefix(name, mcphost.ToolName("a", "read.file")) {
			t.Errorf("the tool answering %q is named %q, want %s or that and a suffix (tools: %v)", text, name, mcphost.ToolName("a", "read.file"), got)
		}
	}
	// List names tools as Tools does.
	for _, s := range h.List() {
		for _, ti := range s.Tools {
			if _, ok := got[ti.Name]; !ok {
				t.Errorf("List names %s/%s %q, which Tools does not", s.Name, ti.RemoteName, ti.Name)
			}
		}
	}
}

// signalLogger returns a logger that sends every message it logs to a
// channel.
func signalLogger() (*slog.Logger, chan string) {
	ch := make(chan string, 64)
	return slog.New(chanHandler(ch)), ch
}

type chanHandler chan string

func (h chanHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h chanHandler) Handle(_ context.Context, r slog.Record) error {
	select {
	case h <- r.Message:
	default:
	}
	return nil
}
func (h chanHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h chanHandler) WithGroup(string) slog.Handler      { return h }

// waitFor waits for msg on ch.
func waitFor(t *testing.T, ch chan string, msg string) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case m := <-ch:
			if m == msg {
				return
			}
		case <-timeout:
			t.Fatalf("no %q logged within 20s", msg)
		}
	}
}

func TestChangedCatalogRefusesOutdatedCalls(t *testing.T) {
	s := newGoServer()
	var keep, drop, change atomic.Int64
	textTool(s, "keep", objectSchema, "kept", &keep)
	textTool(s, "drop", objectSchema, "dropped", &drop)
	textTool(s, "change", `{"type":"object","properties":{"a":{"type":"string"}}}`, "old", &change)
	logger, logged := signalLogger()
	h := newHost(t, map[string]mcphost.ServerConfig{"srv": httpConfig(goServer(t, s, nil))}, mcphost.Options{Connect: allow, Logger: logger})
	old, err := h.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}

	s.RemoveTools("drop")
	waitFor(t, logged, "mcp tool list changed")
	textTool(s, "change", `{"type":"object","properties":{"b":{"type":"integer"}}}`, "new", &change)
	waitFor(t, logged, "mcp tool list changed")

	for _, name := range []string{"mcp__srv__drop", "mcp__srv__change"} {
		res := callOK(t, toolByName(t, old, name), `{}`)
		if !res.IsError || !strings.Contains(res.Content, "catalog or connection changed") || !strings.Contains(res.Content, "the call was not sent") {
			t.Errorf("%s = %+v, want the stale-catalog error", name, res)
		}
	}
	if drop.Load() != 0 || change.Load() != 0 {
		t.Errorf("outdated calls reached the server: drop %d, change %d", drop.Load(), change.Load())
	}
	if res := callOK(t, toolByName(t, old, "mcp__srv__keep"), `{}`); res.Content != "kept" {
		t.Errorf("an unchanged tool stopped working: %+v", res)
	}

	current, err := h.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range current {
		names = append(names, tl.Name())
	}
	if strings.Join(names, ",") != "mcp__srv__change,mcp__srv__keep" {
		t.Fatalf("tools after the change = %v", names)
	}
	if res := callOK(t, toolByName(t, current, "mcp__srv__change"), `{"b":1}`); res.Content != "new" {
		t.Errorf("the changed tool = %+v", res)
	}
}

func TestUnknownToolErrorRefreshesTheCatalog(t *testing.T) {
	s := newGoServer()
	var drop atomic.Int64
	textTool(s, "keep", objectSchema, "kept", nil)
	textTool(s, "drop", objectSchema, "dropped", &drop)
	// The server forgets to say that its tools changed.
	s.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "notifications/tools/list_changed" {
				return nil, nil
			}
			return next(ctx, method, req)
		}
	})
	h := newHost(t, map[string]mcphost.ServerConfig{"srv": httpConfig(goServer(t, s, nil))}, mcphost.Options{Connect: allow})
	tools, err := h.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	s.RemoveTools("drop")
	dropTool := toolByName(t, tools, "mcp__srv__drop")
	res := callOK(t, dropTool, `{}`)
	if !res.IsError || !strings.Contains(res.Content, "call failed") || !strings.Contains(res.Content, "server error") {
		t.Fatalf("call of a tool the server lost = %+v, want a failed call with the server's error", res)
	}
	res = callOK(t, dropTool, `{}`)
	if !res.IsError || !strings.Contains(res.Content, "catalog or connection changed") {
		t.Fatalf("second call = %+v, want the stale-catalog error after the refresh", res)
	}
	if drop.Load() != 0 {
		t.Errorf("the removed tool ran %d times", drop.Load())
	}
	if res := callOK(t, toolByName(t, tools, "mcp__srv__keep"), `{}`); res.Content != "kept" {
		t.Errorf("keep = %+v", res)
	}
}

func TestResultProjection(t *testing.T) {
	s := newGoServer()
	resultTool(s, "fail", &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no such city"}}})
	resultTool(s, "structured", &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: map[string]any{"temp": 21}})
	resultTool(s, "empty", &mcp.CallToolResult{})
	resultTool(s, "mixed", &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: "see:"},
		&mcp.ResourceLink{URI: "file:///a.txt", Name: "a.txt", MIMEType: "text/plain", Description: "the\nfile"},
	}})
	resultTool(s, "big", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("z", 17<<10)}}})
	resultTool(s, "bigerror", &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("e", 17<<10)}}})
	resultTool(s, "image", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte("png"), MIMEType: "image/png"}}})
	resultTool(s, "huge", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("h", 70<<10)}}})
	url := goServer(t, s, nil)

	a, archiveOf := fileArchive(t)
	h := newHost(t, map[string]mcphost.ServerConfig{"srv": httpConfig(url)}, mcphost.Options{Connect: allow, Archive: archiveOf, MaxResponseBytes: 64 << 10})
	tools, err := h.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	call := func(name string) (string, bool) {
		res := callOK(t, toolByName(t, tools, "mcp__srv__"+name), `{}`)
		return res.Content, res.IsError
	}

	if c, isErr := call("fail"); !isErr || c != "Error: no such city" {
		t.Errorf("isError result = %q, %v", c, isErr)
	}
	if c, isErr := call("structured"); isErr || c != `{"temp":21}` {
		t.Errorf("structured-only result = %q, %v", c, isErr)
	}
	if c, isErr := call("empty"); isErr || c != "(no content)" {
		t.Errorf("empty result = %q, %v", c, isErr)
	}
	if c, _ := call("mixed"); c != "see:\n[resource link] a.txt: file:///a.txt (text/plain) — the file" {
		t.Errorf("mixed result = %q", c)
	}
	c, isErr := call("big")
	if isErr {
		t.Fatalf("big = %q", c)
	}
	if body := readArchived(t, a, archivedRef(t, c)); !strings.Contains(body, strings.Repeat("z", 100)) {
		t.Errorf("archived big result: %.200q", body)
	}
	if c, isErr := call("bigerror"); !isErr || !strings.HasPrefix(c, "Error: MCP result archived: ") {
		t.Errorf("big isError result = %.200q, %v; want an archived error", c, isErr)
	}
	c, _ = call("image")
	archivedRef(t, c)
	if !strings.Contains(c, "1 × image (image/png)") {
		t.Errorf("image note = %.300q", c)
	}
	// Over HTTP the transport's event cap, set to MaxResponseBytes, stops
	// the result first.
	if c, isErr := call("huge"); !isErr || !strings.Contains(c, "call failed") || !strings.Contains(c, "exceed") {
		t.Errorf("result over MaxResponseBytes = %.200q, %v", c, isErr)
	}

	// Without an archive, what must be archived is refused.
	bare := newHost(t, map[string]mcphost.ServerConfig{"srv": httpConfig(url)}, mcphost.Options{Connect: allow})
	tools, err = bare.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"big", "image"} {
		if c, isErr := call(name); !isErr || c != "Error: MCP response requires a session archive; request a smaller text result." {
			t.Errorf("%s without an archive = %.200q, %v", name, c, isErr)
		}
	}
	if c, _ := call("fail"); c != "Error: no such city" {
		t.Errorf("small result without an archive = %q", c)
	}
}

func TestHTTPSendsHeadersAndRefusesRedirects(t *testing.T) {
	s := newGoServer()
	textTool(s, "hi", objectSchema, "hello", nil)
	var auth atomic.Value
	url := goServer(t, s, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			auth.Store(r.Header.Get("Authorization"))
			next.ServeHTTP(w, r)
		})
	})
	cfg := httpConfig(url + "?tenant=" + secret)
	cfg.Headers = map[string]string{"Authorization": "Bearer " + secret}
	h := newHost(t, map[string]mcphost.ServerConfig{"srv": cfg}, mcphost.Options{Connect: allow})
	tools, err := h.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := auth.Load().(string); got != "Bearer "+secret {
		t.Errorf("Authorization = %q", got)
	}
	if info := h.List()[0]; strings.Contains(info.URL, secret) || info.HeaderKeys[0] != "Authorization" {
		t.Errorf("List shows %+v", info)
	}
	if res := callOK(t, tools[0], `{}`); res.Content != "hello" {
		t.Errorf("hi = %+v", res)
	}

	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, url, http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	cfg = httpConfig(redirect.URL + "/mcp?key=" + secret)
	h = newHost(t, map[string]mcphost.ServerConfig{"moved": cfg}, mcphost.Options{Connect: allow})
	_, err = h.Tools(t.Context())
	if err == nil || !strings.Contains(err.Error(), "redirect") {
		t.Fatalf("Tools via a redirect = %v, want a refused redirect", err)
	}
	if strings.Contains(err.Error(), secret) {
		t.Errorf("error %q carries the URL's secret", err)
	}
}

func TestCatalogOverTheToolCapFailsDiscovery(t *testing.T) {
	s := newGoServer()
	for i := range 3 {
		textTool(s, "t"+strconv.Itoa(i), objectSchema, "x", nil)
	}
	h := newHost(t, map[string]mcphost.ServerConfig{"srv": httpConfig(goServer(t, s, nil))}, mcphost.Options{Connect: allow, MaxTools: 2})
	_, err := h.Tools(t.Context())
	var se *mcphost.ServerError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "exceeds 2 tools") {
		t.Fatalf("Tools = %v, want a discovery failure over the tool cap", err)
	}
	if info := h.List()[0]; info.Status != mcphost.StatusError || len(info.Tools) != 0 {
		t.Errorf("List = %+v", info)
	}
}

func TestStdioCallLimits(t *testing.T) {
	exe, env := childServer(t)
	var mu sync.Mutex
	var msgs []string
	h := newHost(t, map[string]mcphost.ServerConfig{"child": {Command: exe, Env: env, Timeout: 2 * time.Second}}, mcphost.Options{
		Connect:          allow,
		MaxResponseBytes: 64 << 10,
		OnProgress: func(_ context.Context, _ *tool.Call, ev mcphost.ProgressEvent) {
			mu.Lock()
			msgs = append(msgs, ev.Message)
			mu.Unlock()
		},
	})
	tools, err := h.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	res := callOK(t, toolByName(t, tools, "mcp__child__repeat"), `{"n":70000}`)
	if !res.IsError || !strings.Contains(res.Content, "call failed") || !strings.Contains(res.Content, "(the result exceeds 65536 bytes)") {
		t.Fatalf("a result over MaxResponseBytes = %.300q", res.Content)
	}
	res = callOK(t, toolByName(t, tools, "mcp__child__hang"), `{}`)
	if !res.IsError || !strings.Contains(res.Content, "call failed") || !strings.Contains(res.Content, "timed out after 2s") {
		t.Fatalf("hang = %+v, want a timed-out call", res)
	}
	// Sixteen steps of 200 ms take longer than the timeout, but each
	// progress notification restarts it. Short steps leave each one 1.8 s
	// to spare on a loaded machine (four of 800 ms left 1.2 s).
	res = callOK(t, toolByName(t, tools, "mcp__child__ticker"), `{"n":16,"ms":200}`)
	if res.IsError || res.Content != "done" {
		t.Fatalf("ticker = %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(msgs) < 3 || msgs[0] != "step 1" || msgs[2] != "step 3" {
		t.Errorf("progress messages = %v", msgs)
	}
}

func TestLostStdioConnectionReconnectsAfterAGrant(t *testing.T) {
	exe, env := childServer(t)
	var grants atomic.Int64
	logger, logged := signalLogger()
	h := newHost(t, map[string]mcphost.ServerConfig{"child": {Command: exe, Env: env}}, mcphost.Options{
		Connect: func(context.Context, mcphost.ConnectRequest) error { grants.Add(1); return nil },
		Logger:  logger,
	})
	tools, err := h.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	first := h.List()[0].PID
	if got := callOK(t, toolByName(t, tools, "mcp__child__pid"), `{}`).Content; got != strconv.Itoa(first) {
		t.Fatalf("pid tool = %s, List PID = %d", got, first)
	}
	res := callOK(t, toolByName(t, tools, "mcp__child__exit"), `{}`)
	if !res.IsError || !strings.Contains(res.Content, "call failed") {
		t.Fatalf("exit = %+v, want a failed call", res)
	}
	waitFor(t, logged, "mcp connection lost")
	if s := h.List()[0]; s.Status != mcphost.StatusStale || s.PID != 0 {
		t.Fatalf("after the server died: %+v", s)
	}
	if !processGone(first) {
		t.Errorf("the dead server %d was not reaped", first)
	}
	// The old tool value reconnects, after a new grant.
	got := callOK(t, toolByName(t, tools, "mcp__child__pid"), `{}`).Content
	second := h.List()[0].PID
	if grants.Load() != 2 || got != strconv.Itoa(second) || second == first {
		t.Fatalf("after reconnecting: %d grants, pid tool %s, List PID %d (first %d)", grants.Load(), got, second, first)
	}
}

func TestReservedNames(t *testing.T) {
	for name, want := range map[string]bool{"mcp__a__b": true, "mcp_connect": true, "mcp__": true, "mcp_x": false, "read_file": false, "MCP__a": false} {
		if got := mcphost.IsReserved(name); got != want {
			t.Errorf("IsReserved(%q) = %v", name, got)
		}
	}
}
