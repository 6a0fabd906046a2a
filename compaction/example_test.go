package compaction_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/spill"
)

// A custom pass that drops reminder messages but the last. It returns its
// input when there is nothing to drop, and builds a new slice otherwise.
func Example_customPass() {
	dedupe := compaction.PassFunc("dedupe-reminders", func(_ context.Context, msgs []model.Message) ([]model.Message, error) {
		last := -1
		for i, m := range msgs {
			if strings.HasPrefix(m.Text, "<reminder>") {
				last = i
			}
		}
		var out []model.Message
		for i, m := range msgs {
			if strings.HasPrefix(m.Text, "<reminder>") && i != last {
				if out == nil {
					out = append([]model.Message{}, msgs[:i]...)
				}
				continue
			}
			if out != nil {
				out = append(out, m)
			}
		}
		if out == nil {
			return msgs, nil
		}
		return out, nil
	})

	msgs := []model.Message{
		model.UserText("<reminder> tasks: none"),
		model.UserText("Fix the build."),
		model.AssistantText("Done."),
		model.UserText("<reminder> tasks: 1 open"),
	}
	out, err := compaction.Run(context.Background(), msgs, dedupe)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(msgs), "→", len(out), "changed:", compaction.Changed(msgs, out))
	for _, m := range out {
		fmt.Println(m.Text)
	}
	// Output:
	// 4 → 3 changed: true
	// Fix the build.
	// Done.
	// <reminder> tasks: 1 open
}

// Run feeds each pass's output to the next: here the default pipeline
// spills a large tool result and micro omits the older bodies.
func ExampleRun() {
	var msgs []model.Message
	for i, body := range []string{strings.Repeat("log line\n", 25_000), "ok", "ok", "ok", "ok"} {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs,
			model.UserText("step"),
			model.AssistantBlocks(model.ToolCallBlock(id, "bash", nil)),
			model.UserBlocks(model.ToolResultBlock(id, body, false)),
		)
	}
	fmt.Println("before:", compaction.EstimateTokens(msgs), "tokens")

	out, err := compaction.Run(context.Background(), msgs, compaction.Default(spill.NewMemoryStore())...)
	if err != nil {
		panic(err)
	}
	fmt.Println("after:", compaction.EstimateTokens(out), "tokens")
	for _, m := range out {
		if m.Blocks != nil && m.Blocks[0].Type == model.BlockToolResult {
			fmt.Printf("%.39s\n", m.Blocks[0].Content)
		}
	}
	// Output:
	// before: 56260 tokens
	// after: 52 tokens
	// [spilled:69a4d197de45c8d2] 225000 bytes
	// [tool result omitted to save context]
	// ok
	// ok
	// ok
}
