package migrate_test

import (
	"errors"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
)

// abandonChildEnv makes the test binary a migrating child whose writes
// fail (ENOSPC) after the first few, and that kills itself (SIGKILL) in
// the clean-up that failure starts: at "removals", as it begins to sync
// what it removed, before the marker goes (see migrate.OnRemovalsSynced).
const abandonChildEnv = "MIGRATE_TEST_ABANDON_CHILD"

func runAbandonChild(step string) int {
	opts, ok := childOptions()
	if !ok {
		return 2
	}
	opts.Workers = 1
	migrate.FailWritesAfter(&opts, 3, syscall.ENOSPC)
	migrate.OnRemovalsSynced(&opts, func() {
		if step == "removals" {
			killSelf()
		}
	})
	return finishChild(opts)
}

// A migration that fails and dies in its clean-up, after removing what it
// wrote and before its marker goes, leaves the marker on what is left:
// the destination is incomplete, never a partial copy passing for a
// finished one, and a rerun clears it and completes.
func TestKilledInTheCleanUpKeepsTheMarker(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
	before := treeHash(t, src.home)
	dstHome := filepath.Join(t.TempDir(), "new")
	root, names := killedChild(t, src, dstHome, abandonChildEnv+"=removals")
	if !slices.Contains(names, migrate.MarkerName) {
		t.Fatalf("killed in the clean-up, before the marker's removal: the destination holds %v without the marker", names)
	}
	if got := filesUnder(t, root); len(got) != 1 {
		t.Errorf("killed as the removals were synced: the destination holds %q, want the marker alone", got)
	}
	if err := migrate.CheckComplete(root); !errors.Is(err, migrate.ErrIncomplete) {
		t.Errorf("CheckComplete after a kill in the clean-up = %v, want ErrIncomplete", err)
	}
	rerunAfterKill(t, src, before, dstHome)
}
