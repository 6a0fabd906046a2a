package liteagent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// DeleteDataOptions says what belongs to the session [DeleteSessionData]
// deletes.
type DeleteDataOptions struct {
	// SharedTaskList is the explicit task-list id the session used; when
	// set, the session had no private list and no task list is removed.
	// "" means the session's tasks were in its private list, named after
	// the session, which is removed unless it is marked as shared
	// (task.SharedMarker).
	SharedTaskList string

	// DryRun finds what would be removed, and removes nothing.
	DryRun bool

	// step, when set, is called after each step of the delete with its
	// name ("set-aside", "tasks", "archive", "copies"): the crash tests
	// kill their child there.
	step func(name string)

	// check, when set, is called under the session's hold once its log is
	// found, before anything is removed (DryRun included): its error
	// fails the delete as it is. [Agent.DeleteSession] checks there that
	// the session is the one it knows under the id.
	check func(ctx context.Context) error
}

// DeleteSessionData removes session id's data from the project whose
// layout is paths, each part through the store that owns it: its log
// (through cp, so that the log's lock is honored), the copies of the log
// set aside beside it (session.FileCheckpointer.DeleteCopies), its context
// archive (archive.Delete) and, unless the session used a shared task list,
// its private task list (task.DeleteList). Explicitly shared lists, and
// lists marked shared, are never removed. Each directory is removed under
// its store's lock, and a symlink where a directory is expected is refused,
// never followed.
//
// The log goes first and last: with a FileCheckpointer it is first set
// aside as <id>.jsonl.deleting (session.FileCheckpointer.BeginDelete),
// which takes the session out of every listing and makes every read or
// write of it fail with a *session.DeletingError, and that file is removed
// once everything else is gone. A process killed at any point thus leaves
// the session whole, or refused as being deleted: never one that lists and
// resumes without its archive or tasks. Calling DeleteSessionData again
// finishes the job. With another kind of Checkpointer the log is deleted
// first, and the archive, which makes the session found again, last.
//
// A session that has none of these (no log in cp, none set aside, no copy,
// no archive) is not there: DeleteSessionData then returns a
// *session.NotFoundError and removes nothing, not even a task list named
// like it. With a FileCheckpointer the session's lock is held from that
// check to the end.
//
// It returns the paths removed (with DryRun, those that would be), the log
// first; a log kept by another kind of Checkpointer has no path and is not
// listed. [Agent.DeleteSession] uses it after stopping the session's work;
// the lite-agent command uses it directly.
func DeleteSessionData(ctx context.Context, paths storage.ProjectPaths, cp session.Checkpointer, id string, opts DeleteDataOptions) ([]string, error) {
	fc, isFile := cp.(*session.FileCheckpointer)
	if isFile && storage.ValidateID(id) == nil && isDirNoFollow(paths.SessionsDir) {
		release, err := fc.Hold(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("delete session %s: %w", id, err)
		}
		defer func() { _ = release() }()
	}
	st, err := findSessionData(ctx, paths, cp, id)
	if err != nil {
		return nil, fmt.Errorf("delete session %s: %w", id, err)
	}
	if !st.log && st.deleting == "" && len(st.copies) == 0 && st.archive == "" {
		return nil, &session.NotFoundError{SessionID: id}
	}
	if st.log && opts.check != nil {
		if err := opts.check(ctx); err != nil {
			return nil, err
		}
	}
	if opts.SharedTaskList == "" && storage.ValidateID(id) == nil {
		if list := paths.TaskListDir(id); isDirNoFollow(list) && !task.IsShared(paths.TasksDir, id) {
			st.taskList = list
		}
	}
	if opts.DryRun {
		return st.paths(), nil
	}
	step := func(name string) {
		if opts.step != nil {
			opts.step(name)
		}
	}
	if st.log {
		if isFile {
			err = fc.BeginDelete(ctx, id)
		} else {
			err = cp.Delete(ctx, id)
		}
		if err != nil {
			return nil, fmt.Errorf("delete session %s: %w", id, err)
		}
		step("set-aside")
	}
	if st.taskList != "" {
		// Looked at again under the list's lock: another process may
		// have marked the list shared, and written to it, since.
		removed, err := task.DeletePrivateList(ctx, paths.TasksDir, id)
		if err != nil {
			return nil, fmt.Errorf("delete session %s task list: %w", id, err)
		}
		if !removed {
			st.taskList = ""
		}
		step("tasks")
	}
	if st.archive != "" {
		if err := archive.Delete(ctx, st.archive); err != nil {
			return nil, fmt.Errorf("delete session %s archive: %w", id, err)
		}
		step("archive")
	}
	if len(st.copies) > 0 {
		if err := fc.DeleteCopies(ctx, id); err != nil {
			return nil, fmt.Errorf("delete session %s: %w", id, err)
		}
		step("copies")
	}
	if isFile && (st.log || st.deleting != "") {
		if err := fc.Delete(ctx, id); err != nil {
			return nil, fmt.Errorf("delete session %s: %w", id, err)
		}
	}
	return st.paths(), nil
}

// sessionData is what is stored of one session.
type sessionData struct {
	log      bool     // the checkpointer has the log
	logPath  string   // its path, if the checkpointer keeps files
	deleting string   // the log an unfinished delete set aside, if any
	copies   []string // copies of the log set aside beside it
	archive  string   // the context archive directory, if any
	taskList string   // the private task list to remove, if any
}

// paths lists what st holds, the log first.
func (st sessionData) paths() []string {
	var out []string
	if st.log && st.logPath != "" {
		out = append(out, st.logPath)
	}
	if st.deleting != "" {
		out = append(out, st.deleting)
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

// findSessionData finds what is stored of session id, but its task list.
func findSessionData(ctx context.Context, paths storage.ProjectPaths, cp session.Checkpointer, id string) (sessionData, error) {
	var st sessionData
	if fc, ok := cp.(*session.FileCheckpointer); ok {
		if p, err := fc.Path(id); err == nil {
			_, err := os.Lstat(p)
			st.log, st.logPath = err == nil, p
		}
		if p, err := fc.DeletingPath(id); err == nil {
			if fi, err := os.Lstat(p); err == nil {
				if !fi.Mode().IsRegular() {
					// Not what a delete sets aside: nothing of the
					// session goes before it is looked at.
					return st, &session.DeletingError{SessionID: id, File: p, Type: fi.Mode().Type()}
				}
				st.deleting = p
			}
		}
		copies, err := fc.CopiesContext(ctx, id)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return st, err
		}
		st.copies = copies
	} else {
		infos, err := cp.List(ctx)
		if err != nil {
			return st, err
		}
		st.log = slices.ContainsFunc(infos, func(in session.Info) bool { return in.ID == id })
	}
	if dir := paths.ArchiveDir(id); existsNoFollow(dir) {
		st.archive = dir
	}
	return st, nil
}

func isDirNoFollow(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.IsDir()
}

// existsNoFollow reports whether p exists, without following a final symlink.
func existsNoFollow(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
