package session_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/session"
)

// TestASparseLogIsRefusedUnread plants a session log whose end is a hole
// of 512 MiB, which costs no disk (round 133: a 10 GiB one took sessions
// list 15 s and 560 MB, sessions show 3 s and 920 MB, and run -r, verify
// and migrate alike; a 1 TiB one, still 4 KiB on disk, took them minutes
// to an hour, and an interrupt did not stop the listing). Every read of
// the log (Read, Head, Verify, Summaries, Append) refuses it with a
// *storage.Error naming it, at once and without reading the hole, and
// leaves it as it was. A log with a short hole at its end, which a crash
// may leave, is read as before: a torn tail.
func TestASparseLogIsRefusedUnread(t *testing.T) {
	for _, tc := range []struct {
		name    string
		hole    int64
		refused bool
	}{
		{"short hole", 1 << 20, false},
		{"hole of 512 MiB", 512 << 20, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cp := newCP(t, dir, session.FileOptions{})
			appendTexts(t, cp, "s1", "one", "two")
			appendTexts(t, cp, "s2", "other")
			log := filepath.Join(dir, "s1.jsonl")
			grow(t, log, tc.hole)
			if tc.refused && !safefstest.HolesSeen(t, log) {
				t.Skip("the file system (or build) tells no holes")
			}
			st, err := os.Stat(log)
			if err != nil {
				t.Fatal(err)
			}
			cp = newCP(t, dir, session.FileOptions{})
			start := time.Now()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, readErr := cp.Read(t.Context(), "s1", 0)
			_, headErr := cp.Head(t.Context(), "s1")
			probs, verifyErr := cp.Verify(t.Context(), "s1")
			sums, sumErr := cp.Summaries(t.Context())
			_, appendErr := cp.Append(t.Context(), "s1", []session.Event{userText("three")}, session.AnyHead)
			runtime.ReadMemStats(&after)
			if sumErr != nil || len(sums) != 2 {
				t.Fatalf("Summaries = %v, %v", sums, sumErr)
			}
			var s1 session.Summary
			for _, s := range sums {
				if s.ID == "s1" {
					s1 = s
				} else if s.Err != nil || s.Records != 1 {
					t.Errorf("the other session's summary: %+v", s)
				}
			}
			if !tc.refused {
				if readErr != nil || headErr != nil || verifyErr != nil || s1.Err != nil || s1.Records != 2 || !s1.Torn {
					t.Errorf("a short hole: Read %v, Head %v, Verify %v %v, summary %+v", readErr, headErr, probs, verifyErr, s1)
				}
				return
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the reads took %s", d)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
				t.Errorf("the reads allocated %d bytes", got)
			}
			for name, err := range map[string]error{"Read": readErr, "Head": headErr, "Summaries": s1.Err, "Append": appendErr} {
				se := storageError(t, err, "sparse")
				if se.File != log {
					t.Errorf("%s: the error names %q, want %q", name, se.File, log)
				}
			}
			if verifyErr == nil && len(probs) == 0 {
				t.Error("Verify found nothing wrong")
			}
			if after, err := os.Stat(log); err != nil || after.Size() != st.Size() || !after.ModTime().Equal(st.ModTime()) {
				t.Errorf("the log changed: %v", err)
			}
		})
	}
}
