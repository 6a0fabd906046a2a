package compaction_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
)

// Builders of conversations.
func u(s string) model.Message { return model.UserText(s) }
func a(s string) model.Message { return model.AssistantText(s) }
func call(ids ...string) model.Message {
	var blocks []model.Block
	for _, id := range ids {
		blocks = append(blocks, model.ToolCallBlock(id, "read_file", json.RawMessage(`{"path":"`+id+`"}`)))
	}
	return model.AssistantBlocks(blocks...)
}
func res(id, content string) model.Message {
	return model.UserBlocks(model.ToolResultBlock(id, content, false))
}

// concat joins message lists.
func concat(parts ...[]model.Message) []model.Message {
	var out []model.Message
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// textTurns returns n turns of a user prompt and an answer.
func textTurns(n int, prefix string) []model.Message {
	var out []model.Message
	for i := range n {
		out = append(out, u(prefix+"q"+itoa(i)), a(prefix+"a"+itoa(i)))
	}
	return out
}

// toolTurn returns a turn of a prompt, a call, its result and an answer.
func toolTurn(id, body string) []model.Message {
	return []model.Message{u("do " + id), call(id), res(id, body), a("done " + id)}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// deepCopy copies msgs, blocks included.
func deepCopy(msgs []model.Message) []model.Message {
	if msgs == nil {
		return nil
	}
	out := make([]model.Message, len(msgs))
	for i, m := range msgs {
		out[i] = m
		if m.Blocks != nil {
			out[i].Blocks = append([]model.Block{}, m.Blocks...)
		}
	}
	return out
}

// apply runs p on msgs and checks the contract every pass keeps: the input
// is not modified, an unchanged result is the input slice itself, and a
// changed one is a different slice. It reports whether p changed msgs.
func apply(t *testing.T, p compaction.Pass, msgs []model.Message) ([]model.Message, bool) {
	t.Helper()
	before := deepCopy(msgs)
	out, err := p.Apply(context.Background(), msgs)
	if err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	if !reflect.DeepEqual(before, msgs) {
		t.Fatalf("%s modified its input", p.Name())
	}
	changed := compaction.Changed(msgs, out)
	if !changed && len(msgs) > 0 && &out[0] != &msgs[0] {
		t.Fatalf("%s: an unchanged result must be the input slice", p.Name())
	}
	if changed && reflect.DeepEqual(out, msgs) {
		t.Fatalf("%s returned a new slice equal to its input", p.Name())
	}
	return out, changed
}

// texts renders msgs compactly for comparison: "u:text", "a:text",
// "call:id,id", "res:id=content".
func texts(msgs []model.Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Blocks == nil {
			out = append(out, string(m.Role)[:1]+":"+m.Text)
			continue
		}
		var parts []string
		for _, b := range m.Blocks {
			switch b.Type {
			case model.BlockToolCall:
				parts = append(parts, "call:"+b.ID)
			case model.BlockToolResult:
				parts = append(parts, "res:"+b.ID+"="+b.Content)
			default:
				parts = append(parts, string(b.Type)+":"+b.Text)
			}
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}
