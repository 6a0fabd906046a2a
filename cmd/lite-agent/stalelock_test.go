package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// staleLocks makes every lock under root, which a killed process held, as
// old as a kill long ago: stale by the stores' rule, so that a rerun
// takes it over without waiting out filelock.DefaultStale. A parked lock
// directory (filelock.IdleName) or a leftover (filelock.Leftover) is
// nobody's lock and stays as it is. It fails the test when root holds no
// lock: the rerun would take nothing over.
func staleLocks(t *testing.T, root string) {
	t.Helper()
	stale := time.Now().Add(-filelock.DefaultStale - time.Minute)
	var aged []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasSuffix(d.Name(), filelock.Suffix) && d.Name() != filelock.IdleName && !filelock.Leftover(d.Name()) {
			if err := os.Chtimes(p, stale, stale); err != nil {
				return err
			}
			aged = append(aged, p)
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(aged) == 0 {
		t.Fatalf("the killed process left no lock under %s", root)
	}
}
