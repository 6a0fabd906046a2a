//go:build unix

package mcphost_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/mcptest"

	"github.com/lite-agent/lite-agent-go/mcphost"
)

// This file locates and starts the real MCP servers that
// scripts/install-mcp-servers.sh installs from the npm registry.

// everythingStdio returns the configuration of server-everything over stdio.
func everythingStdio(t *testing.T) mcphost.ServerConfig {
	t.Helper()
	node, script := mcptest.Server(t, "server-everything")
	return mcphost.ServerConfig{Command: node, Args: []string{script, "stdio"}}
}

// filesystemStdio returns the configuration of server-filesystem over
// stdio, allowed to reach dir.
func filesystemStdio(t *testing.T, dir string) mcphost.ServerConfig {
	t.Helper()
	node, script := mcptest.Server(t, "server-filesystem")
	return mcphost.ServerConfig{Command: node, Args: []string{script, dir}}
}

// everythingHTTP starts server-everything in Streamable HTTP mode on a free
// loopback port, waits until it listens, and returns its endpoint. The
// server is killed when the test ends.
func everythingHTTP(t *testing.T) string {
	t.Helper()
	node, script := mcptest.Server(t, "server-everything")
	var lastErr error
	for range 3 { // a port found free may be taken before node binds it
		port := freePort(t)
		url, err := startHTTP(t, node, script, port)
		if err == nil {
			return url
		}
		lastErr = err
	}
	t.Fatalf("server-everything over HTTP did not start: %v", lastErr)
	return ""
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startHTTP starts the server on port and waits for the line saying that
// it listens.
func startHTTP(t *testing.T, node, script string, port int) (string, error) {
	cmd := exec.Command(node, script, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	kill := func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	}
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.Contains(line, "listening on port"):
				ready <- nil
				for sc.Scan() { // keep draining so the server never blocks
				}
				return
			case strings.Contains(line, "already in use"), strings.Contains(line, "Failed"):
				ready <- errors.New(line)
				return
			}
		}
		ready <- errors.New("the server exited before listening")
	}()
	select {
	case err := <-ready:
		if err != nil {
			kill()
			return "", err
		}
	case <-time.After(30 * time.Second):
		kill()
		return "", errors.New("no listening line within 30s")
	}
	t.Cleanup(kill)
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port), nil
}

// allow is an Options.Connect that grants every connection.
func allow(context.Context, mcphost.ConnectRequest) error { return nil }

// newHost builds a Host for servers given by the host program, closed when
// the test ends.
func newHost(t *testing.T, servers map[string]mcphost.ServerConfig, opts mcphost.Options) *mcphost.Host {
	t.Helper()
	cfg, err := mcphost.LoadConfig(mcphost.LoadOptions{Servers: servers, NoFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mcphost.New(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// processGone reports whether no process has the id pid.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
