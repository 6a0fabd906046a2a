package safefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
)

// Every operation of a Dir that writes, truncates, renames, removes,
// changes times or reads acts through a handle on the directory (an
// os.Root, opened for that one operation and closed after it) that is
// proven to be the anchored directory: opened by its real path, then
// compared (device and inode) with the directory seen at anchoring. The
// names below it are then looked up by openat(2) relative to the handle,
// never again through the path above it, so a component of that path
// renamed, or exchanged with a symlink (renameat2 RENAME_EXCHANGE), at any
// moment cannot make the operation act outside the anchored directory: the
// handle is the directory anchored, or the operation fails with "Storage
// directory changed". One handle per operation costs an open, an fstat and
// a close; a Dir keeps no descriptor open, so it needs no Close and a
// directory renamed away and recreated is still detected as before.

// changedError is the refusal of a directory that is no longer the one
// anchored. Its cause is deliberately not wrapped: a vanished directory
// must not look like a missing record to callers testing fs.ErrNotExist.
func (d *Dir) changedError() error {
	return &storage.Error{Op: "open", File: d.path, Message: "Storage directory changed"}
}

// root opens the anchored directory and proves it is the one anchored (see
// above). The caller closes it. The proof is the handle's identity; Check's
// look at the path, which also refuses a symlink there that leads to the
// anchored directory itself (renamed), is left to Check: such a handle is
// the anchored directory. The given path is still looked at when it is not
// the real one (a data home reached through a link), as Check does.
func (d *Dir) root() (*os.Root, error) {
	if d.path != d.real {
		if err := d.Check(); err != nil {
			return nil, err
		}
	}
	r, err := os.OpenRoot(d.real)
	if err != nil {
		return nil, d.changedError()
	}
	st, err := r.Stat(".")
	if err != nil || !os.SameFile(st, d.st) {
		r.Close()
		return nil, d.changedError()
	}
	return r, nil
}

// relParts splits rel into its components, refusing an absolute rel and
// "..", as Resolve does. "" and "." give no components.
func (d *Dir) relParts(rel string) ([]string, error) {
	if filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") {
		return nil, &storage.Error{Op: "resolve", File: filepath.Join(d.path, filepath.Base(rel)), Message: "Path escapes workspace: " + rel}
	}
	var parts []string
	for _, p := range strings.Split(filepath.ToSlash(rel), "/") {
		switch p {
		case "", ".":
			continue
		case "..":
			return nil, &storage.Error{Op: "resolve", File: d.path, Message: "Path escapes workspace: " + rel}
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// An op is one operation's view of a name below a Dir: the proven handle,
// the name relative to it, and its path (for errors and file names).
type op struct {
	r    *os.Root
	base string // d.real
	rel  string // cleaned, without "." components; "." for the directory
	path string // base joined with rel
}

func (o op) close() { o.r.Close() }

// open proves the directory (root) and checks rel below it as Resolve does
// (no component that exists may be a symlink), looking each component up
// through the handle. With lastLink, the last component is not looked at:
// the operation acts on the entry itself (lstat, remove, rename), or opens
// it with openFile, which refuses a symlink after the open.
func (d *Dir) open(rel string, lastLink bool) (op, error) {
	parts, err := d.relParts(rel)
	if err != nil {
		return op{}, err
	}
	r, err := d.root()
	if err != nil {
		return op{}, err
	}
	o := op{r: r, base: d.real, rel: ".", path: d.real}
	if len(parts) > 0 {
		o.rel = filepath.Join(parts...)
		o.path = filepath.Join(d.real, o.rel)
	}
	check := len(parts)
	if lastLink {
		check--
	}
	cur := ""
	for i := 0; i < check; i++ {
		cur = filepath.Join(cur, parts[i])
		st, err := r.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return o, nil // missing components are allowed, as in Resolve
		case err != nil:
			r.Close()
			return op{}, (&storage.Error{Op: "resolve", File: filepath.Join(d.real, cur), Message: "cannot inspect path"}).WithCause(err)
		case linkLike(st.Mode()):
			r.Close()
			return op{}, &storage.Error{Op: "resolve", File: filepath.Join(d.real, cur), Message: "Symlink paths are not allowed for read: " + rel}
		}
	}
	return o, nil
}

// openFile opens o's name through the handle with flag (plus the flags that
// never wait on a FIFO or take a terminal), and refuses, as OpenFile does
// with ELOOP, a name that is a symlink: open has looked at the name before,
// but os.Root follows a symlink that stays inside the directory, so the
// entry is looked at again after the open and must be the file opened.
//
// It returns the open file's fstat too, so that callers need not take it
// again.
func (o op) openFile(flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	if flag&os.O_CREATE != 0 && flag&os.O_EXCL == 0 {
		// Create nothing through a (dangling) symlink, not even inside.
		if st, err := o.r.Lstat(o.rel); err == nil && linkLike(st.Mode()) {
			return nil, nil, &fs.PathError{Op: "open", Path: o.path, Err: syscall.ELOOP}
		}
	}
	f, err := o.r.OpenFile(o.rel, flag|rootOpenFlags, perm)
	if err != nil {
		// A symlink leading out of the directory fails as an escape:
		// report it as the symlink it is.
		if st, lerr := o.r.Lstat(o.rel); lerr == nil && linkLike(st.Mode()) {
			err = &fs.PathError{Op: "open", Path: o.path, Err: syscall.ELOOP}
		}
		return nil, nil, err
	}
	opened, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	after, err := o.r.Lstat(o.rel)
	if err != nil || linkLike(after.Mode()) || !os.SameFile(opened, after) {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: o.path, Err: syscall.ELOOP}
	}
	return f, opened, nil
}

