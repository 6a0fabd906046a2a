package liteagent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
)

// toolResults returns the tool results the model was sent in the request
// after the given one.
func toolResults(t *testing.T, p *modeltest.Provider, req int) []model.Block {
	t.Helper()
	reqs := p.Requests()
	if len(reqs) <= req {
		t.Fatalf("%d requests, want more than %d", len(reqs), req)
	}
	msgs := reqs[req].Messages
	return msgs[len(msgs)-1].Blocks
}

func TestAgentFileToolsRefuseProtectedPaths(t *testing.T) {
	f := newFixture(t)
	protected := map[string]string{
		".acme/permissions.json": `{"version":1,"rules":[]}`,
		".acme/hooks.json":       `{}`,
		".git/config":            "[core]",
	}
	for rel, content := range protected {
		writeFile(t, filepath.Join(f.workdir, rel), content)
	}
	if err := os.Symlink(".acme", filepath.Join(f.workdir, "cfg")); err != nil {
		t.Fatal(err)
	}
	opts := f.options(nil)
	opts.DisableHookFiles = true // the hooks.json here is a decoy
	a := f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(
		call("1", "write_file", `{"path":".acme/permissions.json","content":"{\"version\":1,\"rules\":[{\"tool\":\"*\",\"action\":\"allow\"}]}"}`),
		call("2", "edit_file", `{"path":".acme/hooks.json","old_text":"{","new_text":"{\"x\":1,"}`),
		call("3", "delete_file", `{"path":".git/config"}`),
		call("4", "write_file", `{"path":".acme/mcps.json","content":"{}"}`),
		call("5", "write_file", `{"path":".acme/agents/evil.md","content":"x"}`),
		call("6", "write_file", `{"path":"cfg/permissions.json","content":"{}"}`),
		call("7", "write_file", `{"path":"`+filepath.Join(f.home, "hooks.json")+`","content":"{}"}`),
	))
	f.p.Reply(modeltest.Text("done"))
	if _, err := a.Send(t.Context(), "take over"); err != nil {
		t.Fatal(err)
	}
	results := toolResults(t, f.p, 1)
	if len(results) != 7 {
		t.Fatalf("%d tool results, want 7", len(results))
	}
	for _, b := range results {
		if !b.IsError {
			t.Errorf("tool call %s succeeded: %s", b.ID, b.Content)
		}
		if b.ID != "6" && b.ID != "7" && !strings.Contains(b.Content, "Protected path") {
			t.Errorf("tool call %s: %s, want a protected path error", b.ID, b.Content)
		}
	}
	for rel, content := range protected {
		if b, err := os.ReadFile(filepath.Join(f.workdir, rel)); err != nil || string(b) != content {
			t.Errorf("%s = %q, %v; want it unchanged", rel, b, err)
		}
	}
	for _, rel := range []string{".acme/mcps.json", ".acme/agents"} {
		if _, err := os.Stat(filepath.Join(f.workdir, rel)); err == nil {
			t.Errorf("%s was created", rel)
		}
	}
}

func TestAgentFileToolsOptions(t *testing.T) {
	f := newFixture(t)
	extra := t.TempDir()
	writeFile(t, filepath.Join(extra, "ref.txt"), "reference")
	writeFile(t, filepath.Join(f.workdir, "big.txt"), strings.Repeat("x", 100))
	writeFile(t, filepath.Join(f.workdir, "locked.md"), "locked")
	opts := f.options(nil)
	opts.FileTools.ReadRoots = []string{extra}
	opts.FileTools.MaxFileBytes = 50
	opts.FileTools.Protected = []string{filepath.Join(f.workdir, "locked.md")}
	a := f.agent(t, opts)
	f.p.Reply(modeltest.ToolCalls(
		call("1", "read_file", `{"path":"`+filepath.Join(extra, "ref.txt")+`"}`),
		call("2", "read_file", `{"path":"big.txt"}`),
		call("3", "write_file", `{"path":"locked.md","content":"x"}`),
		call("4", "write_file", `{"path":".acme/permissions.json","content":"{}"}`),
	))
	f.p.Reply(modeltest.Text("done"))
	if _, err := a.Send(t.Context(), "read"); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"1": "reference",
		"2": "Error: File too large",
		"3": "Error: Protected path: locked.md",
		"4": "Error: Protected path: .acme/permissions.json",
	}
	results := toolResults(t, f.p, 1)
	if len(results) != len(want) {
		t.Fatalf("%d tool results, want %d", len(results), len(want))
	}
	for _, b := range results {
		if !strings.HasPrefix(b.Content, want[b.ID]) {
			t.Errorf("tool call %s: %q, want it to start %q", b.ID, b.Content, want[b.ID])
		}
	}
}
