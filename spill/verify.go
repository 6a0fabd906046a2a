package spill

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/lite-agent/lite-agent-go/storage"
)

// Verify checks every file of the spill directory whose name ends in
// ".txt", in name order, and returns every problem found, without changing
// or following anything: the name must be <ref>.txt, the file must not be a
// symlink, it must decode as a record of kind "spill", scope "project",
// whose record id is the ref, and its body must hash to the ref. Other
// files, such as the temp files .<ref>.txt.<12 hex>.tmp an interrupted
// write leaves, are not records and are ignored. An empty directory has no
// problems.
//
// Each [storage.Problem] names the file and the ref (Record; "" when the
// name is not <ref>.txt) and has one of these kinds, all damage:
// [storage.ProblemName] (a ".txt" file whose name is not <ref>.txt with a
// ref of 16 lowercase hex characters), [storage.ProblemSymlink],
// [storage.ProblemFile] (not a regular file, or unreadable),
// [storage.ProblemDecode] (refused by the store's encoding) and
// [storage.ProblemIntegrity] (the body does not hash to its ref, "Spilled
// content does not match its ref").
//
// Verify takes no lock: spill files are only ever replaced whole by an
// atomic rename, so it sees each file as it was before or after a
// concurrent Put.
//
// The error reports a failure to verify at all: the spill directory was
// replaced or removed, it could not be listed, or ctx ended. Per-file
// failures, including a file that cannot be read, are Problems.
func (s *FileStore) Verify(ctx context.Context) ([]storage.Problem, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := s.opened(); err != nil {
		return nil, err
	}
	ents, err := s.dir.ReadDir("")
	if err != nil {
		return nil, spillError(err, "", "")
	}
	var problems []storage.Problem
	add := func(file, ref string, kind storage.ProblemKind, err error) {
		problems = append(problems, storage.Problem{File: file, Record: ref, Kind: kind, Err: err})
	}
	for _, ent := range ents { // ReadDir sorts by name
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		name := ent.Name()
		ref, isSpill := strings.CutSuffix(name, ".txt")
		if !isSpill {
			continue
		}
		file := filepath.Join(s.dir.Path(), name)
		if !ValidRef(ref) {
			add(file, "", storage.ProblemName, verifyError(file, "", "Spill file name is not <ref>.txt"))
			continue
		}
		switch t := ent.Type(); {
		case t&fs.ModeSymlink != 0:
			add(file, ref, storage.ProblemSymlink, verifyError(file, ref, "Spill file is a symlink; it is not followed"))
			continue
		case !t.IsRegular():
			add(file, ref, storage.ProblemFile, verifyError(file, ref, "Spill file is not a regular file"))
			continue
		}
		kind, err := s.check(ctx, ref)
		if err == nil {
			continue
		}
		var se *storage.Error
		if !errors.As(err, &se) {
			return nil, err // ctx.Err()
		}
		if kind == storage.ProblemFile {
			if cerr := s.dir.Check(); cerr != nil {
				return nil, spillError(cerr, "", "")
			}
			// Replaced by a symlink since it was listed?
			if st, lerr := s.dir.Lstat(name); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
				kind = storage.ProblemSymlink
			}
		}
		add(file, ref, kind, err)
	}
	return problems, nil
}

// check reads, decodes and hashes the regular file of ref, as Get does,
// and returns the kind of its problem with a *storage.Error naming the file
// and ref, or ctx.Err().
func (s *FileStore) check(ctx context.Context, ref string) (storage.ProblemKind, error) {
	stored, err := s.dir.ReadFile(fileName(ref))
	if err != nil {
		return storage.ProblemFile, s.fileError(err, ref)
	}
	plain, err := s.enc.Decode(ctx, storage.KindSpill, Scope, ref, stored)
	if err != nil {
		return storage.ProblemDecode, s.fileError(err, ref)
	}
	if Ref(string(plain)) != ref {
		return storage.ProblemIntegrity, s.fileError(&storage.Error{Op: "verify", Message: mismatchMessage}, ref)
	}
	return "", nil
}

func verifyError(file, ref, msg string) *storage.Error {
	return &storage.Error{Op: "verify", Kind: storage.KindSpill, File: file, Record: ref, Message: msg}
}
