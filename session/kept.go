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
//
// dir reads the log's first line: a [PathDir] opens it by path, and a
// caller that checks many sessions of one directory may pass a KeptDir
// that opens it relative to a directory it holds open, which spares a
// walk of the whole path per session.
func CheckKept(dir KeptDir, types map[string]fs.FileMode, id string, first []byte) error {
	deleting := DeletingName(id)
	if t, ok := types[deleting]; ok {
		return fmt.Errorf("a delete of session %s began while it was copied: %w", id, &DeletingError{SessionID: id, File: filepath.Join(dir.Path(), deleting), Type: t.Type()})
	}
	name := id + LogSuffix
	t, ok := types[name]
	switch {
	case !ok:
		return fmt.Errorf("session %s was deleted while it was copied: %w", id, &NotFoundError{SessionID: id})
	case !t.IsRegular():
		return fmt.Errorf("the log of session %s is no longer a regular file: %s: %w", id, filepath.Join(dir.Path(), name), safefs.ErrNotRegular)
	case first == nil:
		return nil
	}
	// ReadHead opens without following a link and checks the file it
	// opened, should the entry have changed since the listing.
	head, err := dir.ReadHead(name, len(first))
	if err != nil {
		return fmt.Errorf("read %s: %w", filepath.Join(dir.Path(), name), err)
	}
	if !bytes.Equal(head, first) {
		return fmt.Errorf("session %s was deleted while it was copied, and a new session of that id began: %w", id, &NotFoundError{SessionID: id})
	}
	return nil
}

// KeptDir is the sessions directory [CheckKept] looks in.
type KeptDir interface {
	// Path returns the directory's path, for errors.
	Path() string
	// ReadHead returns at most the first max bytes of the file name in
	// the directory (fewer if it is shorter), opened without following
	// a symlink or waiting on a FIFO; a name that is not a regular file
	// is an error.
	ReadHead(name string, max int) ([]byte, error)
}

// PathDir is a [KeptDir] that opens each file by its whole path.
type PathDir string

// Path returns the directory.
func (d PathDir) Path() string { return string(d) }

// ReadHead reads the first max bytes of name with [safefs.ReadRegular].
func (d PathDir) ReadHead(name string, max int) ([]byte, error) {
	return safefs.ReadRegular(filepath.Join(string(d), name), int64(max))
}
