package task

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// cancelled returns a context cancelled already.
func cancelled(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	return ctx
}

// TestMarkSharedContextDoneBeforeMarksNothing checks that
// MarkSharedContext with a ctx done before the call returns its error and
// marks nothing: neither a list whose directory exists, nor, by its first
// write, one that has none yet.
func TestMarkSharedContextDoneBeforeMarksNothing(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "team", plain)
	mustCreate(t, s, "a")
	if err := s.MarkSharedContext(cancelled(t)); !errors.Is(err, context.Canceled) {
		t.Fatalf("MarkSharedContext(cancelled) on a list that exists = %v, want context.Canceled", err)
	}
	if IsShared(dir, "team") {
		t.Error("a cancelled MarkSharedContext marked the list")
	}
	later := newFile(t, dir, "later", plain)
	if err := later.MarkSharedContext(cancelled(t)); !errors.Is(err, context.Canceled) {
		t.Fatalf("MarkSharedContext(cancelled) on a list not written = %v, want context.Canceled", err)
	}
	mustCreate(t, later, "b")
	if IsShared(dir, "later") {
		t.Error("the first write after a cancelled MarkSharedContext marked the list")
	}
	if err := later.MarkSharedContext(t.Context()); err != nil || !IsShared(dir, "later") {
		t.Errorf("MarkSharedContext = %v, shared %v", err, IsShared(dir, "later"))
	}
}

// TestMarkForkingContextDoneBeforeCreatesNothing checks that
// MarkForkingContext with a ctx done before the call returns its error
// and creates neither the list directory nor the marker.
func TestMarkForkingContextDoneBeforeCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "fork", plain)
	if err := s.MarkForkingContext(cancelled(t)); !errors.Is(err, context.Canceled) {
		t.Fatalf("MarkForkingContext(cancelled) = %v, want context.Canceled", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "fork")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a cancelled MarkForkingContext made the list directory (Lstat: %v)", err)
	}
	if err := s.MarkForkingContext(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "fork", ForkMarker)); err != nil {
		t.Errorf("MarkForkingContext wrote no marker: %v", err)
	}
}
