//go:build unix

// Package nonregular makes, for tests, the entries other than a regular
// file that a store may find where it expects one: a directory that holds
// a file, a symlink to a file, a named pipe. A test that checks a reader
// refuses them without following the link, opening the pipe or removing
// what the directory holds ranges over [Kinds].
package nonregular

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Kind is one kind of entry that is not a regular file.
type Kind struct {
	// Name names the kind in a subtest: "directory", "symlink",
	// "named pipe".
	Name string
	// Word is how an error message names an entry of the kind: "a
	// directory", "a symlink", "a named pipe".
	Word string
	// Type is the kind's type bits: fs.ModeDir, fs.ModeSymlink or
	// fs.ModeNamedPipe.
	Type fs.FileMode
	// Make makes an entry of the kind at path: a directory that holds a
	// file named "mine", a symlink to a file in another temporary
	// directory, or a named pipe. It fails t if it cannot.
	Make func(t testing.TB, path string)
}

// Kinds returns the three kinds, in the order directory, symlink, named
// pipe.
func Kinds() []Kind {
	return []Kind{
		{"directory", "a directory", fs.ModeDir, func(t testing.TB, path string) {
			t.Helper()
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(path, "mine"), []byte("mine"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"symlink", "a symlink", fs.ModeSymlink, func(t testing.TB, path string) {
			t.Helper()
			target := filepath.Join(t.TempDir(), "target")
			if err := os.WriteFile(target, []byte("target"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"named pipe", "a named pipe", fs.ModeNamedPipe, func(t testing.TB, path string) {
			t.Helper()
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	}
}
