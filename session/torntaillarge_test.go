package session_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/session"
)

// TestAppendRefusesToCopyAHugeTornTail plants a log whose torn tail is a
// sparse run of zeros over safefs.MaxReadBytes (round 128: a 2 GiB one,
// 4 KiB on disk, made run -r write a 2.1 GB torn copy; a larger one fills
// the disk). Append and Truncate refuse it with a *storage.Error, write no
// copy and leave the log as it was. (Since round 133 a log this sparse is
// refused as such before the tail is looked at.)
func TestAppendRefusesToCopyAHugeTornTail(t *testing.T) {
	for _, op := range []string{"Append", "Truncate"} {
		t.Run(op, func(t *testing.T) {
			dir := t.TempDir()
			cp := newCP(t, dir, session.FileOptions{})
			appendTexts(t, cp, "s1", "one", "two")
			log := filepath.Join(dir, "s1.jsonl")
			st, err := os.Stat(log)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(log, st.Size()+safefs.MaxReadBytes+1); err != nil {
				t.Skip("sparse file:", err)
			}
			before := entryNames(t, dir)
			cp = newCP(t, dir, session.FileOptions{})
			if op == "Append" {
				_, err = cp.Append(t.Context(), "s1", []session.Event{userText("three")}, session.AnyHead)
			} else {
				err = cp.Truncate(t.Context(), "s1", 1, session.AnyHead)
			}
			// Where the file system tells holes, the log is refused as
			// sparse before its tail is looked at (round 133); the limit
			// on the torn copy stays for a tail that is not a hole.
			want := "larger than 1 GiB"
			if safefstest.HolesSeen(t, log) {
				want = "sparse"
			}
			storageError(t, err, want)
			if after, err := os.Stat(log); err != nil || after.Size() != st.Size()+safefs.MaxReadBytes+1 {
				t.Errorf("the log changed: %v", err)
			}
			if after := entryNames(t, dir); len(after) != len(before) {
				t.Errorf("entries %v, before %v", after, before)
			}
		})
	}
}
