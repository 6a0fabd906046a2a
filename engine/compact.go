package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model"
)

// ErrBusy is matched by every *[BusyError]: errors.Is(err, ErrBusy).
var ErrBusy = errors.New("session busy")

// A BusyError reports that a session operation, such as [Engine.Compact],
// was refused because a turn is running on the session.
type BusyError struct {
	SessionID string
	// Op names the refused operation ("compact").
	Op string
}

// Error names the refused operation and the busy session.
func (e *BusyError) Error() string {
	return fmt.Sprintf("engine: %s of session %s refused: a run is active", e.Op, e.SessionID)
}

// Is reports whether target is [ErrBusy].
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// ErrNoContext is returned by [Engine.Compact] on an engine whose
// [Options.Context] is nil: without the context engine there are no
// levels to force and no view to commit.
var ErrNoContext = errors.New("engine: compaction needs Options.Context")

// CompactOptions configures one [Engine.Compact].
type CompactOptions struct {
	// Instructions are extra instructions for the summary pass: the
	// argument of [ContextOptions.Summary], and in the context of every
	// pass the call runs ([compaction.WithInstructions]), for a summary
	// pass among [Options.Passes]. "" adds none.
	Instructions string
	// OnEvent, when set, receives the compaction events of the call, in
	// order, on the calling goroutine: an [EventCompaction] event with
	// phase start, then progress events (one per stage: measure,
	// summarize, persist), then one done, error or cancelled event.
	OnEvent func(Event)
	// Missing, when set, is asked under the session's lock when the
	// session's log is found with no records: its error (the session
	// deleted, say) fails the compaction before anything is measured or
	// written; nil lets it go on.
	Missing func() error
}

// CompactResult is what one [Engine.Compact] did.
type CompactResult struct {
	// Before and After are the tokens of the session's next request
	// (without a reminder) before and after compaction: estimates, or the
	// provider's counts when it counts tokens ([model.TokenCounter]; see
	// BeforeCounted and AfterCounted).
	Before, After int
	// BeforeCounted and AfterCounted report that Before and After are
	// the provider's counts of the request; false, they are estimates (a
	// quarter of the characters; After scaled to a count of Before, when
	// BeforeCounted; else corrected by the input the provider reported
	// for the session's last request, as a turn's are).
	BeforeCounted, AfterCounted bool
	// CountErr is why a figure is an estimate though the provider counts
	// tokens: its count failed (for After, perhaps ctx's error, the view
	// being committed; a request too long to count before is counted
	// after, once compacted), or the summary pass planned its requests,
	// in part or whole, with estimates (a *[compaction.CountError]);
	// several are joined. nil when it counted all it asked for, or the
	// provider does not count tokens.
	CountErr error
	// Generation is the generation of the view committed, or of the
	// latest view when nothing changed (0 when the log holds none).
	Generation int
	// Committed reports whether a context_view event was appended.
	Committed bool
	// SummaryErr is why the summary pass ([ContextOptions.Summary], or a
	// [compaction.Summary] among [Options.Passes]) left the older turns
	// as they were, the compaction falling back to leaving turns out: a
	// provider error, [compaction.ErrEmptySummary], a
	// *[compaction.WindowError], [compaction.ErrSummaryBreakerOpen]. nil
	// when it summarized or had nothing to summarize.
	SummaryErr error
	// LeftOutLines is the oldest transcript lines the summary left out
	// without summarizing them, its transcript taking more than
	// [compaction.SummaryOptions.MaxRequests] requests.
	LeftOutLines int
	// SummaryCut is the characters (UTF-16 code units) cut from the
	// middle of a summary longer than a quarter of the window, as the
	// requests after would cut it, so that the view stays within the
	// window; 0 when the summary fit.
	SummaryCut int
	// LeftOutTurns is the oldest turns the committed view leaves out
	// behind its "[N earlier turn(s) left out …]" marker, when this
	// compaction left turns out (the N of the marker, which counts the
	// turns of a former marker too); 0 when it left none out.
	LeftOutTurns int
}

