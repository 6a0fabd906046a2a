package retention

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestPutDuringRemovalIsNeverLost removes an old context archive of many
// notes while its store, opened before the sweep (a running agent), puts
// a new entry as soon as the removal has started. Removing a directory
// takes many system calls; unless the sweep holds the archive's lock
// through them, the Put takes the lock, writes its note and index line and
// reports success, and the rest of the removal deletes them: an entry the
// model was handed a ref for is gone. Either the Put fails, or its entry
// is there to read.
func TestPutDuringRemovalIsNeverLost(t *testing.T) {
	now := time.Now()
	home := t.TempDir()
	sessions := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa", "sessions")
	dir := filepath.Join(sessions, "s.context")
	a, err := archive.NewFileArchive(dir, archive.Options{SessionID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Put(t.Context(), "old entry", nil); err != nil {
		t.Fatal(err)
	}
	bulkNotes(t, dir, 3000)
	ageTree(t, dir, now.Add(-40*24*time.Hour))
	index := filepath.Join(dir, archive.IndexFile)
	notes, err := os.ReadDir(filepath.Join(dir, "notes"))
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		e   archive.Entry
		err error
	}
	done := make(chan result, 1)
	rep, err := Sweep(t.Context(), Options{
		Home: home, now: func() time.Time { return now },
		beforeRemove: func(p string) {
			if p != dir {
				return
			}
			go func() {
				// Wait for the removal to start, then put at once.
				first := filepath.Join(dir, "notes", notes[0].Name())
				for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
					if _, err := os.Lstat(index); err != nil {
						break
					}
					if _, err := os.Lstat(first); err != nil {
						break
					}
				}
				e, err := a.Put(t.Context(), "new entry", nil)
				done <- result{e, err}
			}()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := <-done
	t.Logf("removed %d, skipped %+v; Put: %v", len(rep.Removed), rep.Skipped, r.err)
	if r.err != nil {
		var se *storage.Error
		if !errors.As(r.err, &se) {
			t.Fatalf("the Put failed with %v, want a *storage.Error", r.err)
		}
		return
	}
	got, err := a.Read(t.Context(), archive.ReadRequest{Ref: r.e.Ref})
	if err != nil || !strings.Contains(got, "new entry") {
		t.Fatalf("the Put reported success but its entry does not read back: %q %v", got, err)
	}
}
