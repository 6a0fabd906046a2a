// Package migrationmark names the marker of an unfinished migration and
// finds it. The migrate package writes and removes the marker; the agent
// and the CLI refuse a directory that holds it. Store authors never need
// it, so it is not part of storage.
package migrationmark

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Name is the file a migration writes at the root of its destination (a
// data home or a project directory) before anything else and removes after
// everything is written and verified. A directory that holds it is an
// incomplete copy: agents refuse to use it.
const Name = ".migration-incomplete"

// Find reports whether dir holds the marker (of any type: it is not
// followed) and returns the marker's path. A missing dir holds none. The
// error is the one of looking.
func Find(dir string) (path string, found bool, err error) {
	path = filepath.Join(dir, Name)
	_, err = os.Lstat(path)
	switch {
	case err == nil:
		return path, true, nil
	case errors.Is(err, fs.ErrNotExist):
		return path, false, nil
	}
	return path, false, err
}
