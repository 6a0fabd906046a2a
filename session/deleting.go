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
//
// Type is zero for the log a delete set aside. Any other entry at that
// name (a directory, a symlink, a named pipe: Type holds its type bits, as
// [fs.FileMode.Type] gives them) was put there by something else: the
// session is refused all the same, but no delete writes or removes such an
// entry, nor follows or opens it; it must be looked at and removed by
// hand, after which a delete of the session finishes.
type DeletingError struct {
	// SessionID is the session whose delete did not finish.
	SessionID string
	File      string      // the log set aside
	Type      fs.FileMode // the type of the entry at File when it is not a regular file
}

// Error says which session is being deleted and how to finish it.
func (e *DeletingError) Error() string {
	if e.Type != 0 {
		return "session " + e.SessionID + " is being deleted, but " + e.File + " is " + entryType(e.Type) +
			", not the log a delete sets aside: look at it and remove it by hand, then delete the session again"
	}
	return "session " + e.SessionID + " is being deleted (" + e.File + "): delete it again to finish"
}

// entryType names the type of a file that is not a regular file.
func entryType(t fs.FileMode) string {
	switch {
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeSymlink != 0:
		return "a symlink"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
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
	if id, ok := LogID(rest); ok {
		return id, true
	}
	// The short form of an id too long for the usual one.
	if storage.ValidateID(rest) == nil && !storage.FitName(rest+logSuffix+deletingSuffix) {
		return rest, true
	}
	return "", false
}

// DeletingName returns the name the log of session id takes while the
// session is being deleted: <id>.jsonl.deleting, or, for an id too long
// for that name to fit in storage.NameMax bytes (over 240 characters),
// <id>.deleting. No other name takes the short form.
func DeletingName(id string) string {
	if long := id + logSuffix + deletingSuffix; storage.FitName(long) {
		return long
	}
	return id + deletingSuffix
}

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
	rel := DeletingName(s.id)
	st, err := s.c.dir.Lstat(rel)
	switch {
	case err == nil:
		return &DeletingError{SessionID: s.id, File: filepath.Join(s.c.dir.Path(), rel), Type: st.Mode().Type()}
	case errors.Is(err, fs.ErrNotExist):
		return nil
	}
	return err
}

// strangeDeleting returns a *DeletingError when the name the session's
// log takes while it is deleted holds something other than a regular file
// (see [DeletingError.Type]), which a delete must neither replace nor
// remove; nil when it holds a regular file or nothing.
func (s *session) strangeDeleting() error {
	rel := DeletingName(s.id)
	st, err := s.c.dir.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		return &DeletingError{SessionID: s.id, File: filepath.Join(s.c.dir.Path(), rel), Type: st.Mode().Type()}
	}
	return nil
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
// log is left as it is. Something other than a regular file at the
// set-aside name (a directory, a symlink, a named pipe) is neither
// replaced nor followed: BeginDelete then fails with a *[DeletingError]
// whose Type says what it is, and changes nothing. Other errors are
// *storage.Error or ctx.Err().
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
	if err := s.strangeDeleting(); err != nil {
		return err
	}
	c.dropHead(id)
	if err := c.dir.Rename(s.rel, DeletingName(s.id)); err != nil {
		return err
	}
	// Its time is now that of the delete, so that a sweep by age (which
	// goes by the modification time of the log it was) leaves it to the
	// delete's rerun instead of removing the only sign of the delete. Best
	// effort: the rename has happened.
	_ = c.dir.Touch(DeletingName(s.id), c.now())
	return c.syncDir(c.dir.Path())
}
