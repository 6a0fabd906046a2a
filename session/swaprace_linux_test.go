package session_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// outsideHash hashes every entry under root (name and type, and a file's
// size, bytes and modification time) except lock directories (<name>.lock and what is in
// them): the locks are taken by path (internal/filelock), the one part of
// a store's work that a link swapped in can still lead outside, and only
// as an empty directory made, renamed or removed there.
func outsideHash(t *testing.T, root string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(p, ".lock") {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fmt.Fprintf(h, "%s %v\n", rel, st.Mode())
		if st.Mode().IsRegular() { // a directory's size and time change with the locks made in it
			fmt.Fprintf(h, "%d %d\n", st.Size(), st.ModTime().UnixNano())
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestSwappedProjectsDirectoryNeverLeadsTheStoreOutside is the attack of
// the README's old limit, on the store: while a session is written and
// deleted, another local user exchanges projects/ with a symlink to a
// directory outside the home that holds logs under the same names
// (renameat2 RENAME_EXCHANGE, in a tight loop). No log outside may be
// written, touched or deleted, and every error must be the store's. With
// the path-based safefs.Dir the outside tree changed within the first
// four attempts (three runs).
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
	link := filepath.Join(home, "swap")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	exchange := func() error {
		return unix.Renameat2(unix.AT_FDCWD, projects, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
	}
	if err := exchange(); err != nil {
		t.Skipf("the file system cannot exchange names (%v)", err)
	}
	if err := exchange(); err != nil {
		t.Fatal(err)
	}
	want := outsideHash(t, outside)

	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			_ = exchange()
		}
	}()
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()
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
		if outsideHash(t, outside) != want {
			t.Fatalf("attempt %d: the directory outside the home changed", i+1)
		}
	}
	t.Logf("%d attempts, %d deletes done; nothing outside changed but lock directories", done, deleted)
}
