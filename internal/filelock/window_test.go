package filelock_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// takeOverAt returns step hook options that, at the named step of the
// hooked lock, age that lock's directory past the stale period (what a
// stall of its process there looks like to others) and take it over with
// a second lock, which it returns through *taker.
func takeOverAt(t *testing.T, target, at string, taker **filelock.Lock) filelock.Options {
	t.Helper()
	o := filelock.Options{Stale: time.Second, Timeout: time.Second}
	return filelock.WithStepHook(o, func(step string) {
		if step != at || *taker != nil {
			return
		}
		old := time.Now().Add(-time.Minute)
		if err := os.Chtimes(target+filelock.Suffix, old, old); err != nil {
			t.Error(err)
			return
		}
		l, err := filelock.Acquire(t.Context(), target, o)
		if err != nil {
			t.Errorf("taking over at %s: %v", at, err)
			return
		}
		*taker = l
	})
}

// A process that stalls between placing its new lock directory and
// recording which directory it placed, for longer than the stale period,
// finds its lock taken over: it must not then record the taker's
// directory as its own, or both hold the lock (and either one's release
// removes the other's). The sweep met this in the retention tests.
func TestAcquireDoesNotAdoptATakersLock(t *testing.T) {
	target := filepath.Join(t.TempDir(), "s.jsonl")
	var taker *filelock.Lock
	o := takeOverAt(t, target, "acquire:placed", &taker)
	l, err := filelock.Acquire(t.Context(), target, o)
	if err != nil {
		t.Fatal(err)
	}
	if taker == nil {
		t.Fatal("the step acquire:placed was never reached")
	}
	if l.Check() == nil && taker.Check() == nil {
		t.Fatal("two holders of one lock: the stalled acquirer took the taker's directory for its own")
	}
	_ = l.Release()
	if err := taker.Check(); err != nil {
		t.Errorf("the taker's lock after the stalled one's release: %v", err)
	}
	if err := taker.Release(); err != nil {
		t.Error(err)
	}
}

// A holder that stalls between checking its lock and removing it at
// release, for longer than the stale period, finds its lock taken over:
// its release must leave the taker's lock in place.
func TestReleaseSparesATakersLock(t *testing.T) {
	target := filepath.Join(t.TempDir(), "s.jsonl")
	var taker *filelock.Lock
	o := takeOverAt(t, target, "release:verified", &taker)
	l, err := filelock.Acquire(t.Context(), target, o)
	if err != nil {
		t.Fatal(err)
	}
	_ = l.Release()
	if taker == nil {
		t.Fatal("the step release:verified was never reached")
	}
	if err := taker.Check(); err != nil {
		t.Errorf("the taker's lock after the stalled holder's release: %v", err)
	}
	if err := taker.Release(); err != nil {
		t.Error(err)
	}
}