// mkdirParent creates the directory of o's name and its missing parents
// through the handle (mode DirMode), refusing a symlink on the way, and
// fsyncs the parent of each directory it created, outermost first.
func (o op) mkdirParent() error {
	dir := filepath.Dir(o.rel)
	if dir == "." {
		return nil
	}
	made, err := mkdirAllIn(o.r, dir)
	if err != nil {
		return err
	}
	created := make([]string, len(made))
	for i, c := range made {
		created[i] = filepath.Join(o.base, c)
	}
	return syncParents(created)
}

// Anchor anchors the directory rel below d, creating it and its missing
// parents (0700) if needed, as [Anchor] anchors a path; AnchorExisting
// never creates it. Each component is made (mkdirat) and opened through
// the directory above it, never through a path: it must be a directory, no
// symlink, and the directory opened must be the entry looked at, so no
// link swapped in at any moment leads the anchoring elsewhere. The
// returned Dir's path and real path are d's joined with rel. Errors are
// *storage.Error, with Anchor's texts.
func (d *Dir) Anchor(rel string) (*Dir, error) { return d.anchorBelow(rel, true) }

// AnchorExisting is [Dir.Anchor] without creating anything: a missing
// component fails with a *storage.Error that matches fs.ErrNotExist.
func (d *Dir) AnchorExisting(rel string) (*Dir, error) { return d.anchorBelow(rel, false) }

func (d *Dir) anchorBelow(rel string, create bool) (*Dir, error) {
	return d.anchorBelowMade(rel, create, syncMade)
}

// syncMade makes the entry of the directory real, just made in parent,
// durable: a sync of parent, opened through its handle, which one that
// cannot be opened (mode 0300) spares.
func syncMade(parent *os.Root, real string) error {
	if err := syncRoot(parent, filepath.Dir(real)); err != nil && !errors.Is(err, fs.ErrPermission) {
		return err
	}
	return nil
}

// anchorBelowMade is anchorBelow, calling made with the handle of the
// parent and the real path of each directory it made, right after making
// it; an error made returns fails the anchoring.
func (d *Dir) anchorBelowMade(rel string, create bool, made func(parent *os.Root, real string) error) (*Dir, error) {
	parts, err := d.relParts(rel)
	if err != nil {
		return nil, err
	}
	cur, err := d.root()
	if err != nil {
		return nil, err
	}
	defer func() { cur.Close() }()
	path, real, st := d.path, d.real, d.st
	for _, name := range parts {
		path, real = filepath.Join(path, name), filepath.Join(real, name)
		est, err := cur.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) && create {
			if err = cur.Mkdir(name, DirMode); err == nil || errors.Is(err, fs.ErrExist) {
				if err == nil {
					if merr := made(cur, real); merr != nil {
						return nil, merr
					}
				}
				est, err = cur.Lstat(name)
			}
		}
		switch {
		case errors.Is(err, fs.ErrNotExist) && !create:
			return nil, (&storage.Error{Op: "open", File: path, Message: "cannot inspect storage directory"}).WithCause(err)
		case err != nil:
			return nil, (&storage.Error{Op: "open", File: path, Message: "cannot create storage directory"}).WithCause(err)
		case est.Mode()&fs.ModeSymlink != 0:
			return nil, &storage.Error{Op: "open", File: path, Message: "Storage directory must not be a symlink"}
		case !est.IsDir():
			return nil, &storage.Error{Op: "open", File: path, Message: "Storage directory is not a directory"}
		}
		next, err := cur.OpenRoot(name)
		if err != nil {
			return nil, &storage.Error{Op: "open", File: path, Message: "Storage directory changed"}
		}
		cur.Close()
		cur = next
		if st, err = cur.Stat("."); err != nil || !os.SameFile(st, est) {
			return nil, &storage.Error{Op: "open", File: path, Message: "Storage directory changed"}
		}
	}
	return &Dir{path: path, real: real, st: st}, nil
}

// anchorHome anchors the data home path, which may itself be a symbolic
// link (or lie below one): it is followed, and the directory it leads to
// is the Dir, under its real path. With create it is made first.
func anchorHome(home string, create bool) (*Dir, error) {
	if create {
		if err := mkdirAll(home); err != nil {
			return nil, (&storage.Error{Op: "open", File: home, Message: "cannot create storage directory"}).WithCause(err)
		}
	}
	real, err := filepath.EvalSymlinks(home)
	if err != nil {
		return nil, (&storage.Error{Op: "open", File: home, Message: "cannot resolve storage directory"}).WithCause(err)
	}
	st, err := os.Lstat(real)
	if err != nil {
		return nil, (&storage.Error{Op: "open", File: home, Message: "cannot inspect storage directory"}).WithCause(err)
	}
	if !st.IsDir() {
		return nil, &storage.Error{Op: "open", File: home, Message: "Storage directory is not a directory"}
	}
	return &Dir{path: home, real: real, st: st, followed: true}, nil
}

