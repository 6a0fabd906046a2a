package safefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/storage"
)

// anchorUnsynced is AnchorUnsynced's anchoring: it makes the missing
// directories of path, telling made each one's real path, and anchors it.
// The directories are made from the last one that exists down, each
// (mkdirat) through a handle on the one above, proven to be the directory
// looked at and no link (see Dir.anchorBelowMade), never by path: a path
// below a data home's projects/<hash> from the home down (the home, and
// what lies above it, may be links, and are followed; the home's own
// missing directories are made from the last existing one above it, the
// same way), any other path from its last existing directory. A path
// that exists whole is anchored as Anchor anchors it. Error texts are
// Anchor's.
func anchorUnsynced(path string, made func(parent *os.Root, real string) error) (*Dir, error) {
	if path == "" {
		return nil, &storage.Error{Op: "open", Message: "storage directory path is empty"}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, (&storage.Error{Op: "open", File: path, Message: "cannot make storage directory absolute"}).WithCause(err)
	}
	home, rest, below := splitHome(abs)
	if !below {
		home, rest = abs, ""
	}
	top, missing, err := lastExisting(home)
	if err != nil {
		return nil, err
	}
	if !below && missing == "" {
		return anchor(abs, nil) // nothing to make: refuses a symlink at abs, as Anchor does
	}
	t, err := anchorHome(top, false)
	if err != nil {
		return nil, err
	}
	return t.anchorBelowMade(filepath.Join(missing, rest), true, made)
}

// lastExisting returns the last directory of path (itself included) that
// exists, looked at by path, and the rest of path below it ("" when path
// exists).
func lastExisting(path string) (top, missing string, err error) {
	for cur := filepath.Clean(path); ; {
		_, err := os.Lstat(cur)
		if err == nil {
			rel, rerr := filepath.Rel(cur, path)
			if rerr != nil || rel == "." {
				rel = ""
			}
			return cur, rel, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", "", (&storage.Error{Op: "open", File: path, Message: "cannot inspect storage directory"}).WithCause(err)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return "", "", (&storage.Error{Op: "open", File: path, Message: "cannot create storage directory"}).WithCause(err)
		}
		cur = parent
	}
}

// madeDirs is what AnchorUnsynced made: a handle on the parent of each
// directory made, outermost first, to sync it through later.
type madeDirs struct {
	parents []*os.Root
	paths   []string // each parent's real path, for errors
}

// add keeps a handle of its own on parent, in which real was just made.
func (m *madeDirs) add(parent *os.Root, real string) error {
	r, err := parent.OpenRoot(".")
	if err != nil {
		return (&storage.Error{Op: "open", File: real, Message: "cannot create storage directory"}).WithCause(err)
	}
	m.parents = append(m.parents, r)
	m.paths = append(m.paths, filepath.Dir(real))
	return nil
}

// sync fsyncs every parent kept, in order, through its handle (see
// syncParents for a parent that cannot be opened), then closes them.
func (m *madeDirs) sync() error {
	defer m.close()
	for i, r := range m.parents {
		if err := syncRoot(r, m.paths[i]); err != nil && !errors.Is(err, fs.ErrPermission) {
			return err
		}
	}
	return nil
}

// close closes the handles kept.
func (m *madeDirs) close() {
	for _, r := range m.parents {
		r.Close()
	}
	m.parents = nil
}
