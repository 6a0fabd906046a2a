package migrate_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// abandonChildEnv makes the test binary a migrating child whose writes
// fail (ENOSPC) after the first few, and that kills itself (SIGKILL) in
// the clean-up that failure starts: at "removals", as it begins to sync
// what it removed, before the marker goes (see migrate.OnRemovalsSynced).
const abandonChildEnv = "MIGRATE_TEST_ABANDON_CHILD"

func runAbandonChild(step string) int {
	from, to, ok := childCodecs()
	if !ok {
		return 2
	}
	opts := migrate.Options{
		Workers: 1,
		From:    migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: os.Getenv("MIGRATE_FROM"), Codec: from}},
		To:      migrate.Endpoint{Storage: storage.Options{Home: os.Getenv("MIGRATE_TO"), Codec: to}},
	}
	migrate.FailWritesAfter(&opts, 3, syscall.ENOSPC)
	migrate.OnRemovalsSynced(&opts, func() {
		if step == "removals" {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // until the signal lands
		}
	})
	_, err := migrate.Run(context.Background(), opts)
	fmt.Fprintln(os.Stderr, "migration finished:", err)
	return 3
}

// A migration that fails and dies in its clean-up, after removing what it
// wrote and before its marker goes, leaves the marker on what is left:
// the destination is incomplete, never a partial copy passing for a
// finished one, and a rerun clears it and completes.
func TestKilledInTheCleanUpKeepsTheMarker(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
	before := treeHash(t, src.home)
	dstHome := filepath.Join(t.TempDir(), "new")
	root := filepath.Join(dstHome, "projects", src.paths.Hash)
	err := childtest.Command(t.Context(), abandonChildEnv+"=removals", "MIGRATE_FROM="+src.home, "MIGRATE_TO="+dstHome).Run()
	if !childtest.Killed(err) {
		t.Fatalf("the child was not killed in its clean-up: %v", err)
	}
	names := rootEntries(t, root)
	if !slices.Contains(names, migrate.MarkerName) {
		t.Fatalf("killed in the clean-up, before the marker's removal: the destination holds %v without the marker", names)
	}
	if got := filesUnder(t, root); len(got) != 1 {
		t.Errorf("killed as the removals were synced: the destination holds %q, want the marker alone", got)
	}
	if err := migrate.CheckComplete(root); !errors.Is(err, migrate.ErrIncomplete) {
		t.Errorf("CheckComplete after a kill in the clean-up = %v, want ErrIncomplete", err)
	}
	old := time.Now().Add(-time.Minute)
	_ = os.Chtimes(filepath.Join(root, migrate.MarkerName+filelock.Suffix), old, old)
	rerunCompletes(t, src, before, dstHome)
}
