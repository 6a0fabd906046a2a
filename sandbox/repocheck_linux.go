package sandbox

import (
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ctime returns the status change time of fi, which a command cannot set
// back; the zero time when the system does not say.
func ctime(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return time.Time{}
}

// renameNoReplace renames old to new in the directory d, failing with an
// error matching fs.ErrExist when new exists.
func renameNoReplace(d *os.File, old, new string) error {
	fd := int(d.Fd())
	err := unix.Renameat2(fd, old, fd, new, unix.RENAME_NOREPLACE)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: old, New: new, Err: err}
	}
	return nil
}

// memoFS returns the device of the open directory f when its file system
// is one whose directories' status change times the check trusts to
// change with every entry made, removed or renamed (dirMemo): ext2/3/4,
// XFS, Btrfs, tmpfs, F2FS and ZFS. Network, FUSE and overlay file systems
// may report times of their own, and are read in full every time.
func memoFS(d dirHandle) (uint64, bool) {
	var sfs unix.Statfs_t
	if err := unix.Fstatfs(int(d), &sfs); err != nil {
		return 0, false
	}
	switch uint64(sfs.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC, unix.F2FS_SUPER_MAGIC, 0x2fc12fc1 /* ZFS */ :
	default:
		return 0, false
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(d), &st); err != nil {
		return 0, false
	}
	return st.Dev, true
}

// A dirHandle is a directory the walk holds open: on Linux its bare
// descriptor, so that the walk of a large workdir, which opens every
// directory, pays for no *os.File.
type dirHandle int

// handleOf returns a handle on the directory f, which the caller still
// closes.
func handleOf(f *os.File) (dirHandle, error) {
	sc, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	cerr := sc.Control(func(raw uintptr) {
		fd, err = unix.FcntlInt(raw, unix.F_DUPFD_CLOEXEC, 0)
	})
	if cerr != nil {
		return -1, cerr
	}
	if err != nil {
		return -1, &os.PathError{Op: "fcntl", Path: f.Name(), Err: err}
	}
	return dirHandle(fd), nil
}

// openDirAt opens the directory name (one name, no slash) of the open
// directory d, not following a link (O_DIRECTORY fails on a fifo before
// opening it).
func (d dirHandle) openDirAt(name string) (dirHandle, error) {
	fd, err := unix.Openat(int(d), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &os.PathError{Op: "openat", Path: name, Err: err}
	}
	return dirHandle(fd), nil
}

// close closes d.
func (d dirHandle) close() { unix.Close(int(d)) }

// readDir reads the entries of d, in batches, until budget reports that
// the check has read too many; d itself stays open and unread.
func (d dirHandle) readDir(budget func(n int) bool) []fs.DirEntry {
	fd, err := unix.FcntlInt(uintptr(d), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(fd), "")
	defer f.Close()
	return readEntries(f, budget)
}

// stamp returns d's stamp.
func (d dirHandle) stamp() (dirStamp, bool) {
	st, err := statxStamp(int(d), "", unix.AT_EMPTY_PATH)
	return st, err == nil
}

// statxStamp stamps name of dirfd (dirfd itself when name is ""): an
// encrypted directory (fscrypt) has no stamp, as what it lists changes
// with its key, which no time records.
func statxStamp(dirfd int, name string, flags int) (dirStamp, error) {
	var stx unix.Statx_t
	if err := unix.Statx(dirfd, name, flags|unix.AT_SYMLINK_NOFOLLOW, unix.STATX_BASIC_STATS, &stx); err != nil {
		return dirStamp{}, err
	}
	if stx.Mode&unix.S_IFMT != unix.S_IFDIR || stx.Attributes&unix.STATX_ATTR_ENCRYPTED != 0 {
		return dirStamp{}, fs.ErrInvalid
	}
	return dirStamp{dev: unix.Mkdev(stx.Dev_major, stx.Dev_minor), ino: stx.Ino,
		ctime: stx.Ctime.Sec*1e9 + int64(stx.Ctime.Nsec)}, nil
}

// stampAt returns the stamp of the directory name (one name) of d,
// without following a link.
func (d dirHandle) stampAt(name string) (dirStamp, error) {
	return statxStamp(int(d), name, 0)
}
