package session_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestSwappedProjectsDirectoryNeverLeadsTheStoreOutside is the attack of
// the README's old limit, on the store: while a session is written and
// deleted, another local user exchanges projects/ with a symlink to a
// directory outside the home that holds logs under the same names
// (renameat2 RENAME_EXCHANGE, in a tight loop). No log outside may be
// written, touched or deleted, no lock directory made, renamed or removed
// there, and every error must be the store's. With the path-based
// safefs.Dir the outside tree changed within the first four attempts
// (three runs); with only the locks taken by path (Dir.Lock resolving the
// path, then filelock.Acquire), at attempts 2, 11 and 12.
func TestSwappedProjectsDirectoryNeverLeadsTheStoreOutside(t *testing.T) {
	home, outside := t.TempDir(), t.TempDir()
	const hash = "0123456789abcdef"
	projects := filepath.Join(home, "projects")
	sessions := filepath.Join(projects, hash, "sessions")
	const attempts = 300
	victims := filepath.Join(outside, hash, "sessions")
	if err := os.MkdirAll(victims, 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range attempts {
		if err := os.WriteFile(filepath.Join(victims, fmt.Sprintf("s%d.jsonl", i)), []byte("someone else's log\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cp := newCP(t, sessions, session.FileOptions{})
	want := safefstest.TreeHash(t, outside, safefstest.LocksByPath)
	defer safefstest.SwapWithLink(t, projects, outside)()
	typed := func(what string, err error) {
		t.Helper()
		var se *storage.Error
		var ce *session.ConflictError
		var de *session.DeletingError
		if err != nil && !errors.As(err, &se) && !errors.As(err, &ce) && !errors.As(err, &de) {
			t.Fatalf("%s: error %v (%T) is not the store's", what, err, err)
		}
	}
	ctx := context.Background()
	deadline := time.Now().Add(8 * time.Second)
	done, deleted := 0, 0
	for i := 0; i < attempts && time.Now().Before(deadline); i++ {
		done++
		id := fmt.Sprintf("s%d", i)
		head, err := cp.Append(ctx, id, batchOf(1, 0), 0)
		typed("append", err)
		if err == nil {
			_, err = cp.Append(ctx, id, batchOf(1, 1), head)
			typed("append again", err)
		}
		err = cp.Delete(ctx, id)
		typed("delete", err)
		if err == nil {
			deleted++
		}
		if c, err := session.NewFileCheckpointer(sessions, session.FileOptions{}); err == nil {
			_, err = c.Append(ctx, id+"x", batchOf(1, 0), 0)
			typed("append with a new checkpointer", err)
		} else {
			typed("anchor", err)
		}
		if safefstest.TreeHash(t, outside, safefstest.LocksByPath) != want {
			t.Fatalf("attempt %d: the directory outside the home changed", i+1)
		}
	}
	t.Logf("%d attempts, %d deletes done; nothing outside changed", done, deleted)
}
