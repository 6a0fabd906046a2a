package migrate_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
)

// A failed migration removes what it wrote and then its marker. Nothing
// orders the writeback of those removals on its own (ext4 without a
// journal writes directory blocks back in any order), so a crash after
// the marker's removal reached the disk could keep some of the copy: a
// destination without its marker, holding part of a copy, which looks
// complete. The removals must be synced while the marker is still there.
func TestFailedMigrationSyncsItsRemovalsBeforeTheMarkerGoes(t *testing.T) {
	opts, dst := toNewHome(t)
	opts.Workers = 1
	var mu sync.Mutex
	written := 0
	migrate.OnWrite(&opts, func(string) error {
		mu.Lock()
		defer mu.Unlock()
		if written++; written > 2 {
			return syscall.ENOSPC
		}
		return nil
	})
	root := dst.ProjectDir()
	var atSync [][]string // the files under root at each sync of the removals
	migrate.OnRemovalsSynced(&opts, func() {
		atSync = append(atSync, filesUnder(t, root))
	})
	if _, err := migrate.Run(t.Context(), opts); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Run: %v, want ENOSPC", err)
	}
	if len(atSync) != 1 {
		t.Fatalf("the removals were synced %d times before the marker went, want once", len(atSync))
	}
	if got := atSync[0]; len(got) != 1 || got[0] != migrate.MarkerName {
		t.Errorf("at the sync of the removals the destination held %q, want only the marker", got)
	}
	if got := filesUnder(t, root); len(got) != 0 {
		t.Errorf("after the failed migration the destination holds %q, want nothing", got)
	}
}

// filesUnder lists the files under root (relative to it), lock directories
// left out; nothing if root is gone.
func filesUnder(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if filepath.Ext(p) == ".lock" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		files = append(files, rel)
		return err
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return files
}
