package migrate_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
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

// A rerun over an interrupted migration clears its files while its marker
// stays. When it then fails before it writes anything of its own (here:
// cancelled once marked), those removals too must be durable before the
// marker goes: else a crash could leave the interrupted copy's files
// without a marker, which looks complete.
func TestFailedRerunSyncsWhatItClearedBeforeTheMarkerGoes(t *testing.T) {
	k1 := aead(t, "k1", 1)
	src := buildProject(t, t.TempDir(), workdir, k1, "")
	dstHome := t.TempDir()
	killMidMigration(t, src.home, dstHome, false)
	dst := resolve(t, workdir, storage.Options{Home: dstHome})
	if len(filesUnder(t, dst.ProjectDir())) < 2 {
		t.Fatalf("the killed migration left %q, want its marker and some of the copy", filesUnder(t, dst.ProjectDir()))
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	opts := migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: k1}},
	}
	migrate.OnStep(&opts, func(name string) {
		if name == "marked" {
			cancel()
		}
	})
	synced := 0
	migrate.OnRemovalsSynced(&opts, func() { synced++ })
	if _, err := migrate.Run(ctx, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v, want context.Canceled", err)
	}
	if got := filesUnder(t, dst.ProjectDir()); len(got) != 0 {
		t.Errorf("after the failed rerun the destination holds %q, want nothing", got)
	}
	if synced != 1 {
		t.Errorf("the cleared files' removals were synced %d times before the marker went, want once", synced)
	}
}