// CompactionPhase is the phase of a compaction event.
type CompactionPhase string

// The phases of a compaction, in the TypeScript SDK's words.
const (
	CompactionStart     CompactionPhase = "start"
	CompactionProgress  CompactionPhase = "progress"
	CompactionDone      CompactionPhase = "done"
	CompactionError     CompactionPhase = "error"
	CompactionCancelled CompactionPhase = "cancelled"
)

// CompactionStage is the stage a compaction event is about.
type CompactionStage string

// The stages of a compaction.
const (
	StageMeasure   CompactionStage = "measure"   // the request is measured and the levels run
	StageSummarize CompactionStage = "summarize" // the summary pass runs
	StagePersist   CompactionStage = "persist"   // the view is committed
)

// CompactionEvent is the compaction part of an [Event] of type
// [EventCompaction].
type CompactionEvent struct {
	Phase CompactionPhase
	// Stage is the stage reached, on progress events, and the stage that
	// failed or was cancelled, on error and cancelled events.
	Stage CompactionStage
	// Before is the session's size in tokens before compaction (from the
	// measure stage on); After its size after, on done.
	Before, After int
	// BeforeCounted and AfterCounted report that Before and After are the
	// provider's counts ([model.TokenCounter]), as [CompactResult]'s do;
	// false, they are estimates (a quarter of the characters, corrected
	// as CompactResult's are). They are set with the figure they are
	// about.
	BeforeCounted, AfterCounted bool
	// Generation is the committed view's generation, on done.
	Generation int
}

