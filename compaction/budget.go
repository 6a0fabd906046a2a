package compaction

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// The defaults of the budget passes, the reference's.
const (
	DefaultToolResultBudget  = 200_000
	DefaultReactiveMaxTurns  = 2
	DefaultReactiveMaxTokens = 4000
)

// An OptionError reports an option value a pass cannot work with.
type OptionError struct {
	Pass   string // the pass's Name
	Option string // the option, as its constructor names it
	Value  int
}

// Error says which option of which pass is wrong.
func (e *OptionError) Error() string {
	return fmt.Sprintf("compaction: %s: %s must be positive, not %d", e.Pass, e.Option, e.Value)
}

// ToolResultBudgetOptions configures [ToolResultBudget].
type ToolResultBudgetOptions struct {
	// Budget is the most characters (UTF-16 code units) the tool result
	// bodies of a request may hold together; zero or less means 200,000.
	Budget int
}

// ToolResultBudget returns the pass named "tool-result-budget", which keeps
// the tool result bodies of a request within Budget characters: while they
// hold more, it puts the largest body that is not already a spill marker
// in store and replaces it with the marker
//
//	[spilled:<ref>] <len> bytes moved off-context — call read_spilled({ ref: "<ref>" }) to view the full content.
//
// where <len> is the body's length in UTF-16 code units (the reference's
// string length). Bodies no longer than their marker stay, and so does a
// body whose ref the store holds for a different body
// ([spill.ErrRefCollision]). Any other failed put fails the pass. It
// panics if store is nil.
func ToolResultBudget(store spill.Store, opts ToolResultBudgetOptions) Pass {
	if store == nil {
		panic("compaction.ToolResultBudget: nil spill store")
	}
	if opts.Budget <= 0 {
		opts.Budget = DefaultToolResultBudget
	}
	return budget{store, opts}
}

// anyRef stands for a ref where only its length, spill.RefLen, matters.
const anyRef = "0000000000000000"

type budget struct {
	store spill.Store
	opts  ToolResultBudgetOptions
}

func (budget) Name() string { return "tool-result-budget" }

func (p budget) Apply(ctx context.Context, msgs []model.Message) ([]model.Message, error) {
	type body struct{ i, j, n int }
	var bodies []body
	total := 0
	toolResults(msgs, func(i, j int) {
		n := utf16text.Len(msgs[i].Blocks[j].Content)
		total += n
		bodies = append(bodies, body{i, j, n})
	})
	if total <= p.opts.Budget {
		return msgs, nil
	}
	// Largest first; of equal sizes, the older first.
	slices.SortStableFunc(bodies, func(a, b body) int { return b.n - a.n })
	ed := newEditor(msgs)
	for _, b := range bodies {
		if total <= p.opts.Budget {
			break
		}
		content := msgs[b.i].Blocks[b.j].Content
		if IsSpillMarker(content) {
			continue
		}
		// Refs have a fixed size, so the marker's length is known
		// before the put.
		mlen := utf16text.Len(SpillMarker(anyRef, b.n))
		if mlen >= b.n {
			continue
		}
		ref, err := p.store.Put(ctx, content)
		if errors.Is(err, spill.ErrRefCollision) || errors.Is(err, storage.ErrUnstorable) {
			// Its marker would show the other body, or the store
			// cannot keep it (plaintext that looks encoded): the body
			// stays, and the next largest goes instead.
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("spill: %w", err)
		}
		ed.setContent(b.i, b.j, SpillMarker(ref, b.n))
		total -= b.n - mlen
	}
	return ed.result(), nil
}

// TokenBudget returns the pass named "token-budget", which keeps an
// estimated request ([EstimateTokens], at the token scale of the context
// of Apply: [WithTokenScale], which the engine sets) within maxTokens:
// above it, it keeps
// the newest turns that fit together, and at least one, and puts the user
// message "[N earlier turn(s) omitted to fit the local context budget]"
// before them. A maxTokens of zero or less is an *[OptionError].
func TokenBudget(maxTokens int) (Pass, error) {
	if maxTokens <= 0 {
		return nil, &OptionError{Pass: "token-budget", Option: "maxTokens", Value: maxTokens}
	}
	return tokenBudget{maxTokens}, nil
}

type tokenBudget struct{ max int }

func (tokenBudget) Name() string { return "token-budget" }

func (p tokenBudget) Apply(ctx context.Context, msgs []model.Message) ([]model.Message, error) {
	scale := TokenScale(ctx)
	if scaled(EstimateTokens(msgs), scale) <= p.max {
		return msgs, nil
	}
	return keepNewest(msgs, 0, p.max, scale, "omitted to fit the local context budget"), nil
}

// keepNewest keeps the newest turns of msgs, at most maxTurns of them (zero
// means no bound) holding at most maxTokens together (estimated at scale),
// and at least one, after the marker of the turns dropped with why. It
// returns msgs when it drops nothing.
func keepNewest(msgs []model.Message, maxTurns, maxTokens int, scale float64, why string) []model.Message {
	starts := turnStarts(msgs)
	first, chars := len(starts), 0
	for first > 0 {
		if kept := len(starts) - first; kept > 0 && maxTurns > 0 && kept >= maxTurns {
			break
		}
		n := charsOf(msgs[starts[first-1]:turnEnd(msgs, starts, first-1)])
		if first < len(starts) && scaled(tokens(chars+n), scale) > maxTokens {
			break
		}
		first--
		chars += n
	}
	if first == 0 {
		return msgs
	}
	return replace(msgs, 0, starts[first], droppedTurns(first, why))
}

// ReactiveOptions configures [Reactive].
type ReactiveOptions struct {
	// MaxTurns is the most turns kept; zero or less means 2.
	MaxTurns int
	// MaxTokens is the most estimated tokens (at the token scale of the
	// context of Apply: [WithTokenScale]) the kept turns hold, unless the
	// newest alone holds more; zero or less means 4000.
	MaxTokens int
}

// Reactive returns the pass named "reactive", for the retry of a request
// the provider refused as too long: it keeps the newest turns, at most
// MaxTurns holding at most MaxTokens estimated tokens together, and at
// least one, after the user message "[N earlier turn(s) dropped — context
// overflow]". Unlike the other passes it applies whatever the request's
// size: run it only once the provider has refused the request.
func Reactive(opts ReactiveOptions) Pass {
	if opts.MaxTurns <= 0 {
		opts.MaxTurns = DefaultReactiveMaxTurns
	}
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = DefaultReactiveMaxTokens
	}
	return reactive{opts}
}

type reactive struct{ opts ReactiveOptions }

func (reactive) Name() string { return "reactive" }

func (p reactive) Apply(ctx context.Context, msgs []model.Message) ([]model.Message, error) {
	return keepNewest(msgs, p.opts.MaxTurns, p.opts.MaxTokens, TokenScale(ctx), "dropped — context overflow"), nil
}

// Default returns the reference's default pipeline: [ToolResultBudget]
// with store (only when store is not nil), [Snip] and [Micro], all with
// their default options.
func Default(store spill.Store) []Pass {
	var passes []Pass
	if store != nil {
		passes = append(passes, ToolResultBudget(store, ToolResultBudgetOptions{}))
	}
	return append(passes, Snip(SnipOptions{}), Micro(MicroOptions{}))
}
