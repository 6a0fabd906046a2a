//go:build !windows

package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// noLinks reports whether err, from link(2), says the file system has no
// hard links.
func noLinks(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOTSUP) ||
		errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS)
}

// linkNoReplaceIn puts the file old in place under new, both below r,
// failing with an error matching fs.ErrExist if new exists: it links new
// to old through r (link(2) never replaces a name) and leaves old for the
// caller to remove. A file system without hard links gives
// errNoExclusiveMove.
func linkNoReplaceIn(r *os.Root, old, new string) error {
	err := r.Link(old, new)
	if err != nil && !errors.Is(err, fs.ErrExist) && noLinks(err) {
		return fmt.Errorf("%w: %w", errNoExclusiveMove, err)
	}
	return err
}
