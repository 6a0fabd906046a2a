package session_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/session"
)

func lockExists(t *testing.T, dir, id string) bool {
	t.Helper()
	_, err := os.Lstat(filepath.Join(dir, id+".jsonl.lock"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return err == nil
}

func TestHoldKeepsTheLockBetweenOperations(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{Durable: true})
	release, err := cp.Hold(t.Context(), "h")
	if err != nil {
		t.Fatal(err)
	}
	if !lockExists(t, dir, "h") {
		t.Fatal("Hold made no lock directory")
	}
	// Operations from several goroutines go through the held lock.
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for range 10 {
				if _, err := cp.Append(t.Context(), "h", []session.Event{userText(string(rune('a' + i)))}, session.AnyHead); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if !lockExists(t, dir, "h") {
		t.Fatal("an operation released the held lock")
	}
	evs, err := cp.Read(t.Context(), "h", 0)
	if err != nil || len(evs) != 40 {
		t.Fatalf("Read = %d events, %v", len(evs), err)
	}
	// Another instance (as another process would) waits for the release.
	other := newCP(t, dir, session.FileOptions{})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := other.Head(ctx, "h"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Head by another instance during the hold = %v", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if err := release(); err != nil {
		t.Fatalf("second release = %v", err)
	}
	if lockExists(t, dir, "h") {
		t.Fatal("release left the lock directory")
	}
	if h, err := other.Head(t.Context(), "h"); err != nil || h != 40 {
		t.Fatalf("Head after release = %d, %v", h, err)
	}
	// Without a hold, each operation removes its lock again.
	appendTexts(t, cp, "h", "z")
	if lockExists(t, dir, "h") {
		t.Fatal("an operation without a hold left its lock")
	}
}

func TestHoldsNest(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	r1, err := cp.Hold(t.Context(), "n")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := cp.Hold(t.Context(), "n")
	if err != nil {
		t.Fatal(err)
	}
	if err := r1(); err != nil || !lockExists(t, dir, "n") {
		t.Fatalf("first release = %v; lock present: %v", err, lockExists(t, dir, "n"))
	}
	appendTexts(t, cp, "n", "still held")
	if err := r2(); err != nil || lockExists(t, dir, "n") {
		t.Fatalf("last release = %v; lock present: %v", err, lockExists(t, dir, "n"))
	}
}

func TestHoldReportsALockLostWhileHeld(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	appendTexts(t, cp, "lost", "a")
	release, err := cp.Hold(t.Context(), "lost")
	if err != nil {
		t.Fatal(err)
	}
	// Another process takes the lock over (as after a stale period).
	lock := filepath.Join(dir, "lost.jsonl.lock")
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(lock, 0o700); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, filepath.Join(dir, "lost.jsonl"))
	_, err = cp.Append(t.Context(), "lost", []session.Event{userText("b")}, session.AnyHead)
	storageError(t, err, "lock was compromised")
	if got := readFile(t, filepath.Join(dir, "lost.jsonl")); string(got) != string(before) {
		t.Fatal("an append under a lost lock wrote to the log")
	}
	if _, err := cp.Hold(t.Context(), "lost"); err == nil {
		t.Error("a nested Hold was granted on a lost lock")
	} else {
		storageError(t, err, "lock was compromised")
	}
	storageError(t, release(), "lock was compromised")
	if !lockExists(t, dir, "lost") {
		t.Fatal("release removed the other holder's lock")
	}
}

func TestHoldRefusesInvalidIDsAndCancelledContexts(t *testing.T) {
	cp := newCP(t, t.TempDir(), session.FileOptions{})
	if _, err := cp.Hold(t.Context(), "../x"); err == nil {
		t.Error("Hold accepted an invalid id")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := cp.Hold(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("Hold with a cancelled context = %v", err)
	}
}
