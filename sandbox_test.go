package liteagent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/sandbox/sandboxtest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Options.Sandbox contains the parent's bash, a subagent's bash and the
// command hooks alike.
func TestOptionsSandboxContainsBashSubagentsAndHooks(t *testing.T) {
	f := newFixture(t)
	outside := t.TempDir()
	perms := filepath.Join(f.workdir, ".acme", "permissions.json")
	var childCalled atomic.Bool
	writeFile(t, perms, `{"version":1,"rules":[]}`)
	f.p = modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		delivered := false
		for _, m := range req.Messages {
			delivered = delivered || strings.Contains(m.PlainText(), "<background-task-completed")
		}
		child := strings.HasPrefix(req.System, `You are the "general-purpose" subagent`)
		switch {
		case child && childCalled.CompareAndSwap(false, true):
			return modeltest.ToolCalls(call("c1", "bash", `{"command":"echo child > `+outside+`/child; echo child > child.txt"}`)).Chunks(), nil
		case child:
			return modeltest.Text("child done").Chunks(), nil
		case delivered:
			return modeltest.Text("all done").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(call("b1", "bash", `{"command":"echo '{}' > `+perms+`; echo parent > `+outside+`/parent; echo parent > parent.txt"}`)).Chunks(), nil
		case len(req.Messages) == 3:
			return modeltest.ToolCalls(call("a1", "Agent", `{"tasks":[{"display_name":"Child","subagent_type":"general-purpose","prompt":"write"}]}`)).Chunks(), nil
		}
		return modeltest.Text("dispatched").Chunks(), nil
	})
	opts := f.options(nil)
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: opts.Workdir, Storage: opts.Storage})
	if err != nil {
		t.Fatal(err)
	}
	opts.Sandbox = sandboxtest.Bubblewrap(t, sandbox.ProjectOptions(paths, os.Getenv("HOME")))
	opts.Hooks = []hook.Hook{
		{Event: hook.EventRunStart, Command: "echo hook > " + outside + "/hook"},
		{Event: hook.EventRunStart, Command: "echo hook > hook.txt"},
	}
	a := f.agent(t, opts)
	if _, err := a.Send(t.Context(), "write everywhere"); err != nil {
		t.Fatal(err)
	}
	if err := a.AwaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"parent", "child", "hook"} {
		if _, err := os.Stat(filepath.Join(outside, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the %s's command wrote outside the workdir: %v", name, err)
		}
		got, err := os.ReadFile(filepath.Join(f.workdir, name+".txt"))
		if err != nil || string(got) != name+"\n" {
			t.Errorf("the %s's command did not write the workdir: %q, %v", name, got, err)
		}
	}
	if got, _ := os.ReadFile(perms); string(got) != `{"version":1,"rules":[]}` {
		t.Errorf("permissions.json changed: %q", got)
	}
}