// Compact compacts session id now, whatever the pressure: it forces
// levels 1, 2, 3 (with a [ContextOptions.Planner]) and 4, then the host's
// [ContextOptions.Passes] and summary pass ([ContextOptions.Summary], with
// the window in its context: [compaction.WithWindow]), leaves out the
// oldest turns of a result still over the window (down to 65% of it, for
// a marker message), and commits the result as a context view, so that the session's next
// request, in this process or after a restart, starts from it. It reports
// the request's size before and after: the provider's counts, when it
// counts tokens, else estimates corrected, as the turns' are, by the input
// the provider reported for the session's last request in this process.
//
// It fails with a *[BusyError] while a turn runs on the session, and with
// [ErrNoContext] when the engine has no context engine. A cancelled ctx
// ends it with ctx's error and commits nothing.
func (e *Engine) Compact(ctx context.Context, id string, opts CompactOptions) (res CompactResult, err error) {
	if e.opts.Context == nil {
		return CompactResult{}, ErrNoContext
	}
	emit := func(ev CompactionEvent) {
		if opts.OnEvent != nil {
			opts.OnEvent(Event{Type: EventCompaction, SessionID: id, Compaction: &ev})
		}
	}
	st := e.acquire(id)
	defer e.release(st)
	if e.active(id) != nil {
		return CompactResult{}, &BusyError{SessionID: id, Op: "compact"}
	}
	if err := st.lock(ctx); err != nil {
		return CompactResult{}, err
	}
	defer st.unlock()
	emit(CompactionEvent{Phase: CompactionStart})
	stage := StageMeasure
	defer func() {
		switch {
		case err == nil:
		case ctx.Err() != nil:
			emit(CompactionEvent{Phase: CompactionCancelled, Stage: stage, Before: res.Before, BeforeCounted: res.BeforeCounted})
		default:
			emit(CompactionEvent{Phase: CompactionError, Stage: stage, Before: res.Before, BeforeCounted: res.BeforeCounted})
		}
	}()

	r := &run{e: e, id: id, st: st, tools: e.tools, specs: e.specs}
	r.lock = e.newTurnLock(r)
	defer r.lock.end()
	if err := r.loadHeld(ctx); err != nil {
		return res, err
	}
	if r.st.head == 0 && opts.Missing != nil {
		if err := opts.Missing(); err != nil {
			return res, err
		}
	}
	// Calls a crash left unanswered get their "interrupted" results now,
	// as at the start of a turn: a view must not cover an unanswered call.
	if err := r.answerDangling(ctx, func(Event) {}); err != nil {
		return res, err
	}
	c := r.contextRun("")
	// Measured as the session's turns measure it: corrected by the input
	// the provider reported for its last request, unless counted.
	c.calib = st.calib
	res.Before = c.measure()
	// A provider that counts tokens is asked for Before (and, when the
	// compaction changed the request, After): two counts a compaction.
	tc, counting := model.AsTokenCounter(e.opts.Provider)
	var beforeErr error
	if counting {
		n, err := c.count(ctx, tc, "")
		switch {
		case err == nil:
			c.scaleTo(n, c.estimate())
			res.Before, res.BeforeCounted = n, true
		case ctx.Err() != nil:
			return res, ctx.Err()
		default:
			res.CountErr, beforeErr = err, err
			e.log.Warn("token count failed; compacting by estimates", "session", id, "err", err)
		}
	}
	c.status.BeforeTokens = res.Before
	c.status.Reason = "manual"
	if err := c.compact(ctx, forceOverflow, true); err != nil {
		return res, err
	}
	emit(CompactionEvent{Phase: CompactionProgress, Stage: StageMeasure, Before: res.Before, BeforeCounted: res.BeforeCounted})

	stage = StageSummarize
	passes := append([]compaction.Pass(nil), e.opts.Passes...)
	if e.opts.Context.Summary != nil {
		if p := e.opts.Context.Summary(opts.Instructions); p != nil {
			passes = append(passes, p)
		}
	}
	// The summary passes of package compaction read the instructions from
	// the context; ContextOptions.Summary gets them as an argument.
	var rep compaction.SummaryReport
	pctx := compaction.WithSummaryReport(ctx, &rep)
	if opts.Instructions != "" {
		pctx = compaction.WithInstructions(pctx, opts.Instructions)
	}
	changed, err := c.runHost(pctx, passes)
	if err != nil {
		return res, fmt.Errorf("compact session %s: %w", id, err)
	}
	c.changed = c.changed || changed
	res.SummaryErr, res.LeftOutLines, res.SummaryCut = rep.Err, rep.LeftOutLines, c.summaryCut
	if res.CountErr == nil {
		res.CountErr = rep.CountErr
	}
	// What is still over the window loses its oldest turns, so that the
	// view, and every resume from it, fits.
	if n := c.trim(); n > 0 {
		c.changed = true
		res.LeftOutTurns = n
	}
	emit(CompactionEvent{Phase: CompactionProgress, Stage: StageSummarize, Before: res.Before, BeforeCounted: res.BeforeCounted})

	stage = StagePersist
	if err := ctx.Err(); err != nil {
		return res, err // a cancelled compaction commits nothing
	}
	// A manual compaction commits the pin too, which requests leave to
	// be done again.
	if c.changed || c.pinned && (st.view == nil || !st.view.pinned) {
		gen := st.generation()
		if err := c.commit(ctx); err != nil {
			return res, fmt.Errorf("compact session %s: %w", id, err)
		}
		res.Committed = st.generation() > gen // an empty log has nothing to commit
	}
	res.After = c.measure()
	switch {
	case !counting:
	case res.BeforeCounted && !c.changed && !res.Committed:
		res.After, res.AfterCounted = res.Before, true // the request Before counted
	case res.BeforeCounted || model.IsClass(beforeErr, model.ClassContextOverflow):
		// A request too long to count before may be counted once
		// compacted. The view is committed: a failed count (ctx's error
		// too) leaves the estimate, reported.
		if n, err := c.count(ctx, tc, ""); err != nil {
			res.CountErr = errors.Join(res.CountErr, err)
		} else {
			res.After, res.AfterCounted = n, true
		}
	}
	res.Generation = st.generation()
	emit(CompactionEvent{Phase: CompactionProgress, Stage: StagePersist, Before: res.Before, BeforeCounted: res.BeforeCounted})
	emit(CompactionEvent{Phase: CompactionDone, Before: res.Before, After: res.After, BeforeCounted: res.BeforeCounted, AfterCounted: res.AfterCounted, Generation: res.Generation})
	return res, nil
}
