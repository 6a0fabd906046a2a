//go:build !unix

package builtin

import (
	"errors"
	"io/fs"
	"os"
)

// errSymlink is the cause when a component of a path to change is a
// symbolic link.
var errSymlink = errors.New("symbolic link on the path")

// A dirHandle is an open directory of the workspace. On this platform it
// is an [os.Root], which keeps every name inside the workspace but may
// follow a link that stays inside; the tools refuse links before opening.
type dirHandle struct {
	root *os.Root
	id   fileID
}

func openWorkspace(real string, want fileID) (*dirHandle, error) {
	r, err := os.OpenRoot(real)
	if err != nil {
		return nil, err
	}
	return &dirHandle{root: r}, nil
}

// workspaceID returns the zero fileID: file identities are not available
// on this platform.
func workspaceID(real string) fileID { return fileID{} }

// idOf returns the zero fileID on this platform.
func idOf(info fs.FileInfo) fileID { return fileID{} }

func (d *dirHandle) openDir(rel string, create bool) (*dirHandle, error) {
	if create && rel != "." {
		if err := d.root.MkdirAll(rel, newDirMode); err != nil {
			return nil, err
		}
	}
	r, err := d.root.OpenRoot(rel)
	if err != nil {
		return nil, openErr(err)
	}
	return &dirHandle{root: r}, nil
}

func openErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fs.ErrNotExist
	}
	return err
}

// chain returns nil: without identities only names are compared.
func (d *dirHandle) chain(root *dirHandle, depth int) ([]fileID, error) { return nil, nil }

func (d *dirHandle) stat(name string) (*fileStat, error) {
	info, err := d.root.Lstat(name)
	if err != nil {
		return nil, err
	}
	return &fileStat{mode: info.Mode(), size: info.Size(), mtime: info.ModTime(), uid: -1, gid: -1}, nil
}

func (d *dirHandle) openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return d.root.OpenFile(name, flag, perm)
}

// readDir returns the entries of d, in directory order.
func (d *dirHandle) readDir() ([]fs.DirEntry, error) {
	f, err := d.root.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

func (d *dirHandle) rename(from, to string) error { return d.root.Rename(from, to) }

func (d *dirHandle) remove(name string) error { return d.root.Remove(name) }

func (d *dirHandle) sync() {
	if f, err := d.root.Open("."); err == nil {
		f.Sync()
		f.Close()
	}
}

func (d *dirHandle) close() { d.root.Close() }
