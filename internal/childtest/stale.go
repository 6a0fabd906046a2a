//go:build unix

package childtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// StaleLocks makes every lock under root, which a killed child held, as
// old as a kill long ago: stale by the stores' rule (older than
// filelock.DefaultStale), so that the next process takes it over without
// waiting out the stale period. A parked lock directory
// (filelock.IdleName) or a leftover (filelock.Leftover) is nobody's lock
// and stays as it is. It fails the test when root holds no lock: nothing
// would be taken over.
func StaleLocks(t testing.TB, root string) {
	t.Helper()
	stale := time.Now().Add(-filelock.DefaultStale - time.Minute)
	aged := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if !d.IsDir() || !strings.HasSuffix(name, filelock.Suffix) || name == filelock.IdleName || filelock.Leftover(name) {
			return nil
		}
		aged++
		if err := os.Chtimes(p, stale, stale); err != nil {
			return err
		}
		return filepath.SkipDir
	})
	if err != nil {
		t.Fatal(err)
	}
	if aged == 0 {
		t.Fatalf("no lock under %s", root)
	}
}
