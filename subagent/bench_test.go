package subagent_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/lite-agent/lite-agent-go/subagent"
	"github.com/lite-agent/lite-agent-go/tool"
)

// BenchmarkParse measures parsing a typical definition file.
func BenchmarkParse(b *testing.B) {
	data := []byte("---\nname: reviewer\ndescription: Reviews a change for bugs and missing tests.\ntools: [read_file, grep, bash]\nmodel: medium\n---\nReview the change you are given.\n")
	for b.Loop() {
		if _, ok, err := subagent.Parse("/a/reviewer.md", data); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkGroup measures the dispatcher's own cost per group of four
// children whose Run returns at once: validation, ids, events, the pool
// and the completion.
func BenchmarkGroup(b *testing.B) {
	pool, _ := subagent.NewPool(0)
	defer pool.Close()
	done := make(chan struct{})
	agent := subagent.Tool(subagent.ToolOptions{
		Definitions: []subagent.Definition{subagent.GeneralPurpose()},
		Pool:        pool,
		Run: func(ctx context.Context, req subagent.ChildRequest) (subagent.ChildResult, error) {
			return subagent.ChildResult{Text: "ok", StopReason: subagent.StopReasonStop}, nil
		},
		Deliver: func(context.Context, string, subagent.GroupCompletion) { done <- struct{}{} },
		Emit:    func(context.Context, *tool.Call, subagent.Event) {},
	})
	task := map[string]string{"display_name": "x", "subagent_type": "general-purpose", "prompt": "p"}
	input, _ := json.Marshal(map[string]any{"tasks": []any{task, task, task, task}})
	for b.Loop() {
		if res, err := agent.Call(b.Context(), nil, input); err != nil || res.IsError {
			b.Fatal(res, err)
		}
		<-done
	}
}
