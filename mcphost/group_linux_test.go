package mcphost_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/mcphost"
	"golang.org/x/sys/unix"
)

func TestCloseKillsTheServersProcessGroup(t *testing.T) {
	cfg := everythingStdio(t)
	pidFile := filepath.Join(t.TempDir(), "helper.pid")
	// The server starts a helper that would outlive it.
	script := `sleep 300 & echo $! > "$1"; exec "$2" "$3" stdio`
	cfg = mcphost.ServerConfig{Command: "/bin/sh", Args: []string{"-c", script, "sh", pidFile, cfg.Command, cfg.Args[0]}}
	h := newHost(t, map[string]mcphost.ServerConfig{"everything": cfg}, mcphost.Options{Connect: allow})
	if _, err := h.Tools(t.Context()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	helper, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// A pidfd taken while the helper runs becomes readable when it exits,
	// whoever reaps it, and cannot be confused with a reused pid.
	fd, err := unix.PidfdOpen(helper, 0)
	if err != nil {
		t.Fatalf("helper %d is not running: %v", helper, err)
	}
	defer unix.Close(fd)
	if exited(t, fd, 0) {
		t.Fatal("helper exited before Close")
	}
	h.Close()
	if !exited(t, fd, 10000) {
		t.Fatal("helper still runs 10 s after Close")
	}
}

// exited waits up to ms milliseconds for the process of pidfd fd to exit.
func exited(t *testing.T, fd, ms int) bool {
	t.Helper()
	for {
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, ms)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
}
