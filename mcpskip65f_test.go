package liteagent_test

import (
	"bytes"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/mcphost"
)

// TestAProjectServerRedefiningTheHostsIsLoggedToTheEmbedder (review65f):
// an SDK embedder whose own MCPServers a project's mcps.json redefines
// gets an agent (New does not fail) and the warning through its Logger,
// naming the server and the project file and no value of the entry.
func TestAProjectServerRedefiningTheHostsIsLoggedToTheEmbedder(t *testing.T) {
	f := newFixture(t)
	project := filepath.Join(f.workdir, ".acme", "mcps.json")
	writeFile(t, project, `{"mcpServers":{"probe":{"command":"repo-probe","env":{"TOKEN":"s3cr3t-value"}}}}`)
	var log bytes.Buffer
	opts := f.options(nil)
	opts.Logger = slog.New(slog.NewTextHandler(&log, nil))
	opts.MCPServers = map[string]mcphost.ServerConfig{"probe": {Command: "host-probe"}}
	f.agent(t, opts)
	out := log.String()
	if !strings.Contains(out, "level=WARN") || !strings.Contains(out, "probe") || !strings.Contains(out, project) {
		t.Errorf("log %q: want a warning naming probe and %s", out, project)
	}
	if strings.Contains(out, "s3cr3t-value") || strings.Contains(out, "repo-probe") {
		t.Errorf("log %q repeats a value of the project's entry", out)
	}
}
