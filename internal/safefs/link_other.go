//go:build !windows

package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// linkNoReplace puts the file old in place under new, failing with an
// error matching fs.ErrExist if new exists: it links new to old (link(2)
// never replaces a name) and leaves old for the caller to remove. A file
// system without hard links gives errNoExclusiveMove.
func linkNoReplace(old, new string) error {
	err := os.Link(old, new)
	if err != nil && !errors.Is(err, fs.ErrExist) && noLinks(err) {
		return fmt.Errorf("%w: %w", errNoExclusiveMove, err)
	}
	return err
}

// noLinks reports whether err, from link(2), says the file system has no
// hard links.
func noLinks(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOTSUP) ||
		errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS)
}

// linkNoReplaceIn is linkNoReplace for old and new below r, linking
// through r.
func linkNoReplaceIn(r *os.Root, old, new string) error {
	err := r.Link(old, new)
	if err != nil && !errors.Is(err, fs.ErrExist) && noLinks(err) {
		return fmt.Errorf("%w: %w", errNoExclusiveMove, err)
	}
	return err
}
