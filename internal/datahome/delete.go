// Package datahome holds operations on a project's whole runtime state that
// both the agent and the lite-agent command perform, so that they are written
// once: deleting a session with everything that belongs to it.
package datahome

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// DeleteOptions says what belongs to the session being deleted.
type DeleteOptions struct {
	// SharedTaskList is the explicit task-list id the session used; when
	// set, the session had no private list and no task list is removed.
	// "" means the session's tasks were in its private list, named after
	// the session, which is removed.
	SharedTaskList string
}

// DeleteSession removes session id from a project: its log (through cp, so
// the log's lock is honored), its context archive directory and, unless the
// session used a shared task list, its private task list. Explicitly shared
// lists are never removed. Each directory is removed under its store's lock,
// and a symlink where a directory is expected is refused, never followed.
// Deleting a session that does not exist is not an error, and nothing is
// created.
func DeleteSession(ctx context.Context, paths storage.ProjectPaths, cp session.Checkpointer, id string, opts DeleteOptions) error {
	if err := cp.Delete(ctx, id); err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	ctxDir := storage.SessionContextDir(paths.SessionsDir, id)
	if err := removeLocked(ctx, paths.SessionsDir, filepath.Base(ctxDir)); err != nil {
		return fmt.Errorf("delete session %s archive: %w", id, err)
	}
	if opts.SharedTaskList != "" || storage.ValidateID(id) != nil {
		return nil // no private list; an invalid id can name none
	}
	if err := removeLocked(ctx, paths.TasksDir, id); err != nil {
		return fmt.Errorf("delete session %s task list: %w", id, err)
	}
	return nil
}

// removeLocked removes parent/name recursively while holding its store lock
// (parent/name.lock). A missing parent or entry is not an error.
func removeLocked(ctx context.Context, parent, name string) error {
	if _, err := os.Lstat(filepath.Join(parent, name)); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	dir, err := safefs.Anchor(parent)
	if err != nil {
		return err
	}
	st, err := dir.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return &storage.Error{Op: "remove", File: filepath.Join(dir.Path(), name), Message: "Symlink paths are not allowed for delete: " + name}
	}
	l, err := dir.Lock(ctx, name, filelock.Options{})
	if err != nil {
		return err
	}
	rmErr := dir.RemoveAll(name)
	if err := l.Release(); rmErr == nil {
		rmErr = err
	}
	return rmErr
}
