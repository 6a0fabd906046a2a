package filelock_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A lock that cannot be made is one message naming one path, the lock's,
// what failed and what to do, not also the hidden directory the lock is
// made under first (it read "cannot create lock: …/team.lock: mkdir
// …/.stale-….lock: …"); the file-system error stays reachable.
func TestALockThatCannotBeMadeNamesOnePath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, target, hint string
		is                 error
	}{
		{"missing directory", filepath.Join(dir, "missing", "team"), "does not exist", fs.ErrNotExist},
		{"not a directory", filepath.Join(file, "team"), "is not a directory", syscall.ENOTDIR},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := filelock.Acquire(t.Context(), c.target, filelock.Options{})
			if err == nil {
				t.Fatal("Acquire succeeded")
			}
			msg := err.Error()
			lock := c.target + filelock.Suffix
			if strings.Count(msg, dir) != 1 || !strings.Contains(msg, lock) || strings.Contains(msg, ".stale-") || strings.Contains(msg, "mkdir") {
				t.Errorf("the message names another path than the lock, or a system call: %q", msg)
			}
			if !strings.Contains(msg, c.hint) {
				t.Errorf("the message does not say what is wrong (%q): %q", c.hint, msg)
			}
			var se *storage.Error
			var pe *fs.PathError
			if !errors.As(err, &se) || se.File != lock || !errors.As(err, &pe) || !errors.Is(err, c.is) {
				t.Errorf("the error %#v is not a *storage.Error at the lock wrapping the *fs.PathError of %v", err, c.is)
			}
		})
	}
}
