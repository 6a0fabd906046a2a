//go:build !linux

package filelock

import "errors"

// renameNoReplace is not available here: a plain rename would replace a
// lock another process holds.
func renameNoReplace(from, to string) error { return errors.ErrUnsupported }

// exchange is not available here.
func exchange(a, b string) error { return errors.ErrUnsupported }

// exchangeAt is not available here.
func exchangeAt(dirfd int, a, b string) error { return errors.ErrUnsupported }

// renameNoReplaceAt is not available here either.
func renameNoReplaceAt(dirfd int, from, to string) error { return errors.ErrUnsupported }
