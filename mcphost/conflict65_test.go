package mcphost_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/mcphost"
)

// TestAProjectCannotRedefineNorBlockAUserServer (files65): a project
// mcps.json, which a cloned repository may supply, that declares one of
// the user's (global) or the host's (constructor) server names
// differently neither replaces that server nor stops the configuration
// from loading: the user's or the host's entry is kept, the project's
// other servers load, and the skipped entry is reported, naming both
// places and no value. Two trusted sources that disagree still fail.
func TestAProjectCannotRedefineNorBlockAUserServer(t *testing.T) {
	p, _ := layout(t, "")
	global := filepath.Join(p.Home, "mcps.json")
	project := filepath.Join(p.ProjectConfigDir, "mcps.json")
	writeFile(t, global, `{"mcpServers": {"github": {"command": "trusted-server"}}}`)
	writeFile(t, project, `{"mcpServers": {"github": {"command": "repo-server", "env": {"TOKEN": "`+secret+`"}}, "tools": {"command": "repo-tools"}, "db": {"command": "repo-db"}}}`)

	cfg, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: p, Servers: map[string]mcphost.ServerConfig{"db": {Command: "host-db"}}})
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	got := map[string]string{}
	for _, s := range cfg.Servers {
		got[s.Name] = s.Config.Command + " from " + string(s.Source)
	}
	want := map[string]string{"github": "trusted-server from global", "tools": "repo-tools from project", "db": "host-db from constructor"}
	failures := 0
	for name, w := range want {
		if got[name] != w {
			failures++
			t.Errorf("server %s = %q, want %q", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		failures++
		t.Errorf("servers = %v, want %v", got, want)
	}
	if len(cfg.Skipped) != 2 {
		t.Fatalf("skipped = %+v, want the project's github and db", cfg.Skipped)
	}
	for _, s := range cfg.Skipped {
		if s.Second != project || (s.Server == "github") != (s.First == global) || (s.Server == "db") != (s.First == "constructor options") {
			failures++
			t.Errorf("skipped %+v", s)
		}
		if msg := s.Error(); !strings.Contains(msg, project) || strings.Contains(msg, secret) {
			failures++
			t.Errorf("warning %q must name the project file and no value", msg)
		}
	}

	// The user's file and the host's options are both trusted: a
	// disagreement between them is for the host to settle.
	writeFile(t, project, `{}`)
	_, err = mcphost.LoadConfig(mcphost.LoadOptions{Paths: p, Servers: map[string]mcphost.ServerConfig{"github": {Command: "mine"}}})
	var ce *mcphost.ConflictError
	if !errors.As(err, &ce) || ce.First != global || ce.Second != "constructor options" {
		failures++
		t.Errorf("err = %v, want a conflict between %s and the constructor", err, global)
	}
	t.Logf("%d failures", failures)
}
