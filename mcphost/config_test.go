//go:build unix

package mcphost_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/lite-agent/lite-agent-go/mcphost"
	"github.com/lite-agent/lite-agent-go/storage"
)

// secret is a value that must never appear in an error.
const secret = "s3cr3t-token-value"

// layout resolves the paths of a fresh home and workdir under namespace.
func layout(t *testing.T, namespace string) (storage.ProjectPaths, string) {
	t.Helper()
	root := t.TempDir()
	workdir := filepath.Join(root, "project")
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: workdir,
		Storage: storage.Options{Namespace: namespace, Home: filepath.Join(root, "home")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p, workdir
}

// writeFile writes data to path, creating its directory.
func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLoadConfigMergesGlobalProjectAndConstructor(t *testing.T) {
	p, _ := layout(t, "")
	global := filepath.Join(p.Home, "mcps.json")
	project := filepath.Join(p.ProjectConfigDir, "mcps.json")
	writeFile(t, global, `{"mcpServers": {
		"shared": {"command": "srv", "args": ["--flag"]},
		"g": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer x"}}
	}}`)
	// The same configuration again, spelled with its defaults, is kept once.
	writeFile(t, project, `{"mcpServers": {
		"shared": {"type": "stdio", "command": "srv", "args": ["--flag"], "timeoutMs": 30000},
		"p": {"command": "proj", "env": {"A": "1"}, "timeoutMs": 5000}
	}}`)
	cfg, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: p, Servers: map[string]mcphost.ServerConfig{
		"c":      {Command: "ctor"},
		"shared": {Command: "srv", Args: []string{"--flag"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []mcphost.Server{
		{Name: "c", Source: mcphost.SourceConstructor, Config: mcphost.ServerConfig{Type: "stdio", Command: "ctor", Timeout: 30 * time.Second}},
		{Name: "g", Source: mcphost.SourceGlobal, File: global, Config: mcphost.ServerConfig{Type: "http", URL: "https://mcp.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer x"}, Timeout: 30 * time.Second}},
		{Name: "p", Source: mcphost.SourceProject, File: project, Config: mcphost.ServerConfig{Type: "stdio", Command: "proj", Env: map[string]string{"A": "1"}, Timeout: 5 * time.Second}},
		{Name: "shared", Source: mcphost.SourceGlobal, File: global, Config: mcphost.ServerConfig{Type: "stdio", Command: "srv", Args: []string{"--flag"}, Timeout: 30 * time.Second}},
	}
	if diff := cmp.Diff(want, cfg.Servers); diff != "" {
		t.Fatalf("servers (-want +got):\n%s", diff)
	}
}

func TestLoadConfigMissingFilesAreFine(t *testing.T) {
	p, _ := layout(t, "")
	cfg, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: p})
	if err != nil || len(cfg.Servers) != 0 {
		t.Fatalf("LoadConfig = %+v, %v; want no servers", cfg, err)
	}
}

func TestConflictingServerNamesNameBothPlaces(t *testing.T) {
	p, _ := layout(t, "")
	global := filepath.Join(p.Home, "mcps.json")
	project := filepath.Join(p.ProjectConfigDir, "mcps.json")
	writeFile(t, global, `{"mcpServers": {"tools": {"command": "trusted-server"}}}`)
	writeFile(t, project, `{"mcpServers": {"tools": {"command": "other-server", "env": {"TOKEN": "`+secret+`"}}}}`)

	// The project's entry gives way to the user's (files65).
	cfg, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: p})
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	if len(cfg.Servers) != 1 || cfg.Servers[0].Config.Command != "trusted-server" || len(cfg.Skipped) != 1 {
		t.Fatalf("config = %+v, want the global tools and the project's skipped", cfg)
	}
	if ce := cfg.Skipped[0]; ce.Server != "tools" || ce.First != global || ce.Second != project {
		t.Errorf("skipped = %+v", ce)
	}
	if msg := cfg.Skipped[0].Error(); !strings.Contains(msg, global) || !strings.Contains(msg, project) || strings.Contains(msg, secret) {
		t.Errorf("message %q must name both files and no value", msg)
	}
	var ce *mcphost.ConflictError

	// The constructor conflicts too, named as such.
	writeFile(t, project, `{}`)
	_, err = mcphost.LoadConfig(mcphost.LoadOptions{Paths: p, Servers: map[string]mcphost.ServerConfig{"tools": {Command: "mine"}}})
	if !errors.As(err, &ce) || ce.First != global || ce.Second != "constructor options" {
		t.Fatalf("err = %v, want a conflict between %s and the constructor", err, global)
	}
}

