package session_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/session"
)

// Between BeginDelete and Delete the session is not listed and every
// operation on it fails with a *DeletingError: it cannot be read as an
// empty session, nor written as a new one. Delete ends the state, and the
// id is then free again.
func TestASessionBeingDeletedIsRefusedUntilDeleted(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	if _, err := cp.Append(ctx, "d", []session.Event{userText("one")}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	if _, err := cp.Append(ctx, "other", []session.Event{userText("two")}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	// A log last written long ago: the set-aside log is as young as the
	// delete, so that a sweep by age does not take it before the rerun.
	old := time.Now().Add(-90 * 24 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "d.jsonl"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := cp.BeginDelete(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	set, _ := cp.DeletingPath("d")
	if st, err := os.Stat(set); err != nil || time.Since(st.ModTime()) > time.Hour {
		t.Errorf("the set-aside log's time: %v, %v; want the time of the delete", st, err)
	}
	if id, ok := session.DeletingID(filepath.Base(set)); !ok || id != "d" {
		t.Errorf("DeletingID(%s) = %q, %v", filepath.Base(set), id, ok)
	}
	if _, err := os.Stat(set); err != nil {
		t.Fatalf("the log was not set aside: %v", err)
	}
	infos, err := cp.List(ctx)
	if err != nil || len(infos) != 1 || infos[0].ID != "other" {
		t.Errorf("List = %v, %v; want only the other session", infos, err)
	}
	check := func(op string, err error) {
		t.Helper()
		var de *session.DeletingError
		if !errors.As(err, &de) || de.SessionID != "d" || !errors.Is(err, session.ErrDeleting) {
			t.Errorf("%s of a session being deleted = %v, want a *session.DeletingError", op, err)
		}
	}
	_, err = cp.Read(ctx, "d", 0)
	check("Read", err)
	_, err = cp.Head(ctx, "d")
	check("Head", err)
	_, err = cp.Append(ctx, "d", []session.Event{userText("new")}, session.AnyHead)
	check("Append", err)
	_, err = cp.Append(ctx, "d", []session.Event{userText("new")}, 0)
	check("Append at head 0", err)
	check("Truncate", cp.Truncate(ctx, "d", 0, session.AnyHead))
	_, err = cp.Verify(ctx, "d")
	check("Verify", err)
	for _, err := range cp.Scan(ctx, "d", 0) {
		check("Scan", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "d.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an operation recreated the log: %v", err)
	}
	// A second BeginDelete (a rerun) finds no log and changes nothing.
	if err := cp.BeginDelete(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	if err := cp.Delete(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(set); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Delete left the set-aside log: %v", err)
	}
	if head, err := cp.Head(ctx, "d"); err != nil || head != 0 {
		t.Errorf("Head after the delete = %d, %v; want an empty session", head, err)
	}
	if head, err := cp.Head(ctx, "other"); err != nil || head != 1 {
		t.Errorf("the other session: head %d, %v", head, err)
	}
}
