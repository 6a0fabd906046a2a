package filelock

import (
	"errors"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames from to to unless to exists, atomically: it
// fails with an error matching fs.ErrExist if to exists, and with
// errors.ErrUnsupported if the file system cannot rename that way.
func renameNoReplace(from, to string) error {
	err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return errors.ErrUnsupported
	}
	return err
}

// exchange swaps the entries a and b atomically; both must exist. It
// fails with errors.ErrUnsupported if the file system cannot.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return errors.ErrUnsupported
	}
	return err
}

// exchangeAt is exchange of the entries a and b of the open directory
// dirfd.
func exchangeAt(dirfd int, a, b string) error {
	for {
		err := unix.Renameat2(dirfd, a, dirfd, b, unix.RENAME_EXCHANGE)
		switch {
		case err == unix.EINTR:
			continue
		case errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS):
			return errors.ErrUnsupported
		}
		return err
	}
}

// renameNoReplaceAt is renameNoReplace of the entries from and to of the
// open directory dirfd.
func renameNoReplaceAt(dirfd int, from, to string) error {
	for {
		err := unix.Renameat2(dirfd, from, dirfd, to, unix.RENAME_NOREPLACE)
		switch {
		case err == unix.EINTR:
			continue
		case errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS):
			return errors.ErrUnsupported
		}
		return err
	}
}
