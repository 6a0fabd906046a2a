package rewind_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lite-agent/lite-agent-go/rewind"
	"github.com/lite-agent/lite-agent-go/session"
)

// ForkOptions.Check sees the whole log read, before anything is taken
// from it, and its error fails ForkEventsWith as it is; a nil error lets
// the copies through as ForkEvents makes them.
func TestForkOptionsCheckSeesTheLogAndFailsTheFork(t *testing.T) {
	w := newWorld(t, nil)
	w.prompt("one")
	w.change("a.txt", []byte("a1"))
	at := w.prompt("two")
	ctx := context.Background()
	refused := errors.New("not the session I know")
	var seen int
	_, err := rewind.ForkEventsWith(ctx, w.cp, w.id, at, rewind.ForkOptions{Check: func(log []session.StoredEvent) error {
		seen = len(log)
		return refused
	}})
	if err != refused {
		t.Errorf("the fork with a failing check: %v; want the check's error as it is", err)
	}
	if int64(seen) != w.head() {
		t.Errorf("the check saw %d records; want the whole log, %d", seen, w.head())
	}
	got, err := rewind.ForkEventsWith(ctx, w.cp, w.id, at, rewind.ForkOptions{Check: func([]session.StoredEvent) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	want, err := rewind.ForkEvents(ctx, w.cp, w.id, at)
	if err != nil || len(got) != len(want) || int64(len(got)) != at {
		t.Errorf("the fork with a passing check copied %d events; ForkEvents %d (%v); want %d", len(got), len(want), err, at)
	}
}
