package compaction

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/model"
)

// StartsTurn reports whether m starts a turn: it is a user message whose
// content is a string (Blocks is nil), as a prompt or a steered message is.
// Tool results travel in user messages with blocks, so a turn always holds
// a tool call together with its results.
func StartsTurn(m model.Message) bool {
	return m.Role == model.RoleUser && m.Blocks == nil
}

// Turns splits msgs into turns: each turn starts at a message for which
// [StartsTurn] holds, and messages before the first such message form a
// turn of their own. The turns are subslices of msgs, which callers must
// not modify through them. Turns of no messages is nil.
func Turns(msgs []model.Message) [][]model.Message {
	starts := turnStarts(msgs)
	out := make([][]model.Message, len(starts))
	for i, s := range starts {
		out[i] = msgs[s:turnEnd(msgs, starts, i)]
	}
	return out
}

// turnStarts returns the index of the first message of each turn; the first
// is 0 when msgs is not empty.
func turnStarts(msgs []model.Message) []int {
	var starts []int
	for i, m := range msgs {
		if i == 0 || StartsTurn(m) {
			starts = append(starts, i)
		}
	}
	return starts
}

// turnEnd returns the index just past turn i.
func turnEnd(msgs []model.Message, starts []int, i int) int {
	if i+1 < len(starts) {
		return starts[i+1]
	}
	return len(msgs)
}

// EstimateTokens estimates the tokens of msgs as the reference does: a
// quarter of their characters, rounded up, counting the text of messages
// and text blocks, tool results, the JSON input of tool calls and the
// summaries of compaction blocks. Characters are UTF-16 code units, the
// unit of the TypeScript reference's string lengths.
func EstimateTokens(msgs []model.Message) int {
	n := 0
	for i := range msgs {
		n += messageChars(&msgs[i])
	}
	return tokens(n)
}

// tokens converts a character count to the estimated tokens.
func tokens(chars int) int { return (chars + 3) / 4 }

// messageChars returns the characters of m that [EstimateTokens] counts.
func messageChars(m *model.Message) int {
	if m.Blocks == nil {
		return utf16text.Len(m.Text)
	}
	n := 0
	for i := range m.Blocks {
		b := &m.Blocks[i]
		switch b.Type {
		case model.BlockText:
			n += utf16text.Len(b.Text)
		case model.BlockToolResult, model.BlockCompaction:
			n += utf16text.Len(b.Content)
		case model.BlockToolCall:
			if b.Input == nil {
				n += 2 // {}
			} else {
				n += utf16text.Len(string(b.Input))
			}
		}
	}
	return n
}

// charsOf returns the characters [EstimateTokens] counts in msgs.
func charsOf(msgs []model.Message) int {
	n := 0
	for i := range msgs {
		n += messageChars(&msgs[i])
	}
	return n
}

// The markers of what the passes take out of a request.
const (
	// SummaryHeader starts the user message that replaces the turns the
	// summary pass summarized; the summary follows it.
	SummaryHeader = "[Summary of earlier conversation]\n"
	// OmittedToolResult replaces the body of a tool result the micro pass
	// omits.
	OmittedToolResult = "[tool result omitted to save context]"
	// spillPrefix starts every spill marker.
	spillPrefix = "[spilled:"
	// archivedPrefix starts the marker of a tool result the context
	// engine moved to the session's archive.
	archivedPrefix = "[tool result archived:"
)

// SpillMarker returns the text that replaces a tool result body of length
// chars (UTF-16 code units) spilled under ref.
func SpillMarker(ref string, chars int) string {
	return fmt.Sprintf("%s%s] %d bytes moved off-context — call read_spilled({ ref: \"%s\" }) to view the full content.", spillPrefix, ref, chars, ref)
}

// IsSpillMarker reports whether a tool result body is a spill marker.
func IsSpillMarker(s string) bool { return strings.HasPrefix(s, spillPrefix) }

// droppedTurns returns the user message that stands for n dropped turns,
// in the form "[n earlier turn(s) <why>]".
func droppedTurns(n int, why string) model.Message {
	return model.UserText(fmt.Sprintf("[%d earlier turn(s) %s]", n, why))
}

// replace returns a new slice of msgs[:from], then the messages of insert,
// then msgs[to:]. msgs is not modified.
func replace(msgs []model.Message, from, to int, insert ...model.Message) []model.Message {
	out := make([]model.Message, 0, from+len(insert)+len(msgs)-to)
	out = append(out, msgs[:from]...)
	out = append(out, insert...)
	return append(out, msgs[to:]...)
}

// editor changes tool result bodies of a request copy-on-write: the first
// change copies the message slice, and the first change to a message
// copies its blocks, so the input is never modified.
type editor struct {
	in, out []model.Message
	copied  []bool // copied[i]: out[i].Blocks is a copy
}

func newEditor(msgs []model.Message) *editor { return &editor{in: msgs} }

// setContent sets the content of block j of message i.
func (e *editor) setContent(i, j int, content string) {
	if e.out == nil {
		e.out = slices.Clone(e.in)
		e.copied = make([]bool, len(e.in))
	}
	if !e.copied[i] {
		e.out[i].Blocks = slices.Clone(e.in[i].Blocks)
		e.copied[i] = true
	}
	e.out[i].Blocks[j].Content = content
}

// result returns the edited messages, or the input when nothing changed.
func (e *editor) result() []model.Message {
	if e.out == nil {
		return e.in
	}
	return e.out
}

// toolResults calls f with the message and block index of every tool
// result of msgs, in order.
func toolResults(msgs []model.Message, f func(i, j int)) {
	for i := range msgs {
		for j := range msgs[i].Blocks {
			if msgs[i].Blocks[j].Type == model.BlockToolResult {
				f(i, j)
			}
		}
	}
}
