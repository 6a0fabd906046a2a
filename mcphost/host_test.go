//go:build unix

package mcphost_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/mcphost"
)

// markerServer returns the configuration of a "server" that creates marker
// when it runs, and fails the handshake by exiting.
func markerServer(marker string) mcphost.ServerConfig {
	return mcphost.ServerConfig{
		Command: "/bin/sh",
		Args:    []string{"-c", `touch "$1"; exit 1`, "sh", marker},
		Env:     map[string]string{"API_TOKEN": secret},
	}
}

// countingServer returns an HTTP server that counts the requests it gets.
func countingServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Error(w, "no", http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestConstructionConnectsNothing(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	srv, hits := countingServer(t)
	p, _ := layout(t, "")
	writeFile(t, filepath.Join(p.ProjectConfigDir, "mcps.json"),
		`{"mcpServers": {"web": {"type": "http", "url": "`+srv.URL+`/mcp"}, "local": {"command": "/bin/sh", "args": ["-c", "touch '`+marker+`'"]}}}`)
	cfg, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: p})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mcphost.New(cfg, mcphost.Options{Connect: allow})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, s := range h.List() {
		if s.Status != mcphost.StatusConfigured || s.PID != 0 {
			t.Errorf("server %s: %+v", s.Name, s)
		}
	}
	h.Close()
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Error("the stdio command ran without Tools")
	}
	if hits.Load() != 0 {
		t.Errorf("the http server got %d requests without Tools", hits.Load())
	}
}

func TestDeniedConnectionStartsNothing(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	srv, hits := countingServer(t)
	servers := map[string]mcphost.ServerConfig{
		"local": markerServer(marker),
		"web":   {Type: mcphost.TransportHTTP, URL: srv.URL + "/mcp?key=" + secret, Headers: map[string]string{"Authorization": "Bearer " + secret}},
	}
	var asked []mcphost.ConnectRequest
	cases := map[string]func(context.Context, mcphost.ConnectRequest) error{
		"NilConnectDeniesAll": nil,
		"ConnectSaysNo": func(_ context.Context, req mcphost.ConnectRequest) error {
			asked = append(asked, req)
			return errors.New("blocked by policy")
		},
	}
	for name, connect := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHost(t, servers, mcphost.Options{Connect: connect})
			tools, err := h.Tools(t.Context())
			if tools != nil || !errors.Is(err, mcphost.ErrDenied) {
				t.Fatalf("Tools = %v, %v; want ErrDenied", tools, err)
			}
			var se *mcphost.ServerError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), "MCP 'local' connection denied") || !strings.Contains(err.Error(), "MCP 'web' connection denied") {
				t.Errorf("error %q does not report both denials", err)
			}
			// Denial is sticky: asking again asks nobody and runs nothing.
			n := len(asked)
			if _, err := h.Tools(t.Context()); !errors.Is(err, mcphost.ErrDenied) {
				t.Errorf("second Tools = %v, want ErrDenied", err)
			}
			if len(asked) != n {
				t.Error("a denied server was put to Connect again without Reset")
			}
			for _, s := range h.List() {
				if s.Status != mcphost.StatusError || !strings.Contains(s.Error, "denied") {
					t.Errorf("server %s: status %s, error %q", s.Name, s.Status, s.Error)
				}
			}
			if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
				t.Error("the denied command ran")
			}
			if hits.Load() != 0 {
				t.Errorf("the denied http server got %d requests", hits.Load())
			}
		})
	}

	// The requests carry names, never values.
	if len(asked) != 2 {
		t.Fatalf("Connect was asked %d times, want 2 (one per server, in name order)", len(asked))
	}
	if asked[0].Server != "local" || asked[0].Command != "/bin/sh" || strings.Join(asked[0].EnvKeys, ",") != "API_TOKEN" {
		t.Errorf("stdio request = %+v", asked[0])
	}
	if asked[1].Server != "web" || asked[1].Origin != srv.URL || strings.Join(asked[1].HeaderKeys, ",") != "Authorization" {
		t.Errorf("http request = %+v", asked[1])
	}
	for _, req := range asked {
		if strings.Contains(string(req.Input()), secret) {
			t.Errorf("permission input %s carries a secret", req.Input())
		}
	}
	if got := string(asked[0].Input()); got != `{"args":["-c","touch \"$1\"; exit 1","sh","`+marker+`"],"command":"/bin/sh","envKeys":["API_TOKEN"],"server":"local","source":"host","type":"stdio"}` {
		t.Errorf("stdio permission input = %s", got)
	}
}

func TestGrantedConnectionRunsTheCommand(t *testing.T) {
	// The control for TestDeniedConnectionStartsNothing: the marker server
	// does run once granted, and its failure is reported without secrets.
	marker := filepath.Join(t.TempDir(), "ran")
	h := newHost(t, map[string]mcphost.ServerConfig{"local": markerServer(marker)}, mcphost.Options{Connect: allow})
	_, err := h.Tools(t.Context())
	var se *mcphost.ServerError
	if !errors.As(err, &se) || se.Server != "local" || errors.Is(err, mcphost.ErrDenied) {
		t.Fatalf("Tools = %v, want a connection failure of 'local'", err)
	}
	if strings.Contains(err.Error(), secret) {
		t.Errorf("error %q carries a secret", err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the granted command did not run: %v", err)
	}
	if s := h.List()[0]; s.Status != mcphost.StatusError {
		t.Errorf("status = %s, want error", s.Status)
	}
}

func TestResetRetriesAFailedServer(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	var calls atomic.Int64
	connect := func(context.Context, mcphost.ConnectRequest) error {
		if calls.Add(1) == 1 {
			return errors.New("not now")
		}
		return nil
	}
	h := newHost(t, map[string]mcphost.ServerConfig{"local": markerServer(marker)}, mcphost.Options{Connect: connect})
	if _, err := h.Tools(t.Context()); !errors.Is(err, mcphost.ErrDenied) {
		t.Fatalf("first Tools = %v, want ErrDenied", err)
	}
	if err := h.Reset("local"); err != nil {
		t.Fatal(err)
	}
	if s := h.List()[0]; s.Status != mcphost.StatusConfigured {
		t.Fatalf("status after Reset = %s", s.Status)
	}
	_, err := h.Tools(t.Context())
	if err == nil || errors.Is(err, mcphost.ErrDenied) || calls.Load() != 2 {
		t.Fatalf("Tools after Reset = %v with %d Connect calls; want a connection failure after a second grant", err, calls.Load())
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("the command did not run after Reset and grant")
	}
	if err := h.Reset("nope"); !errors.Is(err, mcphost.ErrUnknownServer) {
		t.Errorf("Reset of an unknown name = %v", err)
	}
}
