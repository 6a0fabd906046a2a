package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Verify checks every line of index.jsonl and every note in notes/ and
// returns every problem found, without changing, repairing or following
// anything. It holds the archive's lock, like every other operation, and
// keeps it while the codec runs.
//
// Each index line is decoded and validated on its own, so a bad line does
// not hide the lines after it; its Record is the line's 0-based number. Each
// file in notes/ whose name ends in ".md" is checked in name order: its name
// must be <ref>.md, it must not be a symlink, it must decode as a record of
// kind "archive" whose record id is the ref, and its content must hash to
// the ref. Other files, such as the temp files .<name>.<12 hex>.tmp an
// interrupted write leaves, are not records and are ignored. Finally every
// ref the index lists without a note file is reported as missing.
// Problems come in that order: index lines, note files by name, missing
// notes in index order. A missing archive index with no notes has no
// problems.
//
// Each [storage.Problem] names the file involved (index.jsonl for an index
// line or the whole index, notes/<name> for a note, the path it should
// have for a missing note, or the notes directory) and the record (the
// index line's 0-based number as a decimal string, the note's ref, or ""
// for a whole file or a name that is no ref). Its kind is one of:
//
//   - [storage.ProblemDecode]: the configured encoding refused the record.
//   - [storage.ProblemSyntax]: an index line that is not valid UTF-8 JSON,
//     or is empty.
//   - [storage.ProblemFrame]: an index line that is valid JSON but not an
//     index entry (no 64-hex "ref", no string "preview").
//   - [storage.ProblemDuplicate]: an index line whose ref an earlier line
//     already lists.
//   - [storage.ProblemIntegrity]: a note whose content does not hash to its
//     ref ("Archive integrity mismatch").
//   - [storage.ProblemMissing]: the index lists a ref that has no note file.
//   - [storage.ProblemSymlink]: a record, or the notes directory, is a
//     symlink.
//   - [storage.ProblemName]: a file in notes/ ending in ".md" whose name is
//     not <64 lowercase hex>.md; its content is not examined.
//   - [storage.ProblemFile]: a record that is not a regular file, or that
//     could not be read.
//   - [storage.ProblemUnreferenced]: a valid note that no index line lists.
//     This is not damage: a Put that failed after writing its note leaves
//     one, reads ignore it, and a later Put of the same content lists it.
//     It is reported only when the index itself could be read.
//   - [storage.ProblemTorn]: the index ends with bytes after its last
//     newline, the remains of a Put killed while appending, never
//     acknowledged. This is not damage either: readers ignore the bytes
//     (so a note only the torn line listed is unreferenced) and the next
//     Put that appends sets them aside as index.jsonl.torn-<unix ms>. Its
//     Record is the number the line would have had, its Offset where the
//     bytes start, and Tail is set; it comes after the index lines.
//
// The error reports a failure to verify at all: the lock could not be
// taken or was lost, the archive directory was replaced or removed, a
// directory could not be listed, or ctx ended. Per-record failures,
// including a file that cannot be read, are Problems.
func (a *FileArchive) Verify(ctx context.Context) ([]storage.Problem, error) {
	var problems []storage.Problem
	err := a.locked(ctx, func(l *filelock.Lock) error {
		v := verifier{a: a}
		if err := v.run(ctx); err != nil {
			return err
		}
		// A lock lost while verifying means another process may have
		// written during the check, so the report could be wrong.
		if err := l.Check(); err != nil {
			return err
		}
		problems = v.problems
		return nil
	})
	if err != nil {
		return nil, err
	}
	return problems, nil
}

// verifier collects the problems of one Verify call.
type verifier struct {
	a        *FileArchive
	problems []storage.Problem
}

func (v *verifier) add(file, record string, kind storage.ProblemKind, err error) {
	v.problems = append(v.problems, storage.Problem{File: file, Record: record, Kind: kind, Err: err})
}

