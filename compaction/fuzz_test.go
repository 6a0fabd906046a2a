package compaction_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/spill"
)

// conversation builds a well-formed conversation from data: prompts,
// answers, steered and block messages, and assistant calls each followed
// by a user message answering every call.
func conversation(data []byte) []model.Message {
	var msgs []model.Message
	next := 0
	id := 0
	for i := 0; i < len(data); i++ {
		op, arg := data[i]%6, 0
		if i+1 < len(data) {
			i++
			arg = int(data[i])
		}
		text := strings.Repeat("w", 1+arg*arg%3000)
		switch op {
		case 0, 1:
			msgs = append(msgs, u(text))
		case 2:
			msgs = append(msgs, a(text))
		case 3:
			msgs = append(msgs, model.UserBlocks(model.TextBlock(text)))
		default:
			n := 1 + arg%3
			var calls, results []model.Block
			for k := range n {
				id++
				cid := "c" + itoa(id)
				calls = append(calls, model.ToolCallBlock(cid, "bash", nil))
				results = append(results, model.ToolResultBlock(cid, strings.Repeat("r", 1+(arg+k*next)%9000), k%2 == 1))
			}
			next++
			msgs = append(msgs, model.AssistantBlocks(calls...), model.UserBlocks(results...))
		}
	}
	return msgs
}

// checkConversation fails t unless every message has content and every
// tool call is answered, in the message right after it, by results of the
// same ids, and every result answers a call of the message before it.
func checkConversation(t *testing.T, msgs []model.Message) {
	t.Helper()
	ids := func(m model.Message, typ model.BlockType) []string {
		var out []string
		for _, b := range m.Blocks {
			if b.Type == typ {
				out = append(out, b.ID)
			}
		}
		return out
	}
	for i, m := range msgs {
		if (m.Blocks == nil && m.Text == "") || (m.Blocks != nil && len(m.Blocks) == 0) {
			t.Fatalf("message %d is empty", i)
		}
		results := ids(m, model.BlockToolResult)
		if len(results) > 0 && (i == 0 || !reflect.DeepEqual(ids(msgs[i-1], model.BlockToolCall), results)) {
			t.Fatalf("the results of message %d (%v) do not follow their calls", i, results)
		}
		if calls := ids(m, model.BlockToolCall); len(calls) > 0 && (i+1 == len(msgs) || !reflect.DeepEqual(ids(msgs[i+1], model.BlockToolResult), calls)) {
			t.Fatalf("the calls of message %d (%v) are not followed by their results", i, calls)
		}
	}
}

func FuzzPipeline(f *testing.F) {
	f.Add([]byte{0, 10, 4, 200, 2, 5, 0, 3, 5, 9, 1, 250})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > 400 {
			return
		}
		msgs := conversation(data[1:])
		checkConversation(t, msgs)
		summarizer := modeltest.NewFunc(func(context.Context, model.Request) ([]model.Chunk, error) {
			return modeltest.Text("summary").Chunks(), nil
		})
		tokenBudget, err := compaction.TokenBudget(1 + int(data[0])*40)
		if err != nil {
			t.Fatal(err)
		}
		all := []compaction.Pass{
			compaction.ToolResultBudget(spill.NewMemoryStore(), compaction.ToolResultBudgetOptions{Budget: 1 + int(data[0])*100}),
			compaction.Snip(compaction.SnipOptions{MaxMessages: 1 + int(data[0]%8), TailKeep: 1 + int(data[0]%5)}),
			compaction.Micro(compaction.MicroOptions{KeepRecent: int(data[0]%4) - 1}),
			compaction.Summary(summarizer, compaction.SummaryOptions{Threshold: 1 + int(data[0])*20, KeepRecentTurns: 1 + int(data[0]%3), Base: []compaction.Pass{}}),
			tokenBudget,
			compaction.Reactive(compaction.ReactiveOptions{MaxTurns: 1 + int(data[0]%3), MaxTokens: 1 + int(data[0])*30}),
		}
		// Each pass alone, then the pipeline of those data[0] selects.
		var passes []compaction.Pass
		for k, p := range all {
			out, _ := apply(t, p, msgs)
			checkConversation(t, out)
			if data[0]&(1<<k) != 0 {
				passes = append(passes, p)
			}
		}
		before := deepCopy(msgs)
		out, err := compaction.Run(context.Background(), msgs, passes...)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(before, msgs) {
			t.Fatal("the pipeline modified its input")
		}
		checkConversation(t, out)
	})
}
