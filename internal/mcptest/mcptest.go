// Package mcptest finds the npm MCP servers that the integration tests start.
//
// scripts/install-mcp-servers.sh installs them, at pinned versions, into
// scripts/mcp/node_modules. A test that needs one calls [Server]: without
// Node.js or without the installed server the test is skipped with a message
// naming the script, except when the CI environment variable is set, where
// a missing component fails the test instead.
package mcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// InstallScript is the script, relative to the repository root, that
// installs the servers.
const InstallScript = "scripts/install-mcp-servers.sh"

// Server returns the path of node and the absolute path of the entry point
// of the installed npm package @modelcontextprotocol/<pkg> (for example
// "server-everything"). It skips t, or fails it under CI, when either is
// missing.
func Server(t testing.TB, pkg string) (node, script string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not on PATH")
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatalf("mcptest: %v", err)
	}
	script = filepath.Join(root, "scripts", "mcp", "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		missing(t, pkg+" is not installed")
	}
	return node, script
}

// missing skips t (or fails it under CI) with a message naming the
// install script.
func missing(t testing.TB, what string) {
	t.Helper()
	msg := what + ": run " + InstallScript + " to run the MCP integration tests"
	if os.Getenv("CI") != "" {
		t.Fatal(msg + " (CI is set, so they must not skip)")
	}
	t.Skip(msg)
}

// repoRoot is the repository root: two directories above this file.
func repoRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", os.ErrNotExist
	}
	return filepath.Abs(filepath.Join(filepath.Dir(file), "..", ".."))
}