// addError records err, a failure to read or decode the record (file,
// record) stored at rel, as a problem of the kind it shows, or returns it
// when it is not about the record: a cancelled context or a changed archive
// directory.
func (v *verifier) addError(rel, file, record string, kind storage.Kind, err error) error {
	if err := v.whole(err); err != nil {
		return err
	}
	var se *storage.Error
	errors.As(err, &se) // whole returned nil, so err is one
	pk := storage.ProblemFile
	if se.Op == "decode" {
		pk = storage.ProblemDecode
	} else if st, lerr := v.a.dir.Lstat(rel); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
		pk = storage.ProblemSymlink // replaced by a symlink since it was listed
	}
	c := *se
	if c.Kind == "" {
		c.Kind = kind
	}
	v.add(file, record, pk, c.At(file, record))
	return nil
}

// whole returns the error that stops verification as a whole for a
// failure err of one record: err itself when it is not a *storage.Error
// (ctx.Err()), the directory check's error when the archive directory
// changed, and nil otherwise.
func (v *verifier) whole(err error) error {
	var se *storage.Error
	if !errors.As(err, &se) {
		return err
	}
	return v.a.dir.Check()
}

func verifyError(kind storage.Kind, file, record, msg string) *storage.Error {
	return &storage.Error{Op: "verify", Kind: kind, File: file, Record: record, Message: msg}
}

func (v *verifier) run(ctx context.Context) error {
	refs, indexOK, err := v.index(ctx)
	if err != nil {
		return err
	}
	notes, err := v.notes(ctx, refs, indexOK)
	if err != nil {
		return err
	}
	if notes == nil { // the notes directory could not be examined
		return nil
	}
	for _, ref := range refs {
		if !notes[ref] {
			_, abs := v.a.notePath(ref)
			v.add(abs, ref, storage.ProblemMissing, verifyError(storage.KindArchive, abs, ref, "Archive note is missing"))
		}
	}
	return nil
}

// index checks index.jsonl and returns the distinct refs of its valid
// lines in order. indexOK is false when the file could not be read at all.
func (v *verifier) index(ctx context.Context) (refs []string, indexOK bool, err error) {
	file := v.a.indexAbs
	st, err := v.a.dir.Lstat(indexFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, true, nil
	case err != nil:
		return nil, false, v.addError(indexFile, file, "", storage.KindArchiveIndex, err)
	case st.Mode()&fs.ModeSymlink != 0:
		v.add(file, "", storage.ProblemSymlink, verifyError(storage.KindArchiveIndex, file, "", "Archive index is a symlink; it is not followed"))
		return nil, false, nil
	case !st.Mode().IsRegular():
		v.add(file, "", storage.ProblemFile, verifyError(storage.KindArchiveIndex, file, "", "Archive index is not a regular file"))
		return nil, false, nil
	}
	data, err := v.a.dir.ReadFile(indexFile)
	if err != nil {
		return nil, false, v.addError(indexFile, file, "", storage.KindArchiveIndex, err)
	}
	data, torn := cutTorn(data)
	end := int64(len(data))
	seen := make(map[string]bool)
	n := 0
	for ; len(data) > 0; n++ {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		record := strconv.Itoa(n)
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		ref, kind, err := v.a.checkIndexLine(ctx, record, line)
		if err != nil {
			if kind == "" {
				if err := v.addError(indexFile, file, record, storage.KindArchiveIndex, err); err != nil {
					return nil, false, err
				}
				continue
			}
			v.add(file, record, kind, err)
		}
		if ref == "" {
			continue
		}
		if seen[ref] {
			v.add(file, record, storage.ProblemDuplicate, verifyError(storage.KindArchiveIndex, file, record,
				"Corrupt archive index: ref listed by an earlier line"))
			continue
		}
		seen[ref] = true
		refs = append(refs, ref)
	}
	if len(torn) > 0 {
		record := strconv.Itoa(n)
		v.problems = append(v.problems, storage.Problem{File: file, Record: record, Offset: end,
			Kind: storage.ProblemTorn, Tail: true, Err: verifyError(storage.KindArchiveIndex, file, record,
				fmt.Sprintf("Archive index ends with a torn tail of %d bytes after line %d (a put that never completed, never acknowledged; the next put sets it aside)", len(torn), n))})
	}
	return refs, true, nil
}

