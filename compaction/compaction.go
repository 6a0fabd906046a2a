// Package compaction keeps model requests small: a pipeline of passes, each
// of which takes the messages of a request and returns them, shortened or
// as they were.
//
// A [Pass] returns the very slice it was given when it changed nothing, so
// callers can tell "unchanged" from "changed" without comparing messages.
// Passes may persist what they take out of a request (a context archive
// put, a spill store put) and may block doing so; they get ctx for that and
// must return promptly once it is done. [Run] feeds each pass's output to
// the next and stops at the first error.
//
// # Built-in passes
//
// The built-in passes follow the TypeScript reference's legacy compaction
// pipeline, with its thresholds and marker texts:
//
//   - [Snip] drops the middle turns of a request of more than 50 messages,
//     keeping the first turn and at least the last 20 messages.
//   - [Micro] omits the bodies of all but the newest 3 tool results.
//   - [ToolResultBudget] spills the largest tool result bodies to a
//     spill.Store while they hold more than 200,000 characters; the
//     read_spilled tool returns them by ref.
//   - [TokenBudget] keeps the newest turns that fit a token budget.
//   - [Summary] has a model summarize the older turns of a request of more
//     than 120,000 estimated tokens, behind a circuit breaker, in requests
//     within the model's window ([WithWindow]).
//   - [Reactive] trims a request the provider refused as too long to its
//     newest 2 turns and 4000 tokens.
//
// [Default] is the reference's default pipeline: the tool result budget
// (with a spill store), snip and micro.
//
// A turn starts at each user message whose content is a string ([Turns]),
// so passes that drop turns keep every tool call with its results. Tokens
// are estimated as a quarter of the characters, counted in UTF-16 code
// units as the reference counts string lengths ([EstimateTokens]).
package compaction

import (
	"context"
	"fmt"

	"github.com/lite-agent/lite-agent-go/model"
)

// A Pass transforms the messages of one model request. It must not modify
// the messages or the slice it is given: a pass that changes something
// returns a new slice (which may share unchanged messages with the input);
// a pass that changes nothing returns its input as it is.
type Pass interface {
	// Name identifies the pass in events and errors ("snip", "micro", …).
	Name() string
	// Apply returns the compacted messages, or msgs itself when nothing
	// changed.
	Apply(ctx context.Context, msgs []model.Message) ([]model.Message, error)
}

// PassFunc adapts a function to a [Pass] with the given name.
func PassFunc(name string, apply func(ctx context.Context, msgs []model.Message) ([]model.Message, error)) Pass {
	return funcPass{name, apply}
}

type funcPass struct {
	name  string
	apply func(context.Context, []model.Message) ([]model.Message, error)
}

func (p funcPass) Name() string { return p.name }

func (p funcPass) Apply(ctx context.Context, msgs []model.Message) ([]model.Message, error) {
	return p.apply(ctx, msgs)
}

// A PassError reports the pass that failed and why.
type PassError struct {
	Pass string // the failing pass's Name
	Err  error
}

// Error names the pass and its error.
func (e *PassError) Error() string { return fmt.Sprintf("compaction pass %s: %v", e.Pass, e.Err) }

// Unwrap returns the pass's error.
func (e *PassError) Unwrap() error { return e.Err }

// Run applies passes in order, each to the output of the one before, and
// returns the last output. It returns msgs itself when no pass changed
// anything. A failing pass stops the pipeline with a *[PassError]; ctx's
// error is returned as it is when ctx is done between passes.
func Run(ctx context.Context, msgs []model.Message, passes ...Pass) ([]model.Message, error) {
	out := msgs
	for _, p := range passes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next, err := p.Apply(ctx, out)
		if err != nil {
			if ctx.Err() != nil && err == ctx.Err() {
				return nil, err
			}
			return nil, &PassError{Pass: p.Name(), Err: err}
		}
		out = next
	}
	return out, nil
}

// Changed reports whether a pass's output differs from its input, by the
// contract that an unchanged pass returns its input slice.
func Changed(in, out []model.Message) bool {
	if len(in) != len(out) {
		return true
	}
	return len(in) > 0 && &in[0] != &out[0]
}
