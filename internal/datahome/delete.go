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
	"slices"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// DeleteOptions says what belongs to the session being deleted.
type DeleteOptions struct {
	// SharedTaskList is the explicit task-list id the session used; when
	// set, the session had no private list and no task list is removed.
	// "" means the session's tasks were in its private list, named after
	// the session, which is removed unless it is marked as shared
	// (task.SharedMarker).
	SharedTaskList string

	// DryRun finds what would be removed, and removes nothing.
	DryRun bool
}

// logPather is a checkpointer that keeps each session in a file of its own
// (session.FileCheckpointer).
type logPather interface {
	Path(id string) (string, error)
}

// holder is a checkpointer that can keep a session's lock across several
// operations (session.FileCheckpointer).
type holder interface {
	Hold(ctx context.Context, id string) (func() error, error)
}

// DeleteSession removes session id from a project: its log (through cp, so
// the log's lock is honored), the copies set aside next to it
// (<id>.jsonl.broken-<ms> and <id>.jsonl.torn-<ms>), its context archive
// directory and, unless the session used a shared task list, its private
// task list. Explicitly shared lists, and lists marked shared, are never
// removed. Each directory is removed under its store's lock, and a symlink
// where a directory is expected is refused, never followed.
//
// A session that has none of these (no log in cp, no copy, no archive) is
// not there: DeleteSession then returns a *session.NotFoundError and
// removes nothing, not even a task list named like it. With a
// FileCheckpointer the session's lock is held from that check to the end.
//
// It returns the paths removed (with DryRun, those that would be), the log
// first; a log kept by another kind of Checkpointer has no path and is not
// listed.
func DeleteSession(ctx context.Context, paths storage.ProjectPaths, cp session.Checkpointer, id string, opts DeleteOptions) ([]string, error) {
	if h, ok := cp.(holder); ok && storage.ValidateID(id) == nil && dirExists(paths.SessionsDir) {
		release, err := h.Hold(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("delete session %s: %w", id, err)
		}
		defer func() { _ = release() }()
	}
	st, err := find(ctx, paths, cp, id)
	if err != nil {
		return nil, fmt.Errorf("delete session %s: %w", id, err)
	}
	if !st.log && len(st.copies) == 0 && st.archive == "" {
		return nil, &session.NotFoundError{SessionID: id}
	}
	if opts.SharedTaskList == "" && storage.ValidateID(id) == nil {
		if list := filepath.Join(paths.TasksDir, id); dirExists(list) && !task.IsShared(paths.TasksDir, id) {
			st.taskList = list
		}
	}
	if opts.DryRun {
		return st.paths(), nil
	}
	// The log goes last: until it is gone, a failed delete can be retried.
	if st.archive != "" {
		if err := removeLocked(ctx, paths.SessionsDir, filepath.Base(st.archive)); err != nil {
			return nil, fmt.Errorf("delete session %s archive: %w", id, err)
		}
	}
	if st.taskList != "" {
		if err := removeLocked(ctx, paths.TasksDir, id); err != nil {
			return nil, fmt.Errorf("delete session %s task list: %w", id, err)
		}
	}
	for _, p := range st.copies {
		if err := removeFile(paths.SessionsDir, filepath.Base(p)); err != nil {
			return nil, fmt.Errorf("delete session %s: %w", id, err)
		}
	}
	if st.log {
		if err := cp.Delete(ctx, id); err != nil {
			return nil, fmt.Errorf("delete session %s: %w", id, err)
		}
	}
	return st.paths(), nil
}

// stored is what is stored of one session.
type stored struct {
	log      bool     // the checkpointer has the log
	logPath  string   // its path, if the checkpointer keeps files
	copies   []string // <id>.jsonl.broken-* and .torn-* files
	archive  string   // the context archive directory, if any
	taskList string   // the private task list to remove, if any
}

// paths lists what st holds, the log first.
func (st stored) paths() []string {
	var out []string
	if st.log && st.logPath != "" {
		out = append(out, st.logPath)
	}
	out = append(out, st.copies...)
	if st.archive != "" {
		out = append(out, st.archive)
	}
	if st.taskList != "" {
		out = append(out, st.taskList)
	}
	return out
}

// find finds what is stored of session id, but its task list.
func find(ctx context.Context, paths storage.ProjectPaths, cp session.Checkpointer, id string) (stored, error) {
	var st stored
	if lp, ok := cp.(logPather); ok {
		if p, err := lp.Path(id); err == nil {
			_, err := os.Lstat(p)
			st.log, st.logPath = err == nil, p
		}
	} else {
		infos, err := cp.List(ctx)
		if err != nil {
			return st, err
		}
		st.log = slices.ContainsFunc(infos, func(in session.Info) bool { return in.ID == id })
	}
	if storage.ValidateID(id) == nil {
		ents, err := os.ReadDir(paths.SessionsDir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return st, err
		}
		for _, e := range ents {
			if isCopy(e.Name(), id) && e.Type().IsRegular() {
				st.copies = append(st.copies, filepath.Join(paths.SessionsDir, e.Name()))
			}
		}
	}
	if ctxDir := storage.SessionContextDir(paths.SessionsDir, id); exists(ctxDir) {
		st.archive = ctxDir
	}
	return st, nil
}

// isCopy reports whether name is a copy of the log of session id set aside
// by a repair or a torn-tail recovery: <id>.jsonl.broken-<digits> or
// <id>.jsonl.torn-<digits>.
func isCopy(name, id string) bool {
	rest, ok := strings.CutPrefix(name, id+".jsonl.")
	if !ok {
		return false
	}
	for _, kind := range []string{"broken-", "torn-"} {
		if ms, ok := strings.CutPrefix(rest, kind); ok && ms != "" && strings.Trim(ms, "0123456789") == "" {
			return true
		}
	}
	return false
}

func dirExists(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.IsDir()
}

// exists reports whether p exists, without following a final symlink.
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// removeFile removes the file parent/name within the anchored parent.
func removeFile(parent, name string) error {
	dir, err := safefs.Anchor(parent)
	if err != nil {
		return err
	}
	return dir.Remove(name)
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