// splitHome finds, in the absolute path abs, the data home layout's
// <home>/projects/<project hash>: it returns the home and the rest of abs
// from "projects" on, and ok. A path without that pair (the last one when
// there are several) is not below a data home.
func splitHome(abs string) (home, rest string, ok bool) {
	parts := strings.Split(filepath.ToSlash(abs), "/")
	for i := len(parts) - 2; i >= 1; i-- {
		if parts[i] == storage.ProjectsDirName && storage.IsProjectHash(parts[i+1]) {
			home = filepath.FromSlash(strings.Join(parts[:i], "/"))
			if home == "" || strings.HasSuffix(home, ":") {
				home += string(filepath.Separator)
			}
			return home, filepath.Join(parts[i:]...), true
		}
	}
	return "", "", false
}

// openDir opens o's name, a directory, for listing through the handle.
func (o op) openDir() (*os.File, error) {
	f, _, err := o.openFile(os.O_RDONLY, 0)
	return f, err
}

// touch is Touch through the handle: a file with more than one hard link
// is refused, and the times are set on the entry, never through a symlink.
func (o op) touch(t time.Time) error {
	if st, err := o.r.Lstat(o.rel); err == nil && st.Mode().IsRegular() && LinkCount(st) > 1 {
		return &storage.Error{Op: "write", File: o.path, Message: hardLinkedMessage}
	}
	return touchIn(o.r, o.rel, t)
}

// parentFile opens the directory holding rel (relative to r) through r,
// for the *at system calls os.Root has no method for, and returns it with
// rel's last component.
func parentFile(r *os.Root, rel string) (*os.File, string, error) {
	dir, base := filepath.Split(rel)
	if dir == "" {
		dir = "."
	}
	f, err := r.OpenFile(dir, os.O_RDONLY|rootOpenFlags, 0)
	if err != nil {
		return nil, "", err
	}
	if st, err := f.Stat(); err != nil || !st.IsDir() {
		f.Close()
		return nil, "", &fs.PathError{Op: "open", Path: dir, Err: syscall.ENOTDIR}
	}
	return f, base, nil
}

// OpenFile opens rel below the directory as [OpenFile] opens a path
// (refusing a symlink as its last component with an error matching
// syscall.ELOOP, never waiting on a FIFO), but through the proven handle
// (see [Dir.Anchor]): no component of the path above the directory is
// looked up again, and no existing component of rel may be a symlink
// either. A directory that is no longer the one anchored, or a symlink
// component, fails with a *storage.Error; the open's own failure is
// returned as OpenFile returns it. The caller checks the file's mode.
func (d *Dir) OpenFile(rel string, flag int, perm fs.FileMode) (*os.File, error) {
	o, err := d.open(rel, true)
	if err != nil {
		return nil, err
	}
	defer o.close()
	f, _, err := o.openFile(flag, perm)
	return f, err
}

// Truncate cuts the file rel to size bytes, through an open as
// [Dir.OpenAppend] makes one: a symlink, a FIFO, device or socket, or a
// file with more than one hard link is refused. Errors are *storage.Error.
func (d *Dir) Truncate(rel string, size int64) error {
	f, err := d.OpenAppend(rel, false)
	if err != nil {
		return err
	}
	err = f.Truncate(size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fileError("write", f.Name(), err)
	}
	return nil
}

// A Handle is a Dir's directory opened once and proven to be the one
// anchored (see [Dir.OpenFile]), for a batch of opens below it, such as a
// listing's reads of every log, that should not pay for a proof each. It
// is safe for concurrent use; Close it when the batch is done.
type Handle struct {
	r    *os.Root
	base string
}

// Handle opens the directory and proves it is the one anchored. Errors are
// *storage.Error.
func (d *Dir) Handle() (*Handle, error) {
	r, err := d.root()
	if err != nil {
		return nil, err
	}
	return &Handle{r: r, base: d.real}, nil
}

// OpenListed opens name, an entry of the directory that a listing (its
// DirEntry's type) showed as no symlink, through the handle, never waiting
// on a FIFO. Unlike [Dir.OpenFile] it does not look at the entry again
// after the open, which would cost a listing of thousands of files a
// quarter of its time: a symlink swapped in at name since the listing is
// followed when it leads to a name inside the directory, and refused
// otherwise, so the open never leaves the directory. The caller checks the
// file's mode.
func (h *Handle) OpenListed(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return nil, &storage.Error{Op: "resolve", File: filepath.Join(h.base, filepath.Base(name)), Message: "Path escapes workspace: " + name}
	}
	return h.r.OpenFile(name, flag|rootOpenFlags, perm)
}

// Close closes the handle.
func (h *Handle) Close() error { return h.r.Close() }
