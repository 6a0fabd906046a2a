package permission

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/helper/chroot"
)

// errGitFilesReadOnly is the answer of gitFiles to every call that would
// change the git directory: the gate only looks at a repository.
var errGitFilesReadOnly = errors.New("the gate reads a git directory and never changes it")

// gitDirFiles returns the file system the history check reads the git
// directory dir through (go-git's storage, its index, packs and loose
// objects). It opens only regular files, and opens them without waiting:
// a FIFO or a device put where git keeps a file (.git/index,
// .git/FETCH_HEAD, a pack) is an error, which makes the line ask,
// instead of a call that waits forever for a writer or reads /dev/zero
// until memory runs out. Nothing through it writes.
func gitDirFiles(dir string) billy.Filesystem {
	return chroot.New(gitFiles{}, dir)
}

// gitFiles is the file system of absolute paths under gitDirFiles'
// chroot.
type gitFiles struct{}

func (gitFiles) Create(string) (billy.File, error) { return nil, errGitFilesReadOnly }

func (g gitFiles) Open(name string) (billy.File, error) { return g.OpenFile(name, os.O_RDONLY, 0) }

func (gitFiles) OpenFile(name string, flag int, _ os.FileMode) (billy.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
		return nil, errGitFilesReadOnly
	}
	f, err := openRule(name, false)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &notRegularError{path: name}
	}
	return gitFile{f}, nil
}

func (gitFiles) Stat(name string) (os.FileInfo, error) { return os.Stat(name) }

func (gitFiles) Rename(string, string) error { return errGitFilesReadOnly }

func (gitFiles) Remove(string) error { return errGitFilesReadOnly }

func (gitFiles) Join(elem ...string) string { return filepath.Join(elem...) }

func (gitFiles) ReadDir(name string) ([]os.FileInfo, error) {
	entries, err := os.ReadDir(name)
	if err != nil {
		return nil, err
	}
	out := make([]os.FileInfo, 0, len(entries))
	for _, e := range entries {
		fi, err := e.Info()
		if errors.Is(err, os.ErrNotExist) {
			continue // removed since the listing
		}
		if err != nil {
			return nil, err
		}
		out = append(out, fi)
	}
	return out, nil
}

func (gitFiles) MkdirAll(string, os.FileMode) error { return errGitFilesReadOnly }

func (gitFiles) Lstat(name string) (os.FileInfo, error) { return os.Lstat(name) }

func (gitFiles) Symlink(string, string) error { return errGitFilesReadOnly }

func (gitFiles) Readlink(name string) (string, error) { return os.Readlink(name) }

func (gitFiles) TempFile(string, string) (billy.File, error) { return nil, errGitFilesReadOnly }

// gitFile is a regular file gitFiles opened for reading. Locks are for
// writers; a reader takes none.
type gitFile struct{ *os.File }

func (gitFile) Lock() error   { return nil }
func (gitFile) Unlock() error { return nil }
