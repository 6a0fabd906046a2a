package liteagent_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/mcptest"

	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// everythingConfig returns a project mcps.json starting the npm
// server-everything over stdio, installed by scripts/install-mcp-servers.sh.
func everythingConfig(t *testing.T) string {
	t.Helper()
	node, script := mcptest.Server(t, "server-everything")
	return `{"mcpServers":{"everything":{"command":"` + node + `","args":["` + script + `","stdio"]}}}`
}

func TestMCPToolsFromTheProjectConfig(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.workdir, ".acme", "mcps.json"), everythingConfig(t))
	a := f.agent(t, f.options(nil))
	f.p.Reply(modeltest.ToolCalls(call("e", "mcp__everything__echo", `{"message":"hello over MCP"}`)))
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "echo"); err != nil {
		t.Fatal(err)
	}
	reqs := f.p.Requests()
	var names []string
	for _, s := range reqs[0].Tools {
		names = append(names, s.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "mcp__everything__echo") {
		t.Fatalf("MCP tools not offered: %v", names)
	}
	msgs := reqs[1].Messages
	if got := msgs[len(msgs)-1].Blocks[0]; got.IsError || !strings.Contains(got.Content, "hello over MCP") {
		t.Errorf("echo result %+v", got)
	}
}

func TestMCPServersDoNotStartWithoutTheHostsGrant(t *testing.T) {
	f := newFixture(t)
	writeFile(t, filepath.Join(f.workdir, ".acme", "mcps.json"), everythingConfig(t))
	opts := f.options(nil)
	opts.OnApproval = nil // mcp_connect is asked about and so denied
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("ok"))
	if _, err := a.Send(t.Context(), "hi"); err != nil {
		t.Fatal(err)
	}
	for _, s := range f.p.Requests()[0].Tools {
		if strings.HasPrefix(s.Name, "mcp__") {
			t.Errorf("MCP tool %s offered without a grant", s.Name)
		}
	}
}
