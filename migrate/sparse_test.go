package migrate_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestASparseLogIsRefusedNotRead plants a session log whose end is a hole
// of 2 GiB, which costs no disk (round 133: migrate read a 10 GiB one for
// 5.5 s and 960 MB before the next file failed it). The migration now
// fails at once with a *storage.Error naming the log, reading nothing of
// the hole, and the source is left as it was; a log with a short hole at
// its end (what a crash may leave) is migrated as before, its tail listed
// as torn.
func TestASparseLogIsRefusedNotRead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		hole    int64
		refused bool
	}{
		{"short hole", 1 << 20, false},
		{"hole of 2 GiB", 2 << 30, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := buildProject(t, t.TempDir(), workdir, nil, "")
			log := filepath.Join(src.paths.SessionsDir, "s1.jsonl")
			st, err := os.Stat(log)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(log, st.Size()+tc.hole); err != nil {
				t.Skip("sparse file:", err)
			}
			if tc.refused && !safefstest.HolesSeen(t, log) {
				t.Skip("the file system (or build) tells no holes")
			}
			st, err = os.Stat(log)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			rep, err := migrate.Run(t.Context(), migrate.Options{
				From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
				To:   migrate.Endpoint{Storage: storage.Options{Home: t.TempDir()}},
			})
			runtime.ReadMemStats(&m1)
			if !tc.refused {
				found := false
				for _, s := range rep.Skipped {
					found = found || s.File == log && strings.Contains(s.Reason, "torn tail")
				}
				if err != nil || !found {
					t.Errorf("Run = %v; skipped %+v, want the torn tail of %s", err, rep.Skipped, log)
				}
				return
			}
			var se *storage.Error
			if !errors.As(err, &se) || !strings.Contains(se.Message, "sparse") || se.File != log {
				t.Fatalf("Run = %v, want a *storage.Error naming %s as sparse", err, log)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the migration took %s", d)
			}
			if got := m1.TotalAlloc - m0.TotalAlloc; got > 64<<20 {
				t.Errorf("the migration allocated %d bytes", got)
			}
			if after, err := os.Stat(log); err != nil || after.Size() != st.Size() || !after.ModTime().Equal(st.ModTime()) {
				t.Errorf("the log changed: %v", err)
			}
		})
	}
}
