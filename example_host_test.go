package liteagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Permission files for an agent: the policy is made without a Workdir or
// Storage, and New binds it to the agent's, so that it reads
// <home>/permissions.json and <workdir>/.acme/permissions.json. The user
// file here allows read_file, and the default denies the rest.
func ExamplePermissionFilePolicy() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "acme-home")
	defer os.RemoveAll(home)
	work, _ := os.MkdirTemp("", "acme-work")
	defer os.RemoveAll(work)
	_ = os.WriteFile(filepath.Join(home, "permissions.json"), []byte(`{"version":1,"rules":[{"tool":"read_file","effect":"allow"}]}`), 0o600)
	_ = os.WriteFile(filepath.Join(work, "notes.txt"), []byte("buy milk\n"), 0o600)

	perm, err := liteagent.PermissionFilePolicy(permission.FileOptions{Default: permission.Deny})
	if err != nil {
		log.Fatal(err)
	}
	provider := modeltest.New()
	provider.Reply(
		modeltest.ToolCalls(
			model.ToolCallBlock("r", "read_file", json.RawMessage(`{"path":"notes.txt"}`)),
			model.ToolCallBlock("b", "bash", json.RawMessage(`{"command":"rm notes.txt"}`)),
		),
		modeltest.Text("Done."),
	)
	agent, err := liteagent.New(ctx, liteagent.Options{
		Model: provider, ModelName: "claude-sonnet-4-5",
		Workdir:    work,
		Storage:    storage.Options{Namespace: "acme", Home: home},
		Permission: perm,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	// The policy now names the agent's files.
	short := strings.NewReplacer(home, "<home>", work, "<workdir>")
	for _, src := range perm.Sources() {
		fmt.Println(src.Layer, filepath.ToSlash(short.Replace(src.Path)))
	}
	// The two calls run at once, so their decisions come in either
	// order: they are printed in the order of the calls.
	decisions := map[string]string{}
	for ev, err := range agent.Run(ctx, "Read my notes, then delete them.") {
		if err != nil {
			log.Fatal(err)
		}
		if ev.Type == liteagent.EventPermission {
			decisions[ev.Tool.Call.Name] = fmt.Sprint(ev.Permission.Decision)
		}
	}
	for _, name := range []string{"read_file", "bash"} {
		fmt.Println(name, decisions[name])
	}
	// Output:
	// user <home>/permissions.json
	// project <workdir>/.acme/permissions.json
	// read_file allow
	// bash deny
}

// Hooks from Go: a function registered for tool:end sees every tool call
// the agent makes, with its result, after the call. Go hooks run in the
// host's process and need no permission; command hooks are asked about.
func ExampleOptions_hooks() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "hooks-home")
	defer os.RemoveAll(home)
	provider := modeltest.New()
	provider.Reply(
		modeltest.ToolCalls(model.ToolCallBlock("c1", "glob", json.RawMessage(`{"pattern":"*.nothing"}`))),
		modeltest.Text("Nothing there."),
	)
	agent, err := liteagent.New(ctx, liteagent.Options{
		Model: provider, ModelName: "claude-sonnet-4-5", Workdir: ".",
		Storage: storage.Options{Home: home},
		Hooks: []hook.Hook{{
			Event: hook.EventToolEnd,
			Match: "glob",
			Func: func(ctx context.Context, p hook.Payload) error {
				end := p.(hook.ToolEnd)
				fmt.Println("tool:end", end.Call.Name, end.Status)
				return nil
			},
		}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	res, err := agent.Send(ctx, "Any .nothing files?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text)
	// Output:
	// tool:end glob completed
	// Nothing there.
}

// Subagents: the model dispatches a general-purpose subagent with the
// Agent tool and ends its turn; the subagent's answer comes back to the
// session in an autonomous turn, whose result Query waits for and returns.
// A host using an Agent instead waits with AwaitIdle.
func ExampleQuery_subagents() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "subagents-home")
	defer os.RemoveAll(home)
	provider := modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		var history strings.Builder
		for _, m := range req.Messages {
			history.WriteString(m.PlainText())
		}
		switch {
		case strings.HasPrefix(req.System, `You are the "general-purpose" subagent`):
			return modeltest.Text("There are 3 TODOs.").Chunks(), nil
		case strings.Contains(history.String(), "<background-task-completed"): // the group's result
			return modeltest.Text("The helper found 3 TODOs.").Chunks(), nil
		case len(req.Messages) == 1:
			return modeltest.ToolCalls(model.ToolCallBlock("a1", "Agent", json.RawMessage(
				`{"tasks":[{"display_name":"Counter","subagent_type":"general-purpose","prompt":"Count the TODOs."}]}`))).Chunks(), nil
		}
		return modeltest.Text("A helper is counting.").Chunks(), nil
	})
	res, err := liteagent.Query(ctx, liteagent.QueryOptions{
		Options: liteagent.Options{
			Model: provider, ModelName: "claude-sonnet-4-5", Workdir: ".",
			Storage: storage.Options{Home: home},
		},
		Prompt: "How many TODOs are there?",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text)
	// Output: The helper found 3 TODOs.
}
