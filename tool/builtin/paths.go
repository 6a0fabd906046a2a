package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// A SymlinkPolicy says which symbolic links read_file follows. The mutating
// tools never follow or replace one, whatever the policy.
type SymlinkPolicy string

// The symlink policies.
const (
	// SymlinksInside lets read_file follow symbolic links while the file
	// they lead to stays inside the workspace (or inside the read root the
	// path was given in). It is the default.
	SymlinksInside SymlinkPolicy = "inside"
	// SymlinksDeny makes read_file refuse any path with a symbolic link
	// in it.
	SymlinksDeny SymlinkPolicy = "deny"
)

// access is what a tool does with a path, which decides how it resolves.
type access int

const (
	accessRead access = iota
	accessWrite
	accessDelete
)

// String returns the name the error messages use.
func (a access) String() string {
	switch a {
	case accessWrite:
		return "write"
	case accessDelete:
		return "delete"
	default:
		return "read"
	}
}

// A pathError is a path the rules refuse; its text is the model-facing
// message.
type pathError struct{ msg string }

func (e *pathError) Error() string { return e.msg }

func escapesWorkspace(p string) error { return &pathError{"Path escapes workspace: " + p} }
func symlinkEscapes(p string) error   { return &pathError{"Symlink escapes workspace: " + p} }
func symlinkRefused(mode access, p string) error {
	return &pathError{fmt.Sprintf("Symlink paths are not allowed for %s: %s", mode, p)}
}

// workspace resolves the paths the model gives the file tools. It is fixed
// at construction and safe for concurrent use.
type workspace struct {
	dir      string // the workdir as configured, cleaned
	real     string // dir with every symbolic link resolved
	roots    []string
	rootsFor func(ctx context.Context, sessionID string) ([]string, error)
	symlinks SymlinkPolicy
}

// A target is a path resolved by the workspace rules.
type target struct {
	// base is the real directory the path is opened under: the workspace
	// or a read root that is a directory; "" when the path is a read root
	// that is a single file.
	base string
	// rel is the path below base, in OS form, with no "..", no symbolic
	// link left to follow when it was resolved, and "." for base itself.
	// For a single-file read root it is the file's real path.
	rel string
	// inWorkspace reports that base is the workspace.
	inWorkspace bool
	// missing reports that the path did not exist when it was resolved.
	missing bool
}

// real returns the absolute real path t names.
func (t target) real() string {
	if t.base == "" {
		return t.rel
	}
	return filepath.Join(t.base, t.rel)
}

// snapshotPath returns the path a file snapshot records: relative to the
// workspace with "/" separators.
func (t target) snapshotPath() string { return filepath.ToSlash(t.rel) }

// within returns the path of p relative to base when p is base or lies
// below it; both are clean absolute paths.
func within(base, p string) (string, bool) {
	if p == base {
		return ".", true
	}
	prefix := base
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if strings.HasPrefix(p, prefix) {
		return p[len(prefix):], true
	}
	return "", false
}

// resolve applies the path rules to p, the path the model gave, for mode.
//
// A relative p is taken from the workspace; ".." may move within it but not
// out of it. An absolute p must lie inside the workspace (given through the
// configured or the real workdir) or, for reads only, inside a read root.
// Reads follow symbolic links whose target stays where the path was (the
// workspace or the read root), unless the policy is SymlinksDeny; writes
// and deletes refuse every path with a symbolic link in it, a dangling one
// included. A path that does not exist resolves, with missing set.
func (w *workspace) resolve(ctx context.Context, session, p string, mode access) (target, error) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(w.dir, p)
	}
	abs = filepath.Clean(abs)
	rel, ok := within(w.dir, abs)
	if !ok {
		rel, ok = within(w.real, abs)
	}
	if ok {
		return w.resolveBelow(w.real, rel, p, mode, true)
	}
	if mode != accessRead || !filepath.IsAbs(p) {
		return target{}, escapesWorkspace(p)
	}
	roots := w.roots
	if w.rootsFor != nil {
		more, err := w.rootsFor(ctx, session)
		if err != nil {
			return target{}, fmt.Errorf("read roots: %w", err)
		}
		roots = append(append([]string(nil), roots...), more...)
	}
	for _, root := range roots {
		if !filepath.IsAbs(root) {
			continue
		}
		root = filepath.Clean(root)
		real, err := filepath.EvalSymlinks(root)
		if err != nil {
			continue // a root that does not exist holds nothing
		}
		rel, ok := within(root, abs)
		if !ok {
			rel, ok = within(real, abs)
		}
		if !ok {
			continue
		}
		info, err := os.Stat(real)
		if err != nil {
			continue
		}
		if info.IsDir() {
			return w.resolveBelow(real, rel, p, mode, false)
		}
		if rel != "." {
			continue
		}
		return target{rel: real}, nil
	}
	return target{}, escapesWorkspace(p)
}

// resolveBelow resolves rel, a clean relative path without "..", below the
// real directory base.
func (w *workspace) resolveBelow(base, rel, p string, mode access, inWorkspace bool) (target, error) {
	t := target{base: base, rel: rel, inWorkspace: inWorkspace}
	if mode != accessRead || w.symlinks == SymlinksDeny {
		missing, err := checkNoSymlinks(base, rel, p, mode)
		t.missing = missing
		return t, err
	}
	real, err := filepath.EvalSymlinks(filepath.Join(base, rel))
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		t.missing = true
		return t, nil
	case err != nil:
		// A loop, or a component that cannot be read: say what the model
		// can act on without leaking the link's target.
		return target{}, &pathError{fmt.Sprintf("Cannot resolve %s: %v", p, unwrapPathError(err))}
	}
	r, ok := within(base, real)
	if !ok {
		return target{}, symlinkEscapes(p)
	}
	t.rel = r
	return t, nil
}

// checkNoSymlinks reports an error if any component of rel below base is
// a symbolic link, and whether some component does not exist (the
// components after it cannot be links yet).
func checkNoSymlinks(base, rel, p string, mode access) (missing bool, err error) {
	if rel == "." {
		return false, nil
	}
	cur := base
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, c)
		info, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return true, nil
		}
		if err != nil {
			return false, &pathError{fmt.Sprintf("Cannot resolve %s: %v", p, unwrapPathError(err))}
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return false, symlinkRefused(mode, p)
		}
	}
	return false, nil
}

// unwrapPathError returns the cause of an *fs.PathError, whose text would
// name a real path the model did not give.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
