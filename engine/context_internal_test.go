package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

func TestShrinkKeepsHeadAndTailWithinMax(t *testing.T) {
	tests := []struct {
		name string
		s    string
		max  int
	}{
		{"short", "hello", 768},
		{"exact", strings.Repeat("a", 256), 256},
		{"ascii", strings.Repeat("0123456789", 100), 256},
		{"wide", strings.Repeat("界😀", 400), 512},
		{"tiny max", strings.Repeat("b", 100), 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shrink(tt.s, tt.max)
			n := utf16text.Len(tt.s)
			if n <= tt.max {
				if got != tt.s {
					t.Errorf("a string within max changed: %q", got)
				}
				return
			}
			if l := utf16text.Len(got); l > tt.max {
				t.Errorf("%d units, max %d", l, tt.max)
			}
			head, rest, ok := strings.Cut(got, "\n[… ")
			if !ok {
				if !strings.HasPrefix(tt.s, got) {
					t.Errorf("no marker and not a prefix: %q", got)
				}
				return
			}
			var omitted int
			var tail string
			if _, err := fmt.Sscanf(rest, "%d chars omitted …]", &omitted); err != nil {
				t.Fatalf("marker %q: %v", rest, err)
			}
			tail = rest[strings.Index(rest, "…]\n")+len("…]\n"):]
			if !strings.HasPrefix(tt.s, head) || !strings.HasSuffix(tt.s, tail) {
				t.Errorf("head %q or tail %q not from the string", head, tail)
			}
			if utf16text.Len(head)+omitted+utf16text.Len(tail) != n {
				t.Errorf("head %d + omitted %d + tail %d != %d", utf16text.Len(head), omitted, utf16text.Len(tail), n)
			}
			if utf16text.Len(head) < utf16text.Len(tail) {
				t.Errorf("head %d shorter than tail %d", utf16text.Len(head), utf16text.Len(tail))
			}
		})
	}
}

func TestMentionsFindsWholeWords(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"You must keep the API.", true},
		{"You MUST NOT change it", true},
		{"Constraints: none", true},
		{"the requirements are listed", true},
		{"Acceptance criteria: green tests", true},
		{"mustard on the side", false},
		{"a requirementless plan", false},
		{"must_have is a variable", false},
		{"x-must-y", true},
		{"必须使用 Go", true},
		{"nothing here", false},
		{"musts", true},
	}
	for _, tt := range tests {
		if got := mentions(tt.text, constraintWords, constraintHan); got != tt.want {
			t.Errorf("mentions(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
	if !mentions("Our objectives:", goalWords, goalHan) || mentions("goalkeeper", goalWords, goalHan) {
		t.Error("goal words")
	}
}

// fuzzLog builds a session log from script: each byte starts a user prompt,
// an assistant text, or an assistant message with one to three tool calls
// followed by their results, with sizes taken from the following byte.
func fuzzLog(script []byte) []session.StoredEvent {
	var evs []session.Event
	next := func(i *int) int {
		*i++
		if *i < len(script) {
			return int(script[*i])
		}
		return 7
	}
	calls := 0
	for i := 0; i < len(script); i++ {
		switch script[i] % 4 {
		case 0:
			evs = append(evs, session.UserEvent{Message: model.UserText("prompt " + strings.Repeat("p", next(&i)*8))})
		case 1:
			evs = append(evs, session.AssistantEvent{Message: model.AssistantText("answer " + strings.Repeat("a", next(&i)*16))})
		case 2, 3:
			n := 1 + next(&i)%3
			var blocks []model.Block
			var results []session.Event
			for range n {
				calls++
				id := fmt.Sprintf("c%d", calls)
				size := next(&i) * 24
				in, _ := json.Marshal(map[string]string{"text": strings.Repeat("i", size/2)})
				blocks = append(blocks, model.ToolCallBlock(id, "echo", in))
				results = append(results, session.ToolResultEvent{Result: model.ToolResultBlock(id, "result "+strings.Repeat("r", size), false), Turn: calls})
			}
			evs = append(evs, session.AssistantEvent{Message: model.AssistantBlocks(blocks...)})
			evs = append(evs, results...)
		}
	}
	out := make([]session.StoredEvent, len(evs))
	for i, ev := range evs {
		out[i] = session.StoredEvent{Seq: int64(i + 1), SessionID: "s", ParentSeq: int64(i), Event: ev}
	}
	return out
}

// FuzzContextLevels checks what the context engine sends for any log and
// window: every tool result follows its call in the message before, every
// call is answered in the message after, tool inputs stay JSON objects, no
// message is empty, and the cached log is left as it was.
func FuzzContextLevels(f *testing.F) {
	f.Add([]byte{0, 40, 2, 2, 90, 90, 90, 1, 30, 0, 50, 3, 0, 200}, uint16(300), false)
	f.Add([]byte{0, 255, 2, 1, 255, 255, 0, 255}, uint16(100), true)
	f.Add([]byte{2, 0, 10, 0, 9}, uint16(5000), false)
	f.Fuzz(func(t *testing.T, script []byte, window uint16, force bool) {
		if len(script) > 200 {
			return
		}
		events := fuzzLog(script)
		before, err := json.Marshal(events)
		if err != nil {
			t.Fatal(err)
		}
		e, err := New(Options{Provider: nopProvider{}, Checkpointer: session.NewMemoryCheckpointer(), Tools: nil,
			Context: &ContextOptions{Window: int(window) + 1}})
		if err != nil {
			t.Fatal(err)
		}
		r := &run{e: e, id: "s", st: &sessionState{events: events}}
		msgs, _, err := r.messages(t.Context(), "reminder text", force)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range msgs {
			if m.Text == "" && len(m.Blocks) == 0 {
				t.Errorf("message %d is empty", i)
			}
			for _, b := range m.Blocks {
				switch b.Type {
				case model.BlockToolResult:
					if i == 0 || !hasCall(msgs[i-1], b.ID) {
						t.Errorf("message %d: result %s does not follow its call", i, b.ID)
					}
				case model.BlockToolCall:
					var obj map[string]any
					if err := json.Unmarshal(b.Input, &obj); err != nil {
						t.Errorf("message %d: call %s input %q: %v", i, b.ID, b.Input, err)
					}
					if i+1 >= len(msgs) || !hasResult(msgs[i+1], b.ID) {
						t.Errorf("message %d: call %s is not answered in the next message", i, b.ID)
					}
				}
			}
		}
		after, _ := json.Marshal(events)
		if string(before) != string(after) {
			t.Error("the cached log changed")
		}
	})
}

func hasCall(m model.Message, id string) bool {
	for _, b := range m.Blocks {
		if b.Type == model.BlockToolCall && b.ID == id {
			return true
		}
	}
	return false
}

func hasResult(m model.Message, id string) bool {
	for _, b := range m.Blocks {
		if b.Type == model.BlockToolResult && b.ID == id {
			return true
		}
	}
	return false
}

type nopProvider struct{}

func (nopProvider) Stream(context.Context, model.Request) iter.Seq2[model.Chunk, error] {
	return func(func(model.Chunk, error) bool) {}
}
