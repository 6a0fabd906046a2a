package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
	"github.com/lite-agent/lite-agent-go/storage"
)

// describe is the one line the CLI prints for a failed command: the
// error's text, or, for records written under another codec configuration,
// what to pass instead.
func describe(err error) string {
	var se *storage.Error
	if errors.As(err, &se) && se.CodecMismatch() {
		kind := string(se.Kind)
		if kind == "" {
			kind = "storage"
		}
		return kind + ": " + verify.MismatchHint(se.Found, 0, 0)
	}
	return err.Error() + notDirectoryHint(err)
}

// layoutName reports whether name is that of a directory of the data home
// or project config layout: projects, a project hash, sessions, tasks,
// spill, skills, agents, a context archive, or .<namespace>.
func layoutName(name string) bool {
	switch name {
	case storage.ProjectsDirName, storage.SessionsDirName, storage.TasksDirName, storage.SpillDirName, "skills", "agents":
		return true
	}
	if _, _, ok := storage.ParseContextDirName(name); ok {
		return true
	}
	ns, hidden := strings.CutPrefix(name, ".")
	return storage.IsProjectHash(name) || hidden && storage.ValidateNamespace(ns) == nil
}

// notDirectoryHint names the file that stands where a directory should be
// when err is a call that failed with ENOTDIR: the failing path itself (a
// directory opened with O_DIRECTORY) or the nearest existing one above it,
// which the call's own text does not say. It returns "" when there is none
// to name.
func notDirectoryHint(err error) string {
	var pe *fs.PathError
	if !errors.Is(err, syscall.ENOTDIR) || !errors.As(err, &pe) {
		return ""
	}
	for p := pe.Path; ; p = filepath.Dir(p) {
		info, err := os.Lstat(p)
		if err == nil {
			if !info.Mode().IsRegular() {
				return ""
			}
			if !layoutName(filepath.Base(p)) {
				// A path the user gave (a key file, an audit log) runs
				// through it: the file may be anything, a private key
				// say, and is not to be moved.
				return fmt.Sprintf(" (%s is a file, not a directory)", p)
			}
			return fmt.Sprintf(" (%s is a file where a directory should be: move it away)", p)
		}
		if filepath.Dir(p) == p {
			return ""
		}
	}
}
