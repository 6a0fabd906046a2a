package session

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// CheckKept returns nil if the log of session id is still the one a copy
// of the sessions directory dir read, once that copy is over: in place, a
// regular file, not set aside for a delete, and beginning with first, the
// log's first line as the copy read it, newline included (nil: not
// compared). types holds the type of each entry of dir, from one listing
// made after the copy (one listing serves every session of the
// directory).
//
// A copy holds each file's lock only while it reads that file, so a
// delete (lite-agent sessions delete, in another process) that began
// meanwhile may have removed the session's archive or task list before or
// after they were copied. A delete sets the log aside first and removes it
// last, so a log still in place lost nothing before the copy ended; one
// that begins otherwise belongs to a new session that took the id since.
// The errors: a *[DeletingError] (the log is set aside), a
// *[NotFoundError] (the log is gone, or a new session of that id began),
// an error matching [safefs.ErrNotRegular] (something else took the log's
// name), or the error of reading the log's first line.
func CheckKept(dir string, types map[string]fs.FileMode, id string, first []byte) error {
	deleting := DeletingName(id)
	if t, ok := types[deleting]; ok {
		return fmt.Errorf("a delete of session %s began while it was copied: %w", id, &DeletingError{SessionID: id, File: filepath.Join(dir, deleting), Type: t.Type()})
	}
	name := id + LogSuffix
	path := filepath.Join(dir, name)
	t, ok := types[name]
	switch {
	case !ok:
		return fmt.Errorf("session %s was deleted while it was copied: %w", id, &NotFoundError{SessionID: id})
	case !t.IsRegular():
		return fmt.Errorf("the log of session %s is no longer a regular file: %s: %w", id, path, safefs.ErrNotRegular)
	case first == nil:
		return nil
	}
	// ReadRegular opens without following a link and checks the file it
	// opened, should the entry have changed since the listing.
	head, err := safefs.ReadRegular(path, int64(len(first)))
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if !bytes.Equal(head, first) {
		return fmt.Errorf("session %s was deleted while it was copied, and a new session of that id began: %w", id, &NotFoundError{SessionID: id})
	}
	return nil
}
