package retention_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestSwappedSessionsNeverLeadsASweepLockOutside races the sweep's
// removal of an old session log against another local user who exchanges
// the project's sessions/ with a symlink to a directory outside the home
// (renameat2 RENAME_EXCHANGE, in a tight loop), with /proc and as where
// /proc is missing. Nothing outside may change: no lock directory made,
// taken over or removed there, no file removed. The sweep that took the
// lock by the directory's path where /proc was missing (after checking
// that no link was on it) made and removed its lock outside within a few
// attempts.
func TestSwappedSessionsNeverLeadsASweepLockOutside(t *testing.T) {
	if safefstest.LocksByPath {
		t.Skip("this build takes locks by path (safefs_portable, as on Windows)")
	}
	for _, tc := range []struct {
		name  string
		sweep func(context.Context, retention.Options) (retention.Report, error)
	}{
		{"proc", retention.Sweep},
		{"no proc", retention.SweepWithoutProc},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, outside := t.TempDir(), t.TempDir()
			sessions := filepath.Join(home, storage.ProjectsDirName, "0123456789abcdef", storage.SessionsDirName)
			if err := os.MkdirAll(sessions, 0o700); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-40 * day)
			// Each sweep removes many logs, each under its lock: one more
			// chance of the race each. The directory outside holds old
			// logs of the same names, which a sweep led there would remove.
			const logs = 64
			names := make([]string, logs)
			for i := range names {
				names[i] = fmt.Sprintf("s%02d.jsonl", i)
				p := filepath.Join(outside, names[i])
				if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			}
			// The logs of the attempts are planted through a handle on the
			// real sessions/, wherever the swaps have put it.
			real, err := os.OpenRoot(sessions)
			if err != nil {
				t.Fatal(err)
			}
			defer real.Close()
			want := safefstest.TreeHash(t, outside, false)
			stop := safefstest.SwapWithLink(t, sessions, outside)
			defer stop()

			const attempts = 20000
			deadline := time.Now().Add(6 * time.Second)
			done, removed := 0, 0
			for i := 0; i < attempts && time.Now().Before(deadline); i++ {
				done++
				for _, name := range names {
					if err := real.WriteFile(name, []byte("{}\n"), 0o600); err != nil {
						t.Fatal(err)
					}
					if err := real.Chtimes(name, old, old); err != nil {
						t.Fatal(err)
					}
				}
				rep, err := tc.sweep(t.Context(), retention.Options{Home: home})
				if err != nil {
					t.Fatalf("attempt %d: %v", i+1, err)
				}
				removed += len(rep.Removed)
				if got := safefstest.TreeHash(t, outside, false); got != want {
					t.Fatalf("attempt %d (%d removed): the directory outside the home changed (skipped %v)", i+1, removed, rep.Skipped)
				}
			}
			stop()
			if removed == 0 {
				t.Fatalf("no sweep of %d removed the log: the test proved nothing", done)
			}
			t.Logf("%d attempts, %d removed; nothing outside changed", done, removed)
		})
	}
}
