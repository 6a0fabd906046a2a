package session_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestTooLongSessionIDIsRefusedBeforeAnyFile(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	for _, n := range []int{storage.MaxIDLength + 1, 300} {
		id := strings.Repeat("s", n)
		_, err := cp.Append(t.Context(), id, []session.Event{session.UserEvent{Message: model.UserText("hi")}}, session.AnyHead)
		var se *storage.Error
		if !errors.As(err, &se) || !errors.Is(err, storage.ErrIDTooLong) {
			t.Fatalf("Append with a %d-character id: %v, want a *storage.Error wrapping ErrIDTooLong", n, err)
		}
	}
	id := strings.Repeat("s", storage.MaxIDLength)
	if _, err := cp.Append(t.Context(), id, []session.Event{session.UserEvent{Message: model.UserText("hi")}}, session.AnyHead); err != nil {
		t.Fatalf("Append with a %d-character id: %v", len(id), err)
	}
}

// TestEveryFileOfALongestIDFits makes, on a real file system, every file a
// session with an id of storage.MaxIDLength characters has beside its
// log: its lock, the torn tail an append sets aside, the copy a repair
// sets aside (the longest name), the temp file of a truncation and the log
// set aside by a delete. None may fail for its name's length, and the
// longest must use the file system's limit whole, so that the limit is
// no lower than the names force.
func TestEveryFileOfALongestIDFits(t *testing.T) {
	dir := t.TempDir()
	ctx := t.Context()
	cp := newCP(t, dir, session.FileOptions{RepairTail: true})
	session.SetClock(cp, func() time.Time { return fixedTime })
	id := strings.Repeat("s", storage.MaxIDLength)
	appendTexts(t, cp, id, "a", "b", "c")
	path := filepath.Join(dir, id+".jsonl")
	appendBytes([]byte(`{"seq":4,"sess`))(t, path)
	if _, err := cp.Append(ctx, id, []session.Event{userText("d")}, session.AnyHead); err != nil {
		t.Fatalf("an append that sets a torn tail aside: %v", err)
	}
	appendBytes([]byte("{\"seq\":5,\"sess\n"))(t, path)
	if h, err := cp.Head(ctx, id); err != nil || h != 4 {
		t.Fatalf("a repair that copies the log aside: head %d, %v", h, err)
	}
	if err := cp.Truncate(ctx, id, 2, session.AnyHead); err != nil {
		t.Fatalf("Truncate: %v", err)
	}
	copies, err := cp.Copies(id)
	if err != nil || len(copies) != 2 {
		t.Fatalf("Copies = %v, %v; want the torn tail and the broken log", copies, err)
	}
	longest := 0
	for _, c := range copies {
		longest = max(longest, len(filepath.Base(c)))
	}
	if longest != storage.NameMax {
		t.Errorf("the longest name made from a %d-character id has %d bytes, want the limit %d", len(id), longest, storage.NameMax)
	}
	if err := cp.BeginDelete(ctx, id); err != nil {
		t.Fatalf("BeginDelete: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, session.DeletingName(id))); err != nil {
		t.Errorf("the log set aside by a delete: %v", err)
	}
}
