package archive

import (
	"context"
	"path/filepath"
	"strconv"
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
	// TornPrefix begins the name of a torn tail Put set aside:
	// index.jsonl.torn-<unix ms> beside the index.
	TornPrefix = IndexFile + ".torn-"
)

// tornName returns the name of the torn tail set aside at ms.
func tornName(ms int64) string { return TornPrefix + strconv.FormatInt(ms, 10) }

// IsTornCopy reports whether name is the name of a torn tail of the index
// that a Put set aside, index.jsonl.torn-<decimal digits>. Such a file
// holds the bytes of an append that never completed, as they were; it is
// part of the archive directory but holds no record.
func IsTornCopy(name string) bool {
	ms, ok := strings.CutPrefix(name, TornPrefix)
	return ok && ms != "" && strings.Trim(ms, "0123456789") == ""
}

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