// checkIndexLine decodes and validates index line record, a complete line
// without its newline. It returns the ref the line names, if any, and its
// problem: a kind with a *storage.Error, "" with the error of Decode, or ""
// and nil for a good line.
func (a *FileArchive) checkIndexLine(ctx context.Context, record string, line []byte) (string, storage.ProblemKind, error) {
	corrupt := func(why string) error {
		return verifyError(storage.KindArchiveIndex, a.indexAbs, record, "Corrupt archive index: "+why)
	}
	if len(line) == 0 {
		return "", storage.ProblemSyntax, corrupt("empty line")
	}
	plain, err := a.cs.enc.Decode(ctx, storage.KindArchiveIndex, a.cs.scope, record, line)
	if err != nil {
		return "", "", err
	}
	if !utf8.Valid(plain) || !json.Valid(plain) {
		return "", storage.ProblemSyntax, corrupt("line is not JSON")
	}
	e, ok := parseIndexLine(plain)
	if !ok {
		return "", storage.ProblemFrame, corrupt("line is not an index entry")
	}
	return e.ref, "", nil
}

// notes checks every note file and returns the set of refs that have a
// note file (valid or not), or nil when notes/ could not be listed. Notes
// not in refs are reported as unreferenced when indexOK.
func (v *verifier) notes(ctx context.Context, refs []string, indexOK bool) (map[string]bool, error) {
	dirAbs := v.a.notesAbs
	st, err := v.a.dir.Lstat(notesDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return map[string]bool{}, nil
	case err != nil:
		return nil, v.addError(notesDir, dirAbs, "", storage.KindArchive, err)
	case st.Mode()&fs.ModeSymlink != 0:
		v.add(dirAbs, "", storage.ProblemSymlink, verifyError(storage.KindArchive, dirAbs, "", "Archive notes directory is a symlink; it is not followed"))
		return nil, nil
	case !st.IsDir():
		v.add(dirAbs, "", storage.ProblemFile, verifyError(storage.KindArchive, dirAbs, "", "Archive notes directory is not a directory"))
		return nil, nil
	}
	ents, err := v.a.dir.ReadDir(notesDir)
	if err != nil {
		return nil, err
	}
	listed := make(map[string]bool, len(refs))
	for _, ref := range refs {
		listed[ref] = true
	}
	found := make(map[string]bool, len(ents))
	for _, ent := range ents { // ReadDir sorts by name
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		name := ent.Name()
		stem, isNote := strings.CutSuffix(name, ".md")
		if !isNote {
			continue // temp files and anything else that is not a record
		}
		abs := filepath.Join(dirAbs, name)
		if !validRef(stem) {
			v.add(abs, "", storage.ProblemName, verifyError(storage.KindArchive, abs, "", "Archive note name is not <ref>.md"))
			continue
		}
		ref := stem
		found[ref] = true
		switch t := ent.Type(); {
		case t&fs.ModeSymlink != 0:
			v.add(abs, ref, storage.ProblemSymlink, verifyError(storage.KindArchive, abs, ref, "Archive note is a symlink; it is not followed"))
			continue
		case !t.IsRegular():
			v.add(abs, ref, storage.ProblemFile, verifyError(storage.KindArchive, abs, ref, "Archive note is not a regular file"))
			continue
		}
		bad, err := v.note(ctx, ref)
		if err != nil {
			return nil, err
		}
		if !bad && indexOK && !listed[ref] {
			v.add(abs, ref, storage.ProblemUnreferenced, verifyError(storage.KindArchive, abs, ref, "Archive note is not listed in the index"))
		}
	}
	return found, nil
}

// note checks the note of ref, a regular file, and reports whether it
// had a problem.
func (v *verifier) note(ctx context.Context, ref string) (bool, error) {
	rel, abs := v.a.notePath(ref)
	data, err := v.a.dir.ReadFile(rel)
	if err != nil {
		return true, v.addError(rel, abs, ref, storage.KindArchive, err)
	}
	plain, err := v.a.cs.enc.Decode(ctx, storage.KindArchive, v.a.cs.scope, ref, data)
	if err != nil {
		return true, v.addError(rel, abs, ref, storage.KindArchive, err)
	}
	if refOf(string(plain)) != ref || !utf8.Valid(plain) {
		v.add(abs, ref, storage.ProblemIntegrity, verifyError(storage.KindArchive, abs, ref, "Archive integrity mismatch"))
		return true, nil
	}
	return false, nil
}
