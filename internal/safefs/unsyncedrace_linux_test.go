package safefs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
)

// TestAnchorUnsyncedNeverMakesThroughASwappedProjects races
// AnchorUnsynced (a migration's destination: its missing directories made,
// then anchored) against projects/ of the home exchanged with a symlink to
// a directory outside laid out the same way, in a tight loop. Each attempt
// makes a new directory below the project's sessions/ and writes a file
// in it through the Dir returned: nothing may be made or written outside,
// and the sync AnchorUnsynced returns must not fail. The version that
// made the directories with os.MkdirAll and then anchored the path made
// one outside (or anchored the directory there) at the first attempts.
func TestAnchorUnsyncedNeverMakesThroughASwappedProjects(t *testing.T) {
	home := t.TempDir()
	outside := t.TempDir()
	const hash = "0123456789abcdef"
	projects := filepath.Join(home, "projects")
	for _, d := range []string{filepath.Join(projects, hash, "sessions"), filepath.Join(outside, hash, "sessions")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	want := safefstest.TreeHash(t, outside, false)
	stop := safefstest.SwapWithLink(t, projects, outside)
	defer stop()

	const attempts = 3000
	deadline := time.Now().Add(6 * time.Second)
	done, anchored := 0, 0
	for i := 0; i < attempts && time.Now().Before(deadline); i++ {
		done++
		d, sync, err := safefs.AnchorUnsynced(filepath.Join(projects, hash, "sessions", fmt.Sprintf("n%d", i), "x"))
		if err == nil {
			anchored++
			_ = d.WriteFile("f.json", []byte("{}\n"))
			if err := sync(); err != nil {
				t.Fatalf("attempt %d: sync: %v", i+1, err)
			}
		}
		if got := safefstest.TreeHash(t, outside, false); got != want {
			t.Fatalf("attempt %d (%d anchored): the directory outside the home changed", i+1, anchored)
		}
	}
	stop()
	if anchored == 0 {
		t.Fatalf("no attempt of %d anchored the directory: the test proved nothing", done)
	}
	t.Logf("%d attempts, %d anchored; nothing outside changed", done, anchored)
}
