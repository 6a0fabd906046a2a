package task

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// TestUpdateThatCannotWriteEveryRecordWritesNone adds an edge between a
// small task and a large one while the file size limit (RLIMIT_FSIZE,
// which makes a write past it fail with EFBIG as a full disk fails with
// ENOSPC) lets only the small record be written: the update fails with a
// *storage.Error and both records are as they were, so that no half-made
// edge (one end recorded, the other not) is left behind by an update
// reported as failed.
func TestUpdateThatCannotWriteEveryRecordWritesNone(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "l", storage.Encoding{})
	small, err := s.Create(t.Context(), CreateInput{Subject: "small"})
	if err != nil {
		t.Fatal(err)
	}
	large, err := s.Create(t.Context(), CreateInput{Subject: "large", Description: strings.Repeat("d", 64<<10)})
	if err != nil {
		t.Fatal(err)
	}
	read := func() map[string][]byte {
		m := map[string][]byte{}
		for _, id := range []string{small.ID, large.ID} {
			b, err := os.ReadFile(filepath.Join(dir, "l", id+".json"))
			if err != nil {
				t.Fatal(err)
			}
			m[id] = b
		}
		return m
	}
	before := read()

	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Skip("no RLIMIT_FSIZE:", err)
	}
	lim := old
	lim.Cur = 16 << 10 // the small record fits, the large one does not
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Skip("cannot lower RLIMIT_FSIZE:", err)
	}
	_, err = s.Update(t.Context(), small.ID, UpdateInput{AddBlockedBy: []string{large.ID}})
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	var se *storage.Error
	if !errors.As(err, &se) || !errors.Is(err, syscall.EFBIG) {
		t.Fatalf("Update past the file size limit: %v, want a *storage.Error for EFBIG", err)
	}
	after := read()
	if ents, err := os.ReadDir(filepath.Join(dir, "l")); err == nil {
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".tmp") {
				t.Errorf("temp file %s left behind", e.Name())
			}
		}
	}
	for id, b := range before {
		if !bytes.Equal(after[id], b) {
			t.Errorf("task %s changed by a failed update:\n%s\nwas\n%.200s", id, after[id], b)
		}
	}
	got, _, err := s.Get(t.Context(), small.ID)
	if err != nil {
		t.Fatalf("Get after the failed update: %v", err)
	}
	if len(got.BlockedBy) != 0 {
		t.Errorf("task %s is blocked by %v after a failed update", small.ID, got.BlockedBy)
	}
	// With the limit gone, the same update succeeds on both ends.
	if _, err := s.Update(t.Context(), small.ID, UpdateInput{AddBlockedBy: []string{large.ID}}); err != nil {
		t.Fatal(err)
	}
	if got, _, err := s.Get(t.Context(), large.ID); err != nil || len(got.Blocks) != 1 {
		t.Fatalf("the large task blocks %v (%v), want [%s]", got.Blocks, err, small.ID)
	}
}
