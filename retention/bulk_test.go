package retention

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// bulkNotes writes n notes no index names into the archive directory dir,
// so that removing it takes a while.
func bulkNotes(t *testing.T, dir string, n int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, "notes", fmt.Sprintf("%064x.md", i)), []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// ageTree sets the times of dir and everything under it to at.
func ageTree(t *testing.T, dir string, at time.Time) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, at, at)
	})
	if err != nil {
		t.Fatal(err)
	}
}
