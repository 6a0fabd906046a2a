package compaction_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
)

func TestTurns(t *testing.T) {
	tests := []struct {
		name string
		msgs []model.Message
		want []int // turn lengths
	}{
		{"empty", nil, nil},
		{"one prompt", []model.Message{u("hi")}, []int{1}},
		{"prompt and answer twice", textTurns(2, ""), []int{2, 2}},
		{"tool pair stays in its turn", concat(toolTurn("c1", "x"), textTurns(1, "")), []int{4, 2}},
		{"leading assistant message is a turn", []model.Message{a("hello"), u("q"), a("r")}, []int{1, 2}},
		{"user blocks do not start a turn", []model.Message{u("q"), model.UserBlocks(model.TextBlock("image")), a("r")}, []int{3}},
		{"steered prompt after results starts one", []model.Message{u("q"), call("c"), res("c", "x"), u("also"), a("r")}, []int{3, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			for _, turn := range compaction.Turns(tt.msgs) {
				got = append(got, len(turn))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("turn lengths = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		name string
		msgs []model.Message
		want int
	}{
		{"none", nil, 0},
		{"rounds up", []model.Message{u("abcde")}, 2},
		{"exact", []model.Message{u("abcd")}, 1},
		{"total, not per message", []model.Message{u("ab"), a("ab")}, 1},
		{"utf-16 units", []model.Message{u("😀😀")}, 1}, // 4 units
		{"blocks", []model.Message{
			model.AssistantBlocks(model.TextBlock("abcd"), model.ToolCallBlock("c", "bash", json.RawMessage(`{"a":1}`))), // 4 + 7
			model.UserBlocks(model.ToolResultBlock("c", "12345", false)),                                                 // 5
			model.UserBlocks(model.CompactionBlock("xyz")),                                                               // 3
		}, 5},
		{"nil input counts as {}", []model.Message{model.AssistantBlocks(model.ToolCallBlock("c", "bash", nil))}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compaction.EstimateTokens(tt.msgs); got != tt.want {
				t.Errorf("EstimateTokens = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestSnip(t *testing.T) {
	thirtyTurns := textTurns(30, "") // 60 messages
	var fifteenToolTurns []model.Message
	for i := range 15 {
		fifteenToolTurns = append(fifteenToolTurns, toolTurn("c"+itoa(i), "body")...) // 60 messages
	}
	var oneLongTurn []model.Message
	oneLongTurn = append(oneLongTurn, u("start"))
	for i := range 30 {
		oneLongTurn = append(oneLongTurn, call("c"+itoa(i)), res("c"+itoa(i), "x"))
	}
	tests := []struct {
		name        string
		opts        compaction.SnipOptions
		msgs        []model.Message
		wantChanged bool
		want        []model.Message
	}{
		{"50 messages stay", compaction.SnipOptions{}, textTurns(25, ""), false, nil},
		{"60 messages: first turn, marker, last 20", compaction.SnipOptions{}, thirtyTurns, true,
			concat(thirtyTurns[:2], []model.Message{u("[19 earlier turn(s) omitted to save context]")}, thirtyTurns[40:])},
		{"tool turns are kept whole", compaction.SnipOptions{}, fifteenToolTurns, true,
			concat(fifteenToolTurns[:4], []model.Message{u("[9 earlier turn(s) omitted to save context]")}, fifteenToolTurns[40:])},
		{"tail rounds up to whole turns", compaction.SnipOptions{TailKeep: 19}, fifteenToolTurns, true,
			concat(fifteenToolTurns[:4], []model.Message{u("[9 earlier turn(s) omitted to save context]")}, fifteenToolTurns[40:])},
		{"one long turn cannot be snipped", compaction.SnipOptions{}, oneLongTurn, false, nil},
		{"no middle turns", compaction.SnipOptions{MaxMessages: 4, HeadTurns: 1, TailKeep: 4}, textTurns(3, ""), false, nil},
		{"no head turns", compaction.SnipOptions{MaxMessages: 4, HeadTurns: -1, TailKeep: 1}, textTurns(3, ""), true,
			concat([]model.Message{u("[2 earlier turn(s) omitted to save context]")}, textTurns(3, "")[4:])},
		{"two head turns", compaction.SnipOptions{MaxMessages: 4, HeadTurns: 2, TailKeep: 2}, textTurns(5, ""), true,
			concat(textTurns(5, "")[:4], []model.Message{u("[2 earlier turn(s) omitted to save context]")}, textTurns(5, "")[8:])},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, changed := apply(t, compaction.Snip(tt.opts), tt.msgs)
			if changed != tt.wantChanged {
				t.Fatalf("changed = %v, want %v", changed, tt.wantChanged)
			}
			if changed && !reflect.DeepEqual(out, tt.want) {
				t.Errorf("got\n%q\nwant\n%q", texts(out), texts(tt.want))
			}
		})
	}
}

func TestMicro(t *testing.T) {
	spilled := "[spilled:0123456789abcdef] 9 bytes moved off-context — call read_spilled({ ref: \"0123456789abcdef\" }) to view the full content."
	archived := "[tool result archived: abc] preview"
	five := concat(toolTurn("c1", "one"), toolTurn("c2", "two"), toolTurn("c3", "three"), toolTurn("c4", "four"), toolTurn("c5", "five"))
	omit := func(msgs []model.Message, ids ...string) []model.Message {
		out := deepCopy(msgs)
		for i := range out {
			for j := range out[i].Blocks {
				for _, id := range ids {
					if out[i].Blocks[j].Type == model.BlockToolResult && out[i].Blocks[j].ID == id {
						out[i].Blocks[j].Content = "[tool result omitted to save context]"
					}
				}
			}
		}
		return out
	}
	parallel := []model.Message{u("go"), call("p1", "p2", "p3", "p4"), model.UserBlocks(
		model.ToolResultBlock("p1", "r1", false), model.ToolResultBlock("p2", "r2", true),
		model.ToolResultBlock("p3", "r3", false), model.ToolResultBlock("p4", "r4", false)), a("ok")}
	tests := []struct {
		name        string
		opts        compaction.MicroOptions
		msgs        []model.Message
		wantChanged bool
		want        []model.Message
	}{
		{"three results stay", compaction.MicroOptions{}, five[8:], false, nil},
		{"all but the newest three", compaction.MicroOptions{}, five, true, omit(five, "c1", "c2")},
		{"blocks of one message", compaction.MicroOptions{}, parallel, true, omit(parallel, "p1")},
		{"spill and archive markers untouched", compaction.MicroOptions{},
			concat(toolTurn("s", spilled), toolTurn("r", archived), five[8:]), false, nil},
		{"omitted bodies stay as they are", compaction.MicroOptions{}, omit(five, "c1", "c2"), false, nil},
		{"keep one", compaction.MicroOptions{KeepRecent: 1}, five, true, omit(five, "c1", "c2", "c3", "c4")},
		{"keep none", compaction.MicroOptions{KeepRecent: -1}, five[:8], true, omit(five[:8], "c1", "c2")},
		{"no results", compaction.MicroOptions{KeepRecent: -1}, textTurns(3, ""), false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, changed := apply(t, compaction.Micro(tt.opts), tt.msgs)
			if changed != tt.wantChanged {
				t.Fatalf("changed = %v, want %v", changed, tt.wantChanged)
			}
			if changed && !reflect.DeepEqual(out, tt.want) {
				t.Errorf("got\n%q\nwant\n%q", texts(out), texts(tt.want))
			}
			if changed {
				// Unchanged messages are shared, not copied.
				for i := range out {
					if reflect.DeepEqual(out[i], tt.msgs[i]) && len(out[i].Blocks) > 0 && &out[i].Blocks[0] != &tt.msgs[i].Blocks[0] {
						t.Errorf("message %d was copied though unchanged", i)
					}
				}
			}
		})
	}
}
