package liteagent

import (
	"context"
	"errors"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

// EventCompaction is the type of the events of a [Agent.Compact]: one per
// phase (start, progress per stage, then done, error or cancelled), each
// with its [CompactionEvent].
const EventCompaction = engine.EventCompaction

// CompactionEvent is the compaction part of an [Event]; see
// [engine.CompactionEvent].
type CompactionEvent = engine.CompactionEvent

// CompactResult is what a compaction did: the next request's tokens
// before and after (the provider's counts when it counts tokens, else
// estimates, and which they are), the context view committed, and what it
// could not do (a failed summary or token count, lines and turns left
// out). See [engine.CompactResult].
type CompactResult = engine.CompactResult

// ErrNoContext is returned by Compact when the agent runs without the
// context engine ([ContextOptions] disabled): there is no view to commit.
var ErrNoContext = engine.ErrNoContext

// CompactOptions configures [Agent.Compact].
type CompactOptions struct {
	// Instructions are appended to the summary prompt, when the agent
	// summarizes older turns (for example what to keep); "" adds none.
	Instructions string
}

// compactSummary returns the summary pass of Compact with
// opts.CompactSummary (see there), else nil. The context levels have run
// before it, so it has no base passes, and it summarizes whatever the
// size: the caller asked for compaction.
func compactSummary(p model.Provider, opts Options) func(string) compaction.Pass {
	if !opts.CompactSummary {
		return nil
	}
	return func(instructions string) compaction.Pass {
		return compaction.Summary(p, compaction.SummaryOptions{Model: opts.ModelName, MaxTokens: opts.MaxTokens, Base: []compaction.Pass{},
			Threshold: 1, Instructions: instructions, Logger: opts.Logger})
	}
}

// Compact compacts the current session now, whatever its size: see
// [Agent.CompactSession].
func (a *Agent) Compact(ctx context.Context, opts CompactOptions) (CompactResult, error) {
	return a.compactSession(ctx, a.SessionID(), opts, false)
}

// CompactSession compacts session id now, whatever its size: the context
// engine forces its levels (and the summary of older turns, when
// configured) and commits the result as a context view, which the
// session's next request — in this process or after a restart — starts
// from, without reading the history before it. The log keeps every
// event. It returns the tokens of the next request before and after:
// estimates, or the provider's counts when it counts tokens
// ([model.TokenCounter], such as anthropic's WithTokenCounting), two
// count requests a compaction (and one for each summary request).
//
// It is a session operation, like [Agent.Restore]: it fails with a
// *SessionBusyError while a run of the session (or a restore) is in
// progress, and prompts
// on the session fail the same way while it works; with a store that
// leases sessions it takes the session's lease. Subscribers get its
// [EventCompaction] events; with [Options.Telemetry] it records a span
// "compaction" (see telemetry.Telemetry.Compact). A cancelled ctx ends
// it with ctx's error and commits nothing. Without the context engine it
// returns [ErrNoContext].
//
// A session with nothing stored (never written, or deleted, by another
// process say, before the compaction reads it) fails with a
// *session.NotFoundError: nothing is written and no compaction hook runs.
// A log of the data home emptied by a restore is still stored. A session
// the agent knows (see [Agent.ResumeStored]) that another process deleted
// and another writer started again under its id fails with a
// *session.ReplacedError, checked under the session's lock or lease, and
// nothing is written.
func (a *Agent) CompactSession(ctx context.Context, id string, opts CompactOptions) (CompactResult, error) {
	return a.compactSession(ctx, id, opts, true)
}

// compactSession compacts session id; stored says that a session with
// nothing stored is not found (see [Agent.CompactSession]), rather than
// compacted as an empty one (the current session before its first turn,
// see [Agent.Compact]).
func (a *Agent) compactSession(ctx context.Context, id string, opts CompactOptions, stored bool) (CompactResult, error) {
	if !a.made() {
		return CompactResult{}, ErrClosed
	}
	if inHook(ctx, a) {
		return CompactResult{}, ErrReentrant
	}
	// A session the agent knows nothing of (never used, or left) is
	// compacted as stored, as the lite-agent command does; it is
	// forgotten again once the compaction is over, unless current.
	unknown := !a.eng.Identified(id)
	if unknown {
		defer func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.forgetLeft(a.current)
		}()
	}
	end, err := a.sched.beginOp(id, ActivityCompaction)
	if err != nil {
		return CompactResult{}, err
	}
	defer end()
	if unknown {
		a.eng.Unidentify(id)
	}
	release, err := a.leaseSession(ctx, id)
	if err != nil {
		return CompactResult{}, err
	}
	defer release()
	hooked, hookEnd := a.manualCompactHooks(ctx, id, opts.Instructions)
	var missing func() error
	if stored {
		missing = func() error {
			if a.emptyLogKept(id) {
				return nil
			}
			return &session.NotFoundError{SessionID: id}
		}
	}
	return a.obs.compact(ctx, id, func(ctx context.Context) (CompactResult, error) {
		res, err := a.eng.Compact(ctx, id, engine.CompactOptions{
			Instructions: opts.Instructions,
			Missing:      missing,
			OnEvent: func(ev engine.Event) {
				hooked(ev)
				a.publish(Notice{SessionID: id, Source: hook.SourceUser, Event: ev})
			},
		})
		hookEnd(res, err)
		return res, err
	})
}

// manualCompactHooks returns the hooks of a manual compaction of session
// id, with kind and source manual and a run id of its own: onEvent fires
// compact:start (with the host's instructions) once the compaction has
// measured the context, end fires compact:end, after a compact:start if
// the compaction failed before measuring, but neither when it found no
// session (a *session.NotFoundError). The automatic compaction hooks
// do not fire for it (engine.ContextOptions.Compacting).
func (a *Agent) manualCompactHooks(ctx context.Context, id, instructions string) (onEvent func(engine.Event), end func(CompactResult, error)) {
	if a.hooks == nil {
		return func(engine.Event) {}, func(CompactResult, error) {}
	}
	ident := hook.Identity{RunID: newSessionID(), SessionID: id, Source: hook.SourceManual}
	cid := newSessionID()
	started := false
	start := func(before int, counted bool) {
		if !started {
			started = true
			a.fireLogged(ctx, hook.CompactStart{Identity: ident, CompactionID: cid, Kind: hook.CompactManual, Before: int64(before), BeforeCounted: counted, Instructions: instructions})
		}
	}
	onEvent = func(ev engine.Event) {
		if c := ev.Compaction; c != nil && c.Phase == engine.CompactionProgress && c.Stage == engine.StageMeasure {
			start(c.Before, c.BeforeCounted)
		}
	}
	end = func(res CompactResult, err error) {
		if !started && errors.Is(err, session.ErrNotFound) {
			return // no session to compact: no compaction happened
		}
		start(res.Before, res.BeforeCounted)
		e := hook.CompactEnd{Identity: ident, CompactionID: cid, Kind: hook.CompactManual, Before: int64(res.Before), BeforeCounted: res.BeforeCounted,
			After: int64(res.After), AfterCounted: res.AfterCounted, Status: hook.StatusCompleted}
		switch {
		case err != nil && ctx.Err() != nil:
			e.Status, e.After, e.AfterCounted = hook.StatusCancelled, 0, false
		case err != nil:
			e.Status, e.After, e.AfterCounted, e.Err = hook.StatusFailed, 0, false, &hook.ErrorInfo{Name: "Error", Message: err.Error()}
		}
		a.fireLogged(context.WithoutCancel(ctx), e)
	}
	return onEvent, end
}
