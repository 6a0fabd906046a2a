package hook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Hooks files are found through the layout of a namespace: <home>/hooks.json
// and <workdir>/.<namespace>/hooks.json.
func ExampleLoadFiles() {
	workdir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(workdir)
	os.MkdirAll(filepath.Join(workdir, ".acme"), 0o700)
	os.WriteFile(filepath.Join(workdir, ".acme", "hooks.json"), []byte(`{
  "version": 1,
  "hooks": {
    "tool:end": [{"command": "./scripts/audit.sh", "match": "{write_file,edit_file}", "timeoutMs": 5000}]
  }
}`), 0o600)

	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: workdir,
		Storage: storage.Options{Namespace: "acme", Home: filepath.Join(workdir, "home")},
	})
	if err != nil {
		panic(err)
	}
	cfg, err := hook.LoadFiles(context.Background(), paths)
	if err != nil {
		panic(err)
	}
	for _, h := range cfg.Hooks {
		fmt.Println(h.Layer, h.Event, h.Command, h.Match, h.Timeout)
	}
	// Output:
	// project tool:end ./scripts/audit.sh {write_file,edit_file} 5s
}

// A command hook runs only when the host's permission check allows it, and
// a failure is a diagnostic, not an error of the run.
func ExampleRunner_Fire() {
	runner, err := hook.New(hook.Config{}, hook.Options{
		Workdir: os.TempDir(),
		Permit: func(ctx context.Context, req hook.PermitRequest) (bool, error) {
			fmt.Printf("permit %s %s\n", hook.ToolName, req.Input)
			return true, nil
		},
		Programmatic: []hook.Hook{
			{Event: hook.EventToolStart, Match: "bash", Command: "read -r payload; exit 7"},
			{Event: hook.EventToolStart, Func: func(ctx context.Context, p hook.Payload) error {
				fmt.Println("go hook sees", p.(hook.ToolStart).Call.Name)
				return nil
			}},
		},
	})
	if err != nil {
		panic(err)
	}
	out := runner.Fire(context.Background(), hook.ToolStart{
		Identity: hook.Identity{RunID: "r1", SessionID: "s1", Source: hook.SourceUser},
		Call:     hook.ToolCall{ID: "c1", Name: "bash", Input: json.RawMessage(`{"command":"make"}`)},
	})
	for _, d := range out.Diagnostics {
		fmt.Println(d.Code, d.Message)
	}
	// Output:
	// permit hook {"command":"read -r payload; exit 7","event":"tool:start","source":"host"}
	// go hook sees bash
	// hook_failed tool:start (programmatic:1): command exited with code 7
}
