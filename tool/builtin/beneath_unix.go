//go:build unix

package builtin

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// errSymlink is the cause when a component of a path to change is a
// symbolic link.
var errSymlink = errors.New("symbolic link on the path")

// A dirHandle is an open directory of the workspace. Every name given to
// its methods is a single component, resolved relative to the open
// directory itself, so a directory renamed or swapped for a symbolic link
// after it was opened cannot redirect a change.
type dirHandle struct {
	fd int
	id fileID
}

// openWorkspace opens the real workspace directory and checks that it is
// still the one the tools were built on.
func openWorkspace(real string, want fileID) (*dirHandle, error) {
	fd, err := unix.Open(real, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: real, Err: err}
	}
	d, err := newDirHandle(fd)
	if err != nil {
		return nil, err
	}
	if want != (fileID{}) && d.id != want {
		d.close()
		return nil, errors.New("the workspace directory was replaced")
	}
	return d, nil
}

func newDirHandle(fd int) (*dirHandle, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return &dirHandle{fd: fd, id: fileID{uint64(st.Dev), uint64(st.Ino)}}, nil
}

// workspaceID returns the identity of the directory real, or the zero
// fileID when it cannot be read.
func workspaceID(real string) fileID {
	info, err := os.Stat(real)
	if err != nil {
		return fileID{}
	}
	return idOf(info)
}

// idOf returns the identity of the file info describes.
func idOf(info fs.FileInfo) fileID {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(st.Dev), uint64(st.Ino)}
	}
	return fileID{}
}

// openDir opens rel, a clean relative path without "..", below d, refusing
// every symbolic link on the way. With create, missing directories are
// made. It returns an error matching fs.ErrNotExist when a component is
// missing and errSymlink when one is a link.
func (d *dirHandle) openDir(rel string, create bool) (*dirHandle, error) {
	if rel == "." {
		fd, err := unix.Dup(d.fd)
		if err != nil {
			return nil, err
		}
		unix.CloseOnExec(fd)
		return newDirHandle(fd)
	}
	fd, err := openat2Beneath(d.fd, rel)
	if err == nil {
		return newDirHandle(fd)
	}
	if errors.Is(err, unix.ELOOP) {
		return nil, errSymlink
	}
	if !errors.Is(err, unix.ENOSYS) && !(create && errors.Is(err, unix.ENOENT)) {
		return nil, openErr(err)
	}
	return d.walk(rel, create)
}

// walk opens rel below d one component at a time, each opened without
// following a link from the directory before it: the fallback without
// openat2, and the way to make missing directories.
func (d *dirHandle) walk(rel string, create bool) (*dirHandle, error) {
	cur := d
	for _, name := range splitRel(rel) {
		next, err := cur.openChild(name, create)
		if cur != d {
			cur.close()
		}
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// openChild opens the directory name in d, making it first with create.
func (d *dirHandle) openChild(name string, create bool) (*dirHandle, error) {
	const flags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fd, err := unix.Openat(d.fd, name, flags, 0)
	if errors.Is(err, unix.ENOENT) && create {
		if err := unix.Mkdirat(d.fd, name, newDirMode); err != nil && !errors.Is(err, unix.EEXIST) {
			return nil, err
		}
		fd, err = unix.Openat(d.fd, name, flags, 0)
	}
	if err != nil {
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			if st, serr := d.stat(name); serr == nil && st.mode&fs.ModeSymlink != 0 {
				return nil, errSymlink
			}
		}
		return nil, openErr(err)
	}
	return newDirHandle(fd)
}

// openErr maps a failure to open a directory on the path to what the
// tools report: a missing component or a file in the way is not found.
func openErr(err error) error {
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return fs.ErrNotExist
	}
	return err
}

// chain returns the identities of the directories from the workspace
// root down to d, which was opened depth components below it, found by
// walking up through "..". It fails with errChanged when the walk does not
// end at root: a directory on the path was moved meanwhile.
func (d *dirHandle) chain(root *dirHandle, depth int) ([]fileID, error) {
	ids := make([]fileID, depth+1)
	ids[depth] = d.id
	cur := d
	defer func() {
		if cur != d {
			cur.close()
		}
	}()
	for i := depth - 1; i >= 0; i-- {
		fd, err := unix.Openat(cur.fd, "..", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, err
		}
		up, err := newDirHandle(fd)
		if err != nil {
			return nil, err
		}
		if cur != d {
			cur.close()
		}
		cur = up
		ids[i] = up.id
	}
	if ids[0] != root.id {
		return nil, errChanged
	}
	return ids, nil
}

// stat describes the file name in d without following a link.
func (d *dirHandle) stat(name string) (*fileStat, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	return &fileStat{
		mode:  unixMode(uint32(st.Mode)),
		size:  st.Size,
		mtime: time.Unix(st.Mtim.Unix()),
		id:    fileID{uint64(st.Dev), uint64(st.Ino)},
		uid:   int(st.Uid),
		gid:   int(st.Gid),
	}, nil
}

// unixMode converts st_mode to an fs.FileMode.
func unixMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

// openFile opens the file name in d, never following a link.
func (d *dirHandle) openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, err := unix.Openat(d.fd, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

// readDir returns the entries of d, read through a new open of d itself
// (so that d's own offset does not move), in directory order. Their Type
// is that of the entry, never followed; their Info must not be used: it
// would look the name up by a path.
func (d *dirHandle) readDir() ([]fs.DirEntry, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: ".", Err: err}
	}
	f := os.NewFile(uintptr(fd), ".")
	defer f.Close()
	return f.ReadDir(-1)
}

// rename renames from to to, both in d; to is replaced, never followed.
func (d *dirHandle) rename(from, to string) error {
	if err := unix.Renameat(d.fd, from, d.fd, to); err != nil {
		return &fs.PathError{Op: "rename", Path: to, Err: err}
	}
	return nil
}

// remove unlinks the file name in d; a directory is refused.
func (d *dirHandle) remove(name string) error {
	if err := unix.Unlinkat(d.fd, name, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: name, Err: err}
	}
	return nil
}

// sync makes the changes to d's entries durable, as far as the file
// system allows; it is best effort.
func (d *dirHandle) sync() { _ = unix.Fsync(d.fd) }

func (d *dirHandle) close() { unix.Close(d.fd) }
