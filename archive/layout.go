package archive

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// The names of the entries of an archive directory (see the package doc
// for their formats). Tools that walk a data home, such as a migration,
// match entries against these instead of spelling them.
const (
	// IndexFile is the index: one line per put.
	IndexFile = "index.jsonl"
	// NotesDir is the directory of the notes, one file per ref.
	NotesDir = "notes"
	// NoteSuffix ends the name of every note: <ref>.md in NotesDir.
	NoteSuffix = ".md"
)

// NoteRef returns the ref of the note file named name (<ref>.md, ref being
// 64 lowercase hex digits) and whether name is a note's name.
func NoteRef(name string) (ref string, ok bool) {
	ref, ok = strings.CutSuffix(name, NoteSuffix)
	if !ok || !validRef(ref) {
		return "", false
	}
	return ref, true
}

// ValidRef reports whether ref has the form of an archive ref: 64
// lowercase hex digits, the SHA-256 of the note's content. It says nothing
// about whether an archive holds it.
func ValidRef(ref string) bool { return validRef(ref) }

// Delete removes the archive kept in contextDir (see [NewFileArchive]) with
// everything in it, under the lock every [FileArchive] of that directory
// takes to write, so that a put in progress in any process ends before the
// directory goes. A missing contextDir is not an error and nothing is
// created. A symlink at contextDir is refused with a *storage.Error and
// left in place. The wait for the lock ends when ctx is done.
func Delete(ctx context.Context, contextDir string) error {
	abs, err := filepath.Abs(contextDir)
	if err != nil {
		return (&storage.Error{Op: "remove", Kind: storage.KindArchive, File: contextDir, Message: "cannot make archive directory absolute"}).WithCause(err)
	}
	return safefs.RemoveTree(ctx, storage.KindArchive, filepath.Dir(abs), filepath.Base(abs))
}
