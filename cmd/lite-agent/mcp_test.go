package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/mcptest"

	"github.com/lite-agent/lite-agent-go/mcphost"
)

// mcpSecret is an env value that mcp list must never print.
const mcpSecret = "mcp-list-secret-value"

// mcpProject returns a workdir and a home for mcp list tests, with the
// given project (under .lite-agent) and global mcps.json contents; "" writes
// no file.
func mcpProject(t *testing.T, project, global string) (workdir, home string) {
	t.Helper()
	isolateEnv(t)
	root := t.TempDir()
	workdir, home = filepath.Join(root, "w"), filepath.Join(root, "h")
	for _, f := range []struct{ dir, data string }{{filepath.Join(workdir, ".lite-agent"), project}, {home, global}} {
		if err := os.MkdirAll(f.dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if f.data != "" {
			if err := os.WriteFile(filepath.Join(f.dir, "mcps.json"), []byte(f.data), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	return workdir, home
}

func TestMCPListShowsServersWithoutRunningThem(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	workdir, home := mcpProject(t,
		`{"mcpServers": {"local": {"command": "/bin/sh", "args": ["-c", "touch '`+marker+`'"], "env": {"TOKEN": "`+mcpSecret+`"}}}}`,
		`{"mcpServers": {"web": {"type": "http", "url": "https://mcp.example.com/mcp?key=`+mcpSecret+`", "headers": {"Authorization": "`+mcpSecret+`"}}}}`)
	res := runCLI(t, "--workdir", workdir, "--home", home, "mcp", "list")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	for _, want := range []string{
		"local\n  source:   project " + filepath.Join(workdir, ".lite-agent", "mcps.json"),
		"command:  /bin/sh -c 'touch '\\''" + marker + "'\\'''",
		"env:      TOKEN",
		"web\n  source:   global " + filepath.Join(home, "mcps.json"),
		"url:      https://mcp.example.com/mcp\n",
		"headers:  Authorization",
		"status:   configured",
	} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, res.stdout)
		}
	}
	if strings.Contains(res.stdout, "tools:") {
		t.Errorf("tools listed without --connect:\n%s", res.stdout)
	}

	res = runCLI(t, "--workdir", workdir, "--home", home, "mcp", "list", "--json")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	var infos []mcphost.ServerInfo
	if err := json.Unmarshal([]byte(res.stdout), &infos); err != nil {
		t.Fatal(err)
	}
	if len(infos) != 2 || infos[0].Name != "local" || infos[0].Source != mcphost.SourceProject || infos[1].Name != "web" || infos[1].Source != mcphost.SourceGlobal {
		t.Errorf("JSON listing = %+v", infos)
	}
	for _, out := range []string{res.stdout, runCLI(t, "--workdir", workdir, "--home", home, "mcp", "list").stdout} {
		if strings.Contains(out, mcpSecret) {
			t.Errorf("output shows a secret:\n%s", out)
		}
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Error("mcp list without --connect ran a server's command")
	}
}

func TestMCPListReadsOnlyTheNamespacesProjectDir(t *testing.T) {
	workdir, home := mcpProject(t, `{"mcpServers": {"ignored": {"command": "x"}}}`, "")
	if err := os.MkdirAll(filepath.Join(workdir, ".acme"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(workdir, ".acme", "mcps.json"), []byte(`{"mcpServers": {"acme": {"command": "y"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	res := runCLI(t, "--workdir", workdir, "--home", home, "--namespace", "acme", "mcp", "list", "--json")
	var infos []mcphost.ServerInfo
	if res.code != 0 || json.Unmarshal([]byte(res.stdout), &infos) != nil {
		t.Fatalf("exit %d: %s%s", res.code, res.stdout, res.stderr)
	}
	if len(infos) != 1 || infos[0].Name != "acme" {
		t.Fatalf("servers under namespace acme = %+v, want only acme", infos)
	}
}

func TestMCPListReportsABadFile(t *testing.T) {
	workdir, home := mcpProject(t, `{"mcpServers": {"a": {"command": "x", "env": {"K": `+mcpSecret+`}}}}`, "")
	res := runCLI(t, "--workdir", workdir, "--home", home, "mcp", "list")
	file := filepath.Join(workdir, ".lite-agent", "mcps.json")
	if res.code != 1 || !strings.Contains(res.stderr, file) || strings.Contains(res.stderr, mcpSecret) || res.stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 1 naming %s without the secret", res.code, res.stdout, res.stderr, file)
	}
}

func TestMCPListUnknownServer(t *testing.T) {
	workdir, home := mcpProject(t, `{"mcpServers": {"a": {"command": "x"}}}`, "")
	res := runCLI(t, "--workdir", workdir, "--home", home, "mcp", "list", "b")
	if res.code != 1 || !strings.Contains(res.stderr, `"b"`) {
		t.Fatalf("exit %d, stderr %q", res.code, res.stderr)
	}
}

func TestMCPListWithoutServers(t *testing.T) {
	workdir, home := mcpProject(t, "", "")
	if res := runCLI(t, "--workdir", workdir, "--home", home, "mcp", "list"); res.code != 0 || res.stdout != "no MCP servers configured\n" {
		t.Fatalf("exit %d, stdout %q", res.code, res.stdout)
	}
	if res := runCLI(t, "--workdir", workdir, "--home", home, "mcp", "list", "--json"); res.code != 0 || res.stdout != "[]\n" {
		t.Fatalf("exit %d, stdout %q", res.code, res.stdout)
	}
	if res := runCLI(t, "mcp"); res.code != 2 {
		t.Fatalf("bare mcp: exit %d", res.code)
	}
}

func TestMCPListConnectListsTools(t *testing.T) {
	node, script := mcptest.Server(t, "server-everything")
	marker := filepath.Join(t.TempDir(), "ran")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"everything": map[string]any{"command": node, "args": []string{script, "stdio"}},
		"broken":     map[string]any{"command": "/bin/sh", "args": []string{"-c", `touch "$1"; exit 1`, "sh", marker}},
	}})
	// The user's own servers: --connect lists them without asking.
	workdir, home := mcpProject(t, "", string(cfg))

	res := runCLI(t, "--workdir", workdir, "--home", home, "mcp", "list", "--connect", "everything")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if !strings.Contains(res.stdout, "status:   ready") || !strings.Contains(res.stdout, "    mcp__everything__echo  ") || strings.Contains(res.stdout, "broken") {
		t.Errorf("output:\n%s", res.stdout)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Error("a server not named on the command line ran")
	}

	// A server that fails is listed with its error, and the exit code says so.
	res = runCLI(t, "--workdir", workdir, "--home", home, "mcp", "list", "--connect", "--json")
	var infos []mcphost.ServerInfo
	if err := json.Unmarshal([]byte(res.stdout), &infos); err != nil {
		t.Fatalf("%v: %s", err, res.stdout)
	}
	if res.code != 1 || !strings.Contains(res.stderr, "could not connect to broken") {
		t.Errorf("exit %d, stderr %q", res.code, res.stderr)
	}
	if len(infos) != 2 || infos[0].Status != mcphost.StatusError || infos[1].Status != mcphost.StatusReady || len(infos[1].Tools) == 0 {
		t.Errorf("JSON listing = %+v", infos)
	}
}
