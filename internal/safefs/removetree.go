package safefs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/storage"
)

// RemoveTree removes the directory parent/name and everything in it while
// holding its lock (the directory parent/name.lock), the lock its store
// takes to write there, so that no write of a store in this or another
// process is cut in half. A missing parent or entry is not an error, and
// nothing is created for it. A symlink at name is refused (a *storage.Error
// of kind kind), never followed nor removed. The wait for the lock ends
// when ctx is done.
func RemoveTree(ctx context.Context, kind storage.Kind, parent, name string) error {
	_, err := RemoveTreeUnless(ctx, kind, parent, name, nil)
	return err
}

// RemoveTreeUnless is RemoveTree, except that once the lock is held it
// calls keep, when not nil, with the anchored parent directory, and
// leaves everything as it is if keep reports true. It reports whether it
// removed the tree; a missing entry is not removed and not an error. A
// lock found lost after keep (the process was paused past the stale
// period and a store took the lock over) leaves everything too, with the
// lock's *storage.Error.
func RemoveTreeUnless(ctx context.Context, kind storage.Kind, parent, name string, keep func(parent *Dir) bool) (bool, error) {
	if _, err := os.Lstat(filepath.Join(parent, name)); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	dir, err := Anchor(parent)
	if err != nil {
		return false, err
	}
	st, err := dir.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return false, &storage.Error{Op: "remove", Kind: kind, File: filepath.Join(dir.Path(), name), Message: "Symlink paths are not allowed for delete: " + name}
	}
	l, err := dir.Lock(ctx, name, filelock.Options{})
	if err != nil {
		return false, err
	}
	if keep != nil && keep(dir) {
		return false, l.Release()
	}
	// A remover paused since it took the lock (past the stale period)
	// may have lost it to a store that wrote there since, under the look
	// keep took: what is there now is that store's, and stays.
	if err := l.Check(); err != nil {
		_ = l.Release()
		return false, err
	}
	rmErr := dir.RemoveAll(name)
	if err := l.Release(); rmErr == nil {
		rmErr = err
	}
	return rmErr == nil, rmErr
}
