package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool"
)

// toolDone is the outcome of one tool call.
type toolDone struct {
	index    int
	result   model.Block
	duration time.Duration
}

// runTools runs calls concurrently (up to MaxParallelTools), yields their
// events, and appends their results, in input order, as one batch. When ctx
// is cancelled, calls that did not finish get an error result, and the
// batch is still appended so that every call has its result.
func (r *run) runTools(ctx context.Context, calls []model.Block, emit func(Event)) ([]model.Block, error) {
	e := r.e
	for i := range calls {
		emit(Event{Type: EventToolUse, Turn: r.turn, Tool: &ToolEvent{Call: &calls[i]}})
	}
	phase := make(chan struct{})
	r.phaseMu.Lock()
	r.phase = phase
	r.phaseMu.Unlock()
	defer func() {
		r.phaseMu.Lock()
		r.phase = nil
		r.phaseMu.Unlock()
		close(phase)
	}()
	sem := make(chan struct{}, e.opts.MaxParallelTools)
	done := make(chan toolDone)
	for i := range calls {
		go func() {
			c := calls[i]
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				done <- toolDone{index: i, result: aborted(c)}
				return
			}
			defer func() { <-sem }()
			if !r.emit(Event{Type: EventToolCallStart, Tool: &ToolEvent{Call: &c}}) {
				done <- toolDone{index: i, result: aborted(c)}
				return
			}
			if e.opts.LogToolStarts {
				// A call whose start cannot be recorded does not run: after
				// a crash, the log must tell what may have run.
				if err := r.append(ctx, session.ToolStartedEvent{ID: c.ID, Name: c.Name, Turn: r.turn}); err != nil {
					done <- toolDone{index: i, result: resultBlock(c, tool.Errorf("the call's start could not be recorded: %v", err))}
					return
				}
			}
			start := e.now()
			res := r.callTool(ctx, c)
			done <- toolDone{index: i, result: res, duration: e.now().Sub(start)}
		}()
	}
	results := make([]model.Block, len(calls))
	for remaining := len(calls); remaining > 0; {
		select {
		case d := <-done:
			remaining--
			results[d.index] = d.result
			c := calls[d.index]
			emit(Event{Type: EventToolCallEnd, Turn: r.turn, Tool: &ToolEvent{Call: &c, Duration: d.duration, IsError: d.result.IsError}})
			emit(Event{Type: EventToolResult, Turn: r.turn, Tool: &ToolEvent{Call: &c, Result: &results[d.index]}})
		case ev := <-r.events:
			emit(ev)
		}
	}
	evs := make([]session.Event, len(results))
	for i, b := range results {
		evs[i] = session.ToolResultEvent{Result: b, Turn: r.turn}
	}
	pctx := ctx
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		pctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), persistTimeout)
		defer cancel()
	}
	if err := r.append(pctx, evs...); err != nil {
		return nil, err
	}
	return results, nil
}

// callTool runs one call and turns every outcome into a tool_result block.
// A panic in a tool that does not recover its own is recovered here.
func (r *run) callTool(ctx context.Context, c model.Block) (res model.Block) {
	t, ok := r.tools.Lookup(c.Name)
	if !ok {
		return resultBlock(c, tool.Unknown(c.Name))
	}
	defer func() {
		if p := recover(); p != nil {
			r.e.log.Error("tool panicked", "session", r.id, "tool", c.Name)
			res = resultBlock(c, tool.Result{Content: fmt.Sprintf("Error: tool %s panicked: %v", c.Name, p), IsError: true})
		}
	}()
	call := &tool.Call{ID: c.ID, Name: c.Name, SessionID: r.id, Turn: r.turn, Reporter: reporter{r}}
	out, err := t.Call(ctx, call, c.Input)
	if err != nil {
		if ctx.Err() != nil {
			return aborted(c)
		}
		return resultBlock(c, tool.Result{Content: "Error: " + err.Error(), IsError: true})
	}
	return resultBlock(c, out)
}

func resultBlock(c model.Block, r tool.Result) model.Block {
	return model.ToolResultBlock(c.ID, r.Content, r.IsError)
}

func aborted(c model.Block) model.Block {
	return model.ToolResultBlock(c.ID, "Error: aborted before completion ("+c.Name+")", true)
}

// answerDangling appends an error result for every tool call of the last
// assistant message that has no result yet, as a crash mid-turn leaves
// them, so that the conversation sent to the model stays well formed.
func (r *run) answerDangling(ctx context.Context, emit func(Event)) error {
	evs := r.st.events
	last := -1
	for i := len(evs) - 1; i >= 0; i-- {
		if _, ok := evs[i].Event.(session.AssistantEvent); ok {
			last = i
			break
		}
		if _, ok := evs[i].Event.(session.UserEvent); ok {
			return nil
		}
	}
	if last < 0 {
		return nil
	}
	answered := map[string]bool{}
	turn := 0 // the turn of the results already there, if any
	for _, se := range evs[last+1:] {
		switch ev := se.Event.(type) {
		case session.ToolResultEvent:
			answered[ev.Result.ID] = true
			turn = ev.Turn
		case session.ToolStartedEvent:
			if turn == 0 {
				turn = ev.Turn // the only record of the turn when no result came
			}
		}
	}
	var (
		missing   []session.Event
		recovered []model.Block
	)
	for _, c := range toolCalls(evs[last].Event.(session.AssistantEvent).Message) {
		if !answered[c.ID] {
			missing = append(missing, session.ToolResultEvent{
				Result: model.ToolResultBlock(c.ID, "Error: interrupted before completion ("+c.Name+")", true),
				Turn:   turn,
			})
			recovered = append(recovered, c)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	r.e.log.Info("answering interrupted tool calls", "session", r.id, "calls", len(missing))
	if err := r.append(ctx, missing...); err != nil {
		return err
	}
	for i := range recovered {
		emit(Event{Type: EventToolRecovered, Turn: turn, Tool: &ToolEvent{Call: &recovered[i]}})
	}
	return nil
}
