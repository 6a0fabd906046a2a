package migrate_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
)

// The spill files of a project are created in the destination's spill
// directory as the migration opened it. While the first is written, the
// directory is moved aside and a symlink to a directory outside the
// destination put in its place (holding a link to that first file, so
// that finishing it succeeds): the next spill file must not be created
// through the symlink, in the build that opens files relative to an open
// directory (Linux) and in the one that opens them by path (Windows, the
// tag migrate_portable).
func TestMigrationNeverCreatesAFileThroughASwappedDirectory(t *testing.T) {
	opts, dst := toNewHome(t)
	opts.Workers = 1
	outside := t.TempDir()
	var (
		mu    sync.Mutex
		first string
	)
	migrate.OnWrite(&opts, func(rel string) error {
		mu.Lock()
		defer mu.Unlock()
		if first != "" || filepath.Dir(rel) != "spill" {
			return nil
		}
		first = filepath.Base(rel)
		dir := dst.SpillDir
		if err := os.Rename(dir, dir+".moved"); err != nil {
			t.Errorf("move the spill directory aside: %v", err)
			return nil
		}
		if err := os.Link(filepath.Join(dir+".moved", first), filepath.Join(outside, first)); err != nil {
			t.Errorf("link the first spill file: %v", err)
		}
		if err := os.Symlink(outside, dir); err != nil {
			t.Errorf("put a symlink in its place: %v", err)
		}
		return nil
	})
	_, err := migrate.Run(t.Context(), opts)
	if first == "" {
		t.Fatalf("no spill file was written (run: %v)", err)
	}
	ents, rerr := os.ReadDir(outside)
	if rerr != nil {
		t.Fatal(rerr)
	}
	for _, e := range ents {
		if e.Name() != first {
			t.Errorf("the migration wrote %s outside the destination, through the swapped directory (run: %v)", e.Name(), err)
		}
	}
}
