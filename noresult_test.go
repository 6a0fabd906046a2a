package liteagent

import (
	"errors"
	"iter"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
)

// TestSendWithoutResultIsErrNoResult checks that Send's collection of a
// turn's events reports ErrNoResult, usable with errors.Is, when the events
// end without a done event or carry a done event without a Result, and
// never returns a nil Result with a nil error.
func TestSendWithoutResultIsErrNoResult(t *testing.T) {
	seq := func(evs ...Event) iter.Seq2[Event, error] {
		return func(yield func(Event, error) bool) {
			for _, ev := range evs {
				if !yield(ev, nil) {
					return
				}
			}
		}
	}
	for _, tc := range []struct {
		name   string
		events iter.Seq2[Event, error]
	}{
		{"no events", seq()},
		{"no done", seq(Event{Type: engine.EventTurnEnd, Text: "hi"})},
		{"done without result", seq(Event{Type: engine.EventTurnEnd, Text: "hi"}, Event{Type: engine.EventDone})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := resultOf(tc.events)
			if !errors.Is(err, ErrNoResult) || res != nil {
				t.Fatalf("resultOf = %v, %v; want nil, ErrNoResult", res, err)
			}
		})
	}
	want := &Result{SessionID: "s"}
	if res, err := resultOf(seq(Event{Type: engine.EventDone, Result: want})); err != nil || res != want {
		t.Fatalf("resultOf with a done event = %v, %v; want its Result", res, err)
	}
	boom := errors.New("boom")
	failing := func(yield func(Event, error) bool) { yield(Event{Type: engine.EventError, Err: boom}, boom) }
	if _, err := resultOf(failing); !errors.Is(err, boom) {
		t.Fatalf("resultOf with a failure = %v; want it", err)
	}
}