func TestBadConfigFilesFailNamingTheFileWithoutSecrets(t *testing.T) {
	big := `{"mcpServers": {"a": {"command": "x", "args": ["` + strings.Repeat("y", mcphost.MaxConfigBytes) + `"]}}}`
	cases := []struct {
		name, data, want string
	}{
		{"MalformedJSON", `{"mcpServers": {"a": {"command": "x", "env": {"K": ` + secret + `}}}}`, "invalid JSON"},
		{"TruncatedJSON", `{"mcpServers": {"a": {"command": "` + secret, "invalid JSON"},
		{"Oversized", big, "exceeds 256 KiB"},
		{"TrailingData", `{} {"env": "` + secret + `"}`, "after the top-level value"},
		{"NotUTF8", "{\"mcpServers\": {\"a\": {\"command\": \"\xff" + secret + "\"}}}", "UTF-8"},
		{"TopLevelNotObject", `["` + secret + `"]`, "top level must be an object"},
		{"UnknownTopLevelKey", `{"mcpServers": {}, "servers": {}}`, `unknown top-level key "servers"`},
		{"UnknownServerKey", `{"mcpServers": {"a": {"command": "x", "cwd": "` + secret + `"}}}`, `unknown key "cwd"`},
		{"HTTPKeyOnStdio", `{"mcpServers": {"a": {"command": "x", "headers": {"X": "` + secret + `"}}}}`, `unknown key "headers"`},
		{"DuplicateServer", `{"mcpServers": {"a": {"command": "x"}, "a": {"command": "` + secret + `"}}}`, `duplicate key "a"`},
		{"DuplicateEnvKey", `{"mcpServers": {"a": {"command": "x", "env": {"K": "1", "K": "` + secret + `"}}}}`, `duplicate key "K"`},
		{"CaseVariantKey", `{"mcpServers": {"a": {"Command": "` + secret + `"}}}`, `unknown key "Command"`},
		{"BadServerName", `{"mcpServers": {"a__b": {"command": "x"}}}`, "MCP server name must be"},
		{"LongServerName", `{"mcpServers": {"abcdefghijklmnopqrstuvwxy": {"command": "x"}}}`, "MCP server name must be"},
		{"MissingCommand", `{"mcpServers": {"a": {"args": ["` + secret + `"]}}}`, "command is required"},
		{"EmptyCommand", `{"mcpServers": {"a": {"command": "  "}}}`, "command must be"},
		{"NULInArg", `{"mcpServers": {"a": {"command": "x", "args": ["` + secret + `\u0000"]}}}`, "args[0] contains NUL"},
		{"TooManyArgs", `{"mcpServers": {"a": {"command": "x", "args": [` + strings.Repeat(`"a",`, 256) + `"a"]}}}`, "at most 256"},
		{"ArgNotString", `{"mcpServers": {"a": {"command": "x", "args": [1]}}}`, "args[0] must be a string"},
		{"BadEnvName", `{"mcpServers": {"a": {"command": "x", "env": {"1BAD": "` + secret + `"}}}}`, `env name "1BAD"`},
		{"EnvValueNotString", `{"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}`, `env "K" must be a string`},
		{"BadTimeout", `{"mcpServers": {"a": {"command": "x", "timeoutMs": 300001}}}`, "timeoutMs"},
		{"FractionalTimeout", `{"mcpServers": {"a": {"command": "x", "timeoutMs": 1.5}}}`, "timeoutMs"},
		{"UnknownType", `{"mcpServers": {"a": {"type": "sse", "url": "https://x"}}}`, `type must be "stdio" or "http"`},
		{"PlainHTTPRemote", `{"mcpServers": {"a": {"type": "http", "url": "http://example.com/mcp?key=` + secret + `"}}}`, "requires HTTPS"},
		{"URLCredentials", `{"mcpServers": {"a": {"type": "http", "url": "https://user:` + secret + `@example.com/mcp"}}}`, "requires HTTPS"},
		{"URLFragment", `{"mcpServers": {"a": {"type": "http", "url": "https://example.com/mcp#` + secret + `"}}}`, "requires HTTPS"},
		{"ReservedHeader", `{"mcpServers": {"a": {"type": "http", "url": "https://example.com", "headers": {"mcp-session-id": "` + secret + `"}}}}`, "reserved HTTP header"},
		{"HeaderWithNewline", `{"mcpServers": {"a": {"type": "http", "url": "https://example.com", "headers": {"X-Key": "` + secret + `\r\nHost: evil"}}}}`, "CR, LF or NUL"},
		{"DeepNesting", `{"mcpServers": {"a": {"command": "x", "args": ` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}}}`, "nesting deeper"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := layout(t, "")
			file := filepath.Join(p.ProjectConfigDir, "mcps.json")
			writeFile(t, file, tc.data)
			_, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: p})
			var ce *mcphost.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a *ConfigError", err)
			}
			msg := err.Error()
			if ce.File != file || !strings.Contains(msg, file) {
				t.Errorf("error %q does not name %s", msg, file)
			}
			if !strings.Contains(msg, tc.want) {
				t.Errorf("error %q does not say %q", msg, tc.want)
			}
			if strings.Contains(msg, secret) || strings.Contains(msg, "s3cr3t") {
				t.Errorf("error %q echoes a secret", msg)
			}
		})
	}
}

func TestConfigThatIsNotARegularFileFails(t *testing.T) {
	t.Run("Directory", func(t *testing.T) {
		p, _ := layout(t, "")
		file := filepath.Join(p.Home, "mcps.json")
		if err := os.MkdirAll(file, 0o700); err != nil {
			t.Fatal(err)
		}
		_, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: p})
		var ce *mcphost.ConfigError
		if !errors.As(err, &ce) || ce.File != file {
			t.Fatalf("err = %v, want a *ConfigError naming %s", err, file)
		}
	})
	t.Run("FIFODoesNotBlock", func(t *testing.T) {
		p, _ := layout(t, "")
		file := filepath.Join(p.ProjectConfigDir, "mcps.json")
		if err := os.MkdirAll(p.ProjectConfigDir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(file, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		_, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: p})
		var ce *mcphost.ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("err = %v, want a *ConfigError about a non-regular file", err)
		}
	})
}

func TestCustomNamespaceReadsOnlyItsOwnProjectDir(t *testing.T) {
	p, workdir := layout(t, "acme")
	if p.ProjectConfigDir != filepath.Join(workdir, ".acme") {
		t.Fatalf("ProjectConfigDir = %s", p.ProjectConfigDir)
	}
	writeFile(t, filepath.Join(workdir, ".acme", "mcps.json"), `{"mcpServers": {"acme": {"command": "acme-server"}}}`)
	// Beside it, a .lite-agent directory that would conflict if read, and a
	// broken one that would fail if read.
	writeFile(t, filepath.Join(workdir, ".lite-agent", "mcps.json"), `{"mcpServers": {"acme": {"command": "evil"}, "x": {"command": "evil"}}}`)
	writeFile(t, filepath.Join(workdir, ".mcp.json"), `not json`)
	writeFile(t, filepath.Join(p.Home, "mcps.json"), `{"mcpServers": {"home": {"command": "home-server"}}}`)

	cfg, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: p})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range cfg.Servers {
		got = append(got, s.Name+"="+s.Config.Command+"@"+string(s.Source))
	}
	want := []string{"acme=acme-server@project", "home=home-server@global"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("servers (-want +got):\n%s", diff)
	}
}

func TestNoFilesSkipsBothFiles(t *testing.T) {
	p, _ := layout(t, "")
	writeFile(t, filepath.Join(p.Home, "mcps.json"), `broken`)
	writeFile(t, filepath.Join(p.ProjectConfigDir, "mcps.json"), `broken`)
	cfg, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: p, NoFiles: true, Servers: map[string]mcphost.ServerConfig{"c": {Command: "x"}}})
	if err != nil || len(cfg.Servers) != 1 {
		t.Fatalf("LoadConfig = %+v, %v", cfg, err)
	}
}

func TestSameFileAsGlobalAndProjectIsReadOnce(t *testing.T) {
	root := t.TempDir()
	// The workdir is the home's parent, so <workdir>/.lite-agent is the home.
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: root, Storage: storage.Options{Home: filepath.Join(root, ".lite-agent")}})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(p.Home, "mcps.json"), `{"mcpServers": {"a": {"command": "x"}}}`)
	cfg, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: p})
	if err != nil || len(cfg.Servers) != 1 || cfg.Servers[0].Source != mcphost.SourceGlobal {
		t.Fatalf("LoadConfig = %+v, %v", cfg, err)
	}
}

func TestTooManyServersFail(t *testing.T) {
	servers := map[string]mcphost.ServerConfig{}
	for i := range mcphost.DefaultMaxServers + 1 {
		servers[strings.Repeat("s", 1)+string(rune('a'+i%26))+string(rune('a'+i/26))] = mcphost.ServerConfig{Command: "x"}
	}
	_, err := mcphost.LoadConfig(mcphost.LoadOptions{Servers: servers})
	var ce *mcphost.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "exceeds 32 servers") {
		t.Fatalf("err = %v, want the server cap", err)
	}
	if _, err := mcphost.New(mcphost.Config{Servers: make([]mcphost.Server, 3)}, mcphost.Options{MaxServers: 2}); !errors.As(err, &ce) {
		t.Fatalf("New over MaxServers = %v, want a *ConfigError", err)
	}
}

func TestConstructorServersAreValidated(t *testing.T) {
	cases := map[string]struct {
		name string
		cfg  mcphost.ServerConfig
		want string
	}{
		"BadName":         {"a b", mcphost.ServerConfig{Command: "x"}, "MCP server name must be"},
		"URLOnStdio":      {"a", mcphost.ServerConfig{Command: "x", URL: "https://" + secret}, "only for http"},
		"EnvOnHTTP":       {"a", mcphost.ServerConfig{Type: "http", URL: "https://x", Env: map[string]string{"K": secret}}, "only for stdio"},
		"NegativeTimeout": {"a", mcphost.ServerConfig{Command: "x", Timeout: -1}, "timeoutMs"},
		"HTTPOnLAN":       {"a", mcphost.ServerConfig{Type: "http", URL: "http://192.168.1.2/" + secret}, "requires HTTPS"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := mcphost.LoadConfig(mcphost.LoadOptions{Servers: map[string]mcphost.ServerConfig{tc.name: tc.cfg}})
			var ce *mcphost.ConfigError
			if !errors.As(err, &ce) || ce.File != "" || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), secret) {
				t.Fatalf("err = %v, want a *ConfigError saying %q", err, tc.want)
			}
			// New validates a Config built by hand the same way.
			_, err = mcphost.New(mcphost.Config{Servers: []mcphost.Server{{Name: tc.name, Config: tc.cfg}}}, mcphost.Options{})
			if !errors.As(err, &ce) {
				t.Fatalf("New = %v, want a *ConfigError", err)
			}
		})
	}
}

func TestLoopbackHTTPIsAllowed(t *testing.T) {
	for _, u := range []string{"http://localhost:8080/mcp", "http://127.0.0.1/mcp", "http://[::1]:9/mcp", "https://example.com/mcp?x=1"} {
		if err := (mcphost.ServerConfig{Type: mcphost.TransportHTTP, URL: u}).Validate(); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
}

func TestDisabledTransportFailsConstruction(t *testing.T) {
	cfg, err := mcphost.LoadConfig(mcphost.LoadOptions{Servers: map[string]mcphost.ServerConfig{"web": {Type: mcphost.TransportHTTP, URL: "https://example.com/mcp"}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = mcphost.New(cfg, mcphost.Options{Transports: []mcphost.Transport{mcphost.TransportStdio}})
	if !errors.Is(err, mcphost.ErrTransportDisabled) {
		t.Fatalf("err = %v, want ErrTransportDisabled", err)
	}
}
