package postgres

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A srcDir is a directory of the file home that [Project.ImportFiles]
// copies, or that a verification reads back: anchored from the data home
// down (safefs.AnchorExisting, never made), so that every listing, look
// and read in it goes through a handle proven to be that directory (see
// safefs.Dir), and another local user who exchanges projects/, the
// project's directory or one below it with a symlink, at any moment,
// makes the read fail with a *storage.Error instead of reading what the
// link leads to. A directory that does not exist is an empty one (d nil),
// as a listing by path found it. Errors name the files under path, the
// directory as the layout names it (its real path differs when the data
// home is reached through a link), as the reads by path named them.
type srcDir struct {
	d    *safefs.Dir // nil: the directory does not exist
	path string
}

// openSrcDir anchors the directory path of the file home.
func openSrcDir(path string) (srcDir, error) {
	d, err := safefs.AnchorExisting(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return srcDir{path: path}, nil
	case err != nil:
		return srcDir{}, err
	}
	return srcDir{d: d, path: path}, nil
}

// sub anchors the directory name below s, through s's handle.
func (s srcDir) sub(name string) (srcDir, error) {
	path := filepath.Join(s.path, name)
	if s.d == nil {
		return srcDir{path: path}, nil
	}
	d, err := s.d.AnchorExisting(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return srcDir{path: path}, nil
	case err != nil:
		return srcDir{}, s.named(err)
	}
	return srcDir{d: d, path: path}, nil
}

// Path returns the directory's path, for errors (session.KeptDir).
func (s srcDir) Path() string { return s.path }

// list lists the directory in name order; nothing when it does not exist.
func (s srcDir) list() ([]fs.DirEntry, error) {
	if s.d == nil {
		return nil, nil
	}
	ents, err := s.d.ReadDir("")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // removed since it was anchored
	}
	return ents, s.named(err)
}

// lstat describes the entry name without following a symlink. A missing
// entry, or directory, matches fs.ErrNotExist.
func (s srcDir) lstat(name string) (fs.FileInfo, error) {
	if s.d == nil {
		return nil, &fs.PathError{Op: "lstat", Path: filepath.Join(s.path, name), Err: fs.ErrNotExist}
	}
	st, err := s.d.Lstat(name)
	return st, s.named(err)
}

// exists reports whether the entry name is there; when that cannot be
// told, it is (as task.IsShared tells a list's mark).
func (s srcDir) exists(name string) bool {
	_, err := s.lstat(name)
	return !errors.Is(err, fs.ErrNotExist)
}

// readFile reads the file name as safefs.ReadFile reads one, with its
// errors: a symlink, a FIFO, device or socket, and a file over
// safefs.MaxReadBytes are refused. A missing file matches fs.ErrNotExist.
func (s srcDir) readFile(name string) ([]byte, error) {
	if s.d == nil {
		return safefs.ReadFile(filepath.Join(s.path, name)) // missing: its error
	}
	b, err := s.d.ReadFile(name)
	return b, s.named(err)
}

// open opens the file name for reading as safefs.OpenFile opens one
// (refusing a symlink with an error matching syscall.ELOOP, never waiting
// on a FIFO), with its errors. The caller checks the file's mode.
func (s srcDir) open(name string) (*os.File, error) {
	if s.d == nil {
		return safefs.OpenFile(filepath.Join(s.path, name), os.O_RDONLY, 0) // missing: its error
	}
	f, err := s.d.OpenFile(name, os.O_RDONLY, 0)
	return f, s.named(err)
}

// ReadHead returns at most the first max bytes of the regular file name,
// as session.PathDir reads them (safefs.ReadRegular), through the handle
// (session.KeptDir).
func (s srcDir) ReadHead(name string, max int) ([]byte, error) {
	f, err := s.open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", filepath.Join(s.path, name))
	}
	return io.ReadAll(io.LimitReader(f, int64(max)))
}

// checkComplete refuses the directory when it holds a migration's marker
// (migrate.MarkerName), looked at through the handle, with the error
// migrate.CheckComplete gives.
func (s srcDir) checkComplete() error {
	_, err := s.lstat(migrate.MarkerName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	}
	// As migrate.CheckComplete words it.
	return fmt.Errorf("%w: %s was left by a migration that did not finish; run the migration again or delete the destination", migrate.ErrIncomplete, filepath.Join(s.path, migrate.MarkerName))
}

// named returns err naming its file under s.path rather than under the
// directory's real path: in the *storage.Error, or the *fs.PathError of a
// failed open (see safefs.Dir.OpenFile).
func (s srcDir) named(err error) error {
	if err == nil || s.d == nil || s.d.Real() == s.path {
		return err
	}
	swap := func(p string) (string, bool) {
		rest, ok := strings.CutPrefix(p, s.d.Real())
		if !ok || rest != "" && rest[0] != filepath.Separator {
			return p, false
		}
		return s.path + rest, true
	}
	switch e := err.(type) {
	case *storage.Error:
		if p, ok := swap(e.File); ok {
			return e.At(p, "")
		}
	case *fs.PathError:
		if p, ok := swap(e.Path); ok {
			c := *e
			c.Path = p
			return &c
		}
	}
	return err
}
