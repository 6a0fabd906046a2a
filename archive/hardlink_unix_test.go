//go:build unix

package archive_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
)

// TestPutRefusesAHardLinkedIndex plants an archive index that is a hard
// link to a file outside the data home: a Put appended its entry to the
// outside file, and cut that file back when it ended in a torn tail. Now
// the Put fails with a *storage.Error and the outside file and the archive
// are left as they were.
func TestPutRefusesAHardLinkedIndex(t *testing.T) {
	for _, tc := range []struct {
		name string
		torn string
	}{
		{"whole index", ""},
		{"torn tail", `{"ref":"ab`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "s1.context")
			put(t, open(t, dir, archive.Options{}), "first result", nil)
			index := filepath.Join(dir, archive.IndexFile)
			content, err := os.ReadFile(index)
			if err != nil {
				t.Fatal(err)
			}
			content = append(content, tc.torn...)
			outside := filepath.Join(root, "outside")
			if err := os.WriteFile(outside, content, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(index); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(outside, index); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, dir)
			_, err = open(t, dir, archive.Options{}).Put(context.Background(), "second result", nil)
			storageError(t, err, "hard link")
			if got, _ := os.ReadFile(outside); string(got) != string(content) {
				t.Fatalf("the outside file holds %q, want %q", got, content)
			}
			sameSnapshot(t, before, snapshot(t, dir))
		})
	}
}
