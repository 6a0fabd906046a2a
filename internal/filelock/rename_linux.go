package filelock

import (
	"errors"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames from to to unless to exists, atomically: it
// fails with an error matching fs.ErrExist if to exists, and with
// errors.ErrUnsupported if the file system cannot rename that way.
func renameNoReplace(from, to string) error {
	return renameat2(unix.AT_FDCWD, from, to, unix.RENAME_NOREPLACE)
}

// exchange swaps the entries a and b atomically; both must exist. It
// fails with errors.ErrUnsupported if the file system cannot.
func exchange(a, b string) error {
	return renameat2(unix.AT_FDCWD, a, b, unix.RENAME_EXCHANGE)
}

// exchangeAt is exchange of the entries a and b of the open directory
// dirfd.
func exchangeAt(dirfd int, a, b string) error {
	return renameat2(dirfd, a, b, unix.RENAME_EXCHANGE)
}

// renameNoReplaceAt is renameNoReplace of the entries from and to of the
// open directory dirfd.
func renameNoReplaceAt(dirfd int, from, to string) error {
	return renameat2(dirfd, from, to, unix.RENAME_NOREPLACE)
}

// renameat2 renames from to to, both relative to dirfd (or the working
// directory, for AT_FDCWD), with flags, again when interrupted; a file
// system or kernel that does not know the flags gives
// errors.ErrUnsupported.
func renameat2(dirfd int, from, to string, flags uint) error {
	for {
		err := unix.Renameat2(dirfd, from, dirfd, to, flags)
		switch {
		case err == unix.EINTR:
			continue
		case errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS):
			return errors.ErrUnsupported
		}
		return err
	}
}
