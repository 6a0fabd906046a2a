package task

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// RecordSuffix ends the name of every task record in a list directory:
// <stem>.json, where the stem is the task id with every character outside
// [A-Za-z0-9_-] replaced by "_". Tools that walk a data home, such as a
// migration, match entries against it instead of spelling it.
const RecordSuffix = recordExt

// RecordName returns the name of the file that holds the record of task
// id in its list's directory: the id with every character outside
// [A-Za-z0-9_-] replaced by "_", then [RecordSuffix]. With a codec, the
// record is encoded with that stem as its record id: the task id itself
// for every id [Store.Create] assigns.
func RecordName(id string) string { return fileStem(id) + recordExt }

// FoldedRecordName returns [RecordName] of id in lower case: the name
// of its record file as a case-insensitive file system (macOS's, where a
// data home may be copied) compares it. Two ids of one list whose folded
// names are equal are one file there, and the second record replaces the
// first, so [FileStore.Import] and the tools that write record files
// refuse them.
func FoldedRecordName(id string) string { return strings.ToLower(RecordName(id)) }

// StoredUnder reports whether the record of task id may be the file whose
// name has the stem stem: the stem of its [RecordName], or the one
// earlier versions of this package gave it (which kept dots).
func StoredUnder(id, stem string) bool { return stemOf(id, stem) }

// RecordStem returns the stem of the task record file named name and
// whether name is a record's name: <stem>.json with a nonempty stem
// (records written by earlier versions may keep dots in it).
func RecordStem(name string) (stem string, ok bool) {
	stem, ok = strings.CutSuffix(name, RecordSuffix)
	if !ok || stem == "" {
		return "", false
	}
	return stem, true
}

// DeleteList removes task list listID of tasksDir (its directory
// <tasksDir>/<listID> with every record and the [SharedMarker]) under the
// list's lock, so that no update of a [FileStore] in any process is cut in
// half. It does not look at the marker: whether a list may go (a session's
// private list, never a shared one) is the caller's decision, see
// [IsShared]. A missing list is not an error and nothing is created; an
// invalid listID and a symlink in place of the list are refused with a
// *storage.Error. The wait for the lock ends when ctx is done.
func DeleteList(ctx context.Context, tasksDir, listID string) error {
	abs, err := listParent(tasksDir, listID)
	if err != nil {
		return err
	}
	return safefs.RemoveTree(ctx, storage.KindTask, abs, listID)
}

// listParent validates listID and returns tasksDir made absolute.
func listParent(tasksDir, listID string) (string, error) {
	if err := storage.ValidateID(listID); err != nil {
		var se *storage.Error
		if errors.As(err, &se) && !errors.Is(err, storage.ErrIDTooLong) {
			c := *se
			c.Message = listIDMessage
			return "", &c
		}
		return "", err
	}
	abs, err := filepath.Abs(tasksDir)
	if err != nil {
		return "", (&storage.Error{Op: "remove", Kind: storage.KindTask, File: tasksDir, Message: "cannot make tasks directory absolute"}).WithCause(err)
	}
	return abs, nil
}

// DeletePrivateList removes task list listID of tasksDir as [DeleteList]
// does, unless the list is marked shared ([SharedMarker]) when its lock is
// held, and reports whether it removed it. A caller that looked at the
// mark before (see [IsShared]) may meet a list another process marked
// shared and wrote to since; that list stays. A missing list is not
// removed and not an error.
func DeletePrivateList(ctx context.Context, tasksDir, listID string) (bool, error) {
	abs, err := listParent(tasksDir, listID)
	if err != nil {
		return false, err
	}
	return safefs.RemoveTreeUnless(ctx, storage.KindTask, abs, listID, func(parent *safefs.Dir) bool {
		_, err := parent.Lstat(filepath.Join(listID, SharedMarker))
		return !errors.Is(err, fs.ErrNotExist)
	})
}
