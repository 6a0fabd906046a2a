package compaction

import (
	"context"
	"strings"

	"github.com/lite-agent/lite-agent-go/model"
)

// The defaults of the structural passes, the reference's.
const (
	DefaultSnipMaxMessages = 50
	DefaultSnipHeadTurns   = 1
	DefaultSnipTailKeep    = 20
	DefaultMicroKeepRecent = 3
)

// SnipOptions configures [Snip].
type SnipOptions struct {
	// MaxMessages is the size above which a request is snipped; zero or
	// less means 50.
	MaxMessages int
	// HeadTurns is the number of turns kept from the start; zero means 1,
	// and a negative value keeps none.
	HeadTurns int
	// TailKeep is the least number of messages kept from the end, in whole
	// turns; zero or less means 20.
	TailKeep int
}

// Snip returns the pass named "snip", which shortens a request of more
// than MaxMessages messages: it keeps the first HeadTurns turns and as many
// trailing turns as hold at least TailKeep messages, and replaces the turns
// between them with the user message "[N earlier turn(s) omitted to save
// context]". Turns are kept or dropped whole (see [Turns]).
func Snip(opts SnipOptions) Pass {
	if opts.MaxMessages <= 0 {
		opts.MaxMessages = DefaultSnipMaxMessages
	}
	switch {
	case opts.HeadTurns == 0:
		opts.HeadTurns = DefaultSnipHeadTurns
	case opts.HeadTurns < 0:
		opts.HeadTurns = 0
	}
	if opts.TailKeep <= 0 {
		opts.TailKeep = DefaultSnipTailKeep
	}
	return snip{opts}
}

type snip struct{ opts SnipOptions }

func (snip) Name() string { return "snip" }

func (p snip) Apply(_ context.Context, msgs []model.Message) ([]model.Message, error) {
	if len(msgs) <= p.opts.MaxMessages {
		return msgs, nil
	}
	starts := turnStarts(msgs)
	head := p.opts.HeadTurns
	if head >= len(starts) {
		return msgs, nil
	}
	tail, kept := len(starts), 0
	for tail > head && kept < p.opts.TailKeep {
		tail--
		kept += turnEnd(msgs, starts, tail) - starts[tail]
	}
	if tail == head {
		return msgs, nil
	}
	return replace(msgs, starts[head], starts[tail], droppedTurns(tail-head, "omitted to save context")), nil
}

// MicroOptions configures [Micro].
type MicroOptions struct {
	// KeepRecent is the number of newest tool results whose bodies are
	// kept; zero means 3, and a negative value keeps none.
	KeepRecent int
}

// Micro returns the pass named "micro", which replaces the body of every
// tool result but the newest KeepRecent with "[tool result omitted to save
// context]" ([OmittedToolResult]). Bodies that are spill markers (see
// [ToolResultBudget]) or the context engine's archive markers are left as
// they are, since they tell the model where the whole body is.
func Micro(opts MicroOptions) Pass {
	switch {
	case opts.KeepRecent == 0:
		opts.KeepRecent = DefaultMicroKeepRecent
	case opts.KeepRecent < 0:
		opts.KeepRecent = 0
	}
	return micro{opts}
}

type micro struct{ opts MicroOptions }

func (micro) Name() string { return "micro" }

func (p micro) Apply(_ context.Context, msgs []model.Message) ([]model.Message, error) {
	total := 0
	toolResults(msgs, func(int, int) { total++ })
	cut := total - p.opts.KeepRecent // results before this index are omitted
	if cut <= 0 {
		return msgs, nil
	}
	ed := newEditor(msgs)
	k := 0
	toolResults(msgs, func(i, j int) {
		if k < cut {
			c := msgs[i].Blocks[j].Content
			if c != OmittedToolResult && !IsSpillMarker(c) && !strings.HasPrefix(c, archivedPrefix) {
				ed.setContent(i, j, OmittedToolResult)
			}
		}
		k++
	})
	return ed.result(), nil
}
