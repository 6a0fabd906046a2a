package subagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/subagent"
)

// Definitions come from <home>/agents and <workdir>/.<namespace>/agents,
// after the built-in general-purpose agent.
func ExampleLoad() {
	root, _ := os.MkdirTemp("", "subagent-example")
	defer os.RemoveAll(root)
	paths, _ := storage.ResolveProjectPaths(storage.PathsOptions{
		Workdir: filepath.Join(root, "repo"),
		Storage: storage.Options{Namespace: "acme", Home: filepath.Join(root, "home")},
	})
	os.MkdirAll(paths.ProjectAgentsDir, 0o700)
	os.WriteFile(filepath.Join(paths.ProjectAgentsDir, "reviewer.md"), []byte(
		"---\ndescription: Reviews a change for bugs.\ntools: read_file, grep\n---\nReview the change.\n"), 0o600)

	defs, err := subagent.Load(context.Background(), subagent.LoadOptions{Paths: paths})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range defs {
		fmt.Println(d.Name, d.Source, d.Tools)
	}
	fmt.Print(subagent.Describe(defs[1:]))
	// Output:
	// general-purpose builtin []
	// reviewer project [read_file grep]
	//   - reviewer: Reviews a change for bugs.
}

// The Agent tool returns at once; the group's results arrive later through
// Deliver, in the order of the tasks.
func ExampleTool() {
	pool, _ := subagent.NewPool(0)
	defer pool.Close()
	delivered := make(chan subagent.GroupCompletion, 1)
	agent := subagent.Tool(subagent.ToolOptions{
		Definitions: []subagent.Definition{subagent.GeneralPurpose()},
		Pool:        pool,
		Workdir:     "/repo",
		Run: func(ctx context.Context, req subagent.ChildRequest) (subagent.ChildResult, error) {
			// A host builds and runs a child agent here.
			return subagent.ChildResult{Text: "done: " + req.Prompt, StopReason: subagent.StopReasonStop}, nil
		},
		Deliver: func(ctx context.Context, sessionID string, c subagent.GroupCompletion) { delivered <- c },
	})
	input, _ := json.Marshal(map[string]any{"tasks": []map[string]string{
		{"display_name": "Count files", "subagent_type": "general-purpose", "prompt": "count the Go files"},
	}})
	res, _ := agent.Call(context.Background(), nil, input)
	ids := regexp.MustCompile(`bg_g\w+|agent-general-purpose-[0-9a-f]{8}`)
	fmt.Println(ids.ReplaceAllString(res.Content, "<id>"))
	c := <-delivered
	fmt.Println(ids.ReplaceAllString(c.Message, "<id>"))
	// Output:
	// [background:<id>] accepted group with 1 subagent; results will arrive together.
	// <background-task-completed id="<id>" label="Subagent group: Count files">
	// ## Count files (agentId: <id>; status: completed)
	// done: count the Go files
	// </background-task-completed>
}
