package session

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/lite-agent/lite-agent-go/storage"
)

// deletingSuffix ends the name a log takes while its session is being
// deleted: <id>.jsonl.deleting.
const deletingSuffix = ".deleting"

// ErrDeleting is matched (with [errors.Is]) by every *[DeletingError].
var ErrDeleting = errors.New("session is being deleted")

// A DeletingError reports an operation on a session whose delete began and
// did not finish: its log was set aside as <id>.jsonl.deleting (see
// [FileCheckpointer.BeginDelete]) and some of what belongs to the session
// (its context archive, its task list) may already be gone, so it can
// neither be read nor written. Running the delete again finishes it.
type DeletingError struct {
	// SessionID is the session whose delete did not finish.
	SessionID string
	File      string // the log set aside
}

// Error says which session is being deleted and how to finish it.
func (e *DeletingError) Error() string {
	return "session " + e.SessionID + " is being deleted (" + e.File + "): delete it again to finish"
}

// Is reports whether target is [ErrDeleting].
func (e *DeletingError) Is(target error) bool { return target == ErrDeleting }

// DeletingID returns the session id of the file named name if it is the
// log of a session being deleted (<id>.jsonl.deleting with a valid id).
// Such a file is no log: [FileCheckpointer.List] does not list it, and
// other implementations, which list *.jsonl only, do not see it either.
func DeletingID(name string) (id string, ok bool) {
	rest, ok := strings.CutSuffix(name, deletingSuffix)
	if !ok {
		return "", false
	}
	return LogID(rest)
}

// DeletingName returns the name the log of session id takes while the
// session is being deleted: <id>.jsonl.deleting.
func DeletingName(id string) string { return id + logSuffix + deletingSuffix }

// DeletingPath returns the path the log of session id takes while the
// session is being deleted, or an error if id is not a valid file session
// id. The file may not exist.
func (c *FileCheckpointer) DeletingPath(id string) (string, error) {
	if _, err := c.Path(id); err != nil {
		return "", err
	}
	return filepath.Join(c.dir.Path(), DeletingName(id)), nil
}

// deleting returns a *DeletingError when the session's log is set aside
// for its delete, nil when it is not; the caller found no log.
func (s *session) deleting() error {
	rel := s.rel + deletingSuffix
	_, err := s.c.dir.Lstat(rel)
	switch {
	case err == nil:
		return &DeletingError{SessionID: s.id, File: filepath.Join(s.c.dir.Path(), rel)}
	case errors.Is(err, fs.ErrNotExist):
		return nil
	}
	return err
}

// BeginDelete begins the delete of session id: under the session's lock it
// renames its log to <id>.jsonl.deleting, replacing one an unfinished
// delete left, and syncs the directory. From then on the session is not
// listed, and Read, Head, Append, Truncate, Scan and Verify fail with a
// *[DeletingError], until [FileCheckpointer.Delete] removes the set-aside
// log. In between, the caller removes what else belongs to the session:
// a process killed at any point leaves a session that is whole (the log
// not renamed yet) or one that is refused as being deleted, never one
// that reads as whole without its archive or tasks. If a new <id>.jsonl
// appears beside the set-aside log (another implementation, which lists
// *.jsonl only, started the id again), that log is a session of its own:
// it is listed, read and written as usual, verify reports the pair, and
// a rerun of the delete removes both. The set-aside log's
// modification time is set to the time of the call. A session without a
// log is left as it is. Errors are *storage.Error or ctx.Err().
func (c *FileCheckpointer) BeginDelete(ctx context.Context, id string) error {
	s, err := c.lock(ctx, id)
	if err != nil {
		return err
	}
	defer s.unlock()
	if err := s.held(); err != nil {
		return err
	}
	st, err := c.dir.Lstat(s.rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &storage.Error{Op: "delete", Kind: storage.KindCheckpoint, File: s.file, Message: "checkpoint log is not a regular file"}
	}
	c.dropHead(id)
	if err := c.dir.Rename(s.rel, s.rel+deletingSuffix); err != nil {
		return err
	}
	// Its time is now that of the delete, so that a sweep by age (which
	// goes by the modification time of the log it was) leaves it to the
	// delete's rerun instead of removing the only sign of the delete. Best
	// effort: the rename has happened.
	_ = c.dir.Touch(s.rel+deletingSuffix, c.now())
	return c.syncDir(c.dir.Path())
}
