// Package safefs gives the built-in stores an anchored storage directory:
// created 0700 at construction, refused when it is a symlink, re-checked on
// every use so that a directory replaced after anchoring is detected, and
// resolving record paths component by component so that no symlink and no
// escape is ever followed. Every operation of a [Dir] (reads included)
// acts through a handle on the directory proven to be the one anchored,
// and a directory below a data home's projects/ is anchored from the home
// down without following a link, so that a component of its path swapped
// for a symlink while the operation runs cannot make it act elsewhere (see
// root.go). Locks (Dir.Lock) are taken, refreshed and released relative
// to a handle proven the same way (on Unix systems; see lock_unix.go); the
// paths Resolve returns are still used by path. Files are created 0600; replacements are atomic (temp file in
// the same directory, fsync, rename, fsync of the directory).
package safefs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/storage"
)

// File and directory modes of runtime data.
const (
	DirMode  = 0o700
	FileMode = 0o600
)

// A Dir is an anchored storage directory. It is safe for concurrent use.
type Dir struct {
	path     string      // absolute, clean
	real     string      // realpath at anchoring
	st       fs.FileInfo // lstat at anchoring
	followed bool        // path is a data home, which may be a symlink
}

// Anchor creates path (and its parents) with mode 0700 if needed and anchors
// it: it refuses a symlink and remembers the directory's identity and real
// path for later checks. An empty path is refused: it would anchor the
// working directory, which no store means. Errors are *storage.Error.
//
// A path below a data home's <home>/projects/<project hash> is anchored
// from the home down (see [Dir.Anchor]): the home may be a symlink, or lie
// below one, but each directory from projects/ on is made and opened
// through the one above it, never through a path, so a link swapped in
// there while the anchoring runs is refused instead of followed.
func Anchor(path string) (*Dir, error) { return anchorPath(path, true) }

// AnchorExisting anchors path as [Anchor] does, but never creates it: a
// missing path fails with a *storage.Error that matches fs.ErrNotExist.
func AnchorExisting(path string) (*Dir, error) { return anchorPath(path, false) }

// anchorPath is Anchor (create) or AnchorExisting.
func anchorPath(path string, create bool) (*Dir, error) {
	if path != "" {
		if abs, err := filepath.Abs(path); err == nil {
			if home, rest, ok := splitHome(abs); ok {
				h, err := anchorHome(home, create)
				if err != nil {
					return nil, err
				}
				return h.anchorBelow(rest, create)
			}
		}
	}
	if create {
		return anchor(path, mkdirAll)
	}
	return anchor(path, nil)
}

// AnchorUnsynced anchors path as [Anchor] does, creating it and its missing
// parents, but leaves the new directories' entries to be made durable by
// sync, which it returns: sync fsyncs the parent of every directory it
// created, outermost first, through the handle the directory was made
// through, as Anchor does before it returns (and returns nil at once when
// none was created). Until sync has returned nil, a crash
// of the machine may lose the new directories and everything in them. A
// caller that can let that happen for a while (one that writes a marker
// saying the directory is incomplete, and removes it only once sync has
// returned) can run sync alongside its own work; sync is safe to call from
// another goroutine, once.
//
// The missing directories are made as [Anchor] makes them: each one
// (mkdirat) through the directory above it, from the last one that exists
// down (from the data home down, for a path below one), never through a
// link (see anchorUnsynced).
func AnchorUnsynced(path string) (_ *Dir, sync func() error, _ error) {
	var made madeDirs
	d, err := anchorUnsynced(path, made.add)
	if err != nil {
		made.close()
		return nil, nil, err
	}
	return d, made.sync, nil
}

// anchor anchors path after creating it with mkdir, unless mkdir is nil.
func anchor(path string, mkdir func(string) error) (*Dir, error) {
	if path == "" {
		return nil, &storage.Error{Op: "open", Message: "storage directory path is empty"}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, (&storage.Error{Op: "open", File: path, Message: "cannot make storage directory absolute"}).WithCause(err)
	}
	if mkdir != nil {
		if err := mkdir(abs); err != nil {
			// MkdirAll fails on a symlink to a non-directory; report the symlink.
			if st, lerr := os.Lstat(abs); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
				return nil, &storage.Error{Op: "open", File: abs, Message: "Storage directory must not be a symlink"}
			}
			return nil, (&storage.Error{Op: "open", File: abs, Message: "cannot create storage directory"}).WithCause(err)
		}
	}
	st, err := os.Lstat(abs)
	if err != nil {
		return nil, (&storage.Error{Op: "open", File: abs, Message: "cannot inspect storage directory"}).WithCause(err)
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return nil, &storage.Error{Op: "open", File: abs, Message: "Storage directory must not be a symlink"}
	}
	if !st.IsDir() {
		return nil, &storage.Error{Op: "open", File: abs, Message: "Storage directory is not a directory"}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, (&storage.Error{Op: "open", File: abs, Message: "cannot resolve storage directory"}).WithCause(err)
	}
	return &Dir{path: abs, real: real, st: st}, nil
}

// Path returns the directory's absolute path as it was given.
func (d *Dir) Path() string { return d.path }

// Real returns the directory's real path at anchoring. Paths returned by
// Resolve, and lock directories, are under it.
func (d *Dir) Real() string { return d.real }

// Check verifies that the directory is still the one anchored: not replaced
// by a symlink, not renamed away and recreated. It compares the identity
// (device and inode) of the anchored path, and of the real path that
// Resolve's paths start with, to the directory's at anchoring: a path that
// now leads to another directory, through whichever component, fails. It
// costs one or two lstat calls, as it runs before every file operation.
func (d *Dir) Check() error {
	// The cause is deliberately not wrapped: a vanished directory must not
	// look like a missing record to callers testing fs.ErrNotExist.
	for i, p := range [2]string{d.real, d.path} {
		stat := os.Lstat
		if i == 1 && d.followed {
			stat = os.Stat // the data home may be a symlink
		}
		st, err := stat(p)
		if err != nil || st.Mode()&fs.ModeSymlink != 0 || !os.SameFile(st, d.st) {
			return &storage.Error{Op: "open", File: d.path, Message: "Storage directory changed"}
		}
		if d.path == d.real {
			break
		}
	}
	return nil
}

// Resolve checks the directory and returns the absolute path of rel inside
// it. rel must be relative and must not contain "..". Every component that
// exists must not be a symlink; missing components are allowed so that new
// files can be created.
func (d *Dir) Resolve(rel string) (string, error) {
	if err := d.Check(); err != nil {
		return "", err
	}
	if rel == "" || rel == "." {
		return d.real, nil
	}
	if filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") {
		return "", &storage.Error{Op: "resolve", File: filepath.Join(d.path, filepath.Base(rel)), Message: "Path escapes workspace: " + rel}
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	cur := d.real
	exists := true
	for _, p := range parts {
		switch p {
		case "", ".":
			continue
		case "..":
			return "", &storage.Error{Op: "resolve", File: d.path, Message: "Path escapes workspace: " + rel}
		}
		cur = filepath.Join(cur, p)
		if !exists {
			continue
		}
		st, err := os.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			exists = false
		case err != nil:
			return "", (&storage.Error{Op: "resolve", File: cur, Message: "cannot inspect path"}).WithCause(err)
		case linkLike(st.Mode()):
			return "", &storage.Error{Op: "resolve", File: cur, Message: "Symlink paths are not allowed for read: " + rel}
		}
	}
	return filepath.Join(d.real, filepath.Clean(rel)), nil
}

// linkLike reports whether an entry of mode m leads elsewhere when a path
// goes through it: a symlink, or an entry the system reports as irregular.
// On Windows that is a directory junction (a mount point), which any user
// can create (mklink /J) and which opens as the directory it points to;
// Go reports it as irregular, neither a symlink nor a directory. Unix
// systems never report an irregular entry.
func linkLike(m fs.FileMode) bool { return m&(fs.ModeSymlink|fs.ModeIrregular) != 0 }

// ReadFile returns the contents of rel. A missing file yields an error that
// matches fs.ErrNotExist.
func (d *Dir) ReadFile(rel string) ([]byte, error) {
	o, err := d.open(rel, true)
	if err != nil {
		return nil, err
	}
	defer o.close()
	f, st, err := o.openFile(os.O_RDONLY, 0)
	if err != nil {
		return nil, fileError("read", o.path, err)
	}
	defer f.Close()
	return readOpen(f, st, o.path)
}

// ReadFile returns the contents of the file at p, as [Dir.ReadFile] reads
// one: without following a symlink as its last component or waiting on a
// FIFO, and refusing, as a *storage.Error, a file that is no regular file
// or is over MaxReadBytes. A missing file yields an error that matches
// fs.ErrNotExist.
func ReadFile(p string) ([]byte, error) {
	f, err := OpenFile(p, os.O_RDONLY, 0)
	if err != nil {
		return nil, fileError("read", p, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fileError("read", p, err)
	}
	return readOpen(f, st, p)
}

// readOpen is ReadFile's read of the open file f at p, described by st.
func readOpen(f *os.File, st fs.FileInfo, p string) ([]byte, error) {
	if err := special("read", p, st); err != nil {
		return nil, err
	}
	if st.Size() > MaxReadBytes {
		return nil, tooLargeError(p)
	}
	if err := CheckHoles("read", p, f, st.Size()); err != nil {
		return nil, err
	}
	// The size is a hint: read at most one byte past the limit, so that a
	// file growing meanwhile is refused too.
	b, err := io.ReadAll(io.LimitReader(f, MaxReadBytes+1))
	if err != nil {
		return nil, fileError("read", p, err)
	}
	if len(b) > MaxReadBytes {
		return nil, tooLargeError(p)
	}
	return b, nil
}

// MaxReadBytes is the largest file ReadFile reads: 1 GiB, four times a
// session log's longest line (session.MaxLineBytes), which bounds what the
// agent ever writes as one record (a task, an archived result, a spilled
// body). A larger file, which only a planted one can be (a sparse file
// costs no disk), is refused before it is read, rather than held in memory.
const MaxReadBytes = 1 << 30

// tooLargeError is ReadFile's refusal of a file over MaxReadBytes.
func tooLargeError(p string) error {
	return &storage.Error{Op: "read", File: p, Message: "Storage file is larger than 1 GiB; refusing to read it"}
}

// Lstat returns information about rel without following a final symlink.
func (d *Dir) Lstat(rel string) (fs.FileInfo, error) {
	o, err := d.open(rel, true)
	if err != nil {
		return nil, err
	}
	defer o.close()
	st, err := o.r.Lstat(o.rel)
	if err != nil {
		return nil, fileError("stat", o.path, err)
	}
	return st, nil
}

// ReadDir lists the directory rel ("" for the anchored directory itself).
func (d *Dir) ReadDir(rel string) ([]fs.DirEntry, error) {
	return d.ReadDirContext(context.Background(), rel)
}

// readDirBatch is how many entries ReadDirContext reads between two
// looks at its ctx.
const readDirBatch = 256

// ReadDirContext lists the directory rel as [Dir.ReadDir] does, in name
// order, reading it in batches and checking ctx before each: a ctx done
// before or during the listing stops it with ctx's error.
func (d *Dir) ReadDirContext(ctx context.Context, rel string) ([]fs.DirEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o, err := d.open(rel, true)
	if err != nil {
		return nil, err
	}
	defer o.close()
	p := o.path
	f, err := o.openDir()
	if err != nil {
		return nil, fileError("list", p, err)
	}
	defer f.Close()
	var ents []fs.DirEntry
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		batch, err := f.ReadDir(readDirBatch)
		ents = append(ents, batch...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fileError("list", p, err)
		}
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}

// OpenAppend opens rel for appending (O_APPEND, never following a
// symlink). A missing file is created 0600 only with create; otherwise
// OpenAppend returns an error matching fs.ErrNotExist. A FIFO, device or
// socket is refused (IsNotRegular), and so is a file with more than one
// hard link (IsHardLinked), which writing would change under its other
// names too. The caller writes
// with one Write per record batch, calls SyncData for durability, and
// SyncDir(filepath.Dir(f.Name())) after creating the file.
func (d *Dir) OpenAppend(rel string, create bool) (*os.File, error) {
	o, err := d.open(rel, true)
	if err != nil {
		return nil, err
	}
	defer o.close()
	f, _, err := o.openAppend(create)
	return f, err
}

// openAppend is OpenAppend through the proven handle of o.
func (o op) openAppend(create bool) (*os.File, fs.FileInfo, error) {
	p := o.path
	flags := os.O_WRONLY | os.O_APPEND
	if create {
		flags |= os.O_CREATE
	}
	f, st, err := o.openFile(flags, FileMode)
	if err != nil {
		return nil, nil, fileError("write", p, err)
	}
	err = special("write", p, st)
	if err == nil && st.Mode().IsRegular() && LinkCount(st) > 1 {
		// Another name of the same file may lie outside the data home (a
		// link planted in a copied or shared home): an append, or the cut
		// of a torn tail, would change that file too. Atomic replacements
		// (WriteFile) only replace the name and need no such check.
		err = &storage.Error{Op: "write", File: p, Message: hardLinkedMessage}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// hardLinkedMessage is the text of OpenAppend's refusal of a file with more
// than one hard link.
const hardLinkedMessage = "Storage file has more than one hard link; refusing to write through it"

// IsHardLinked reports whether err is OpenAppend's refusal of a file with
// more than one hard link.
func IsHardLinked(err error) bool {
	var se *storage.Error
	return errors.As(err, &se) && se.Message == hardLinkedMessage
}

// ReadRegular reads the file at p, at most max bytes of it when max is
// not negative, without following a symlink as its last component or
// waiting on a FIFO: a p that is not a regular file is an error naming it.
// It is for small files beside the stores, such as a migration's marker.
func ReadRegular(p string, max int64) ([]byte, error) {
	f, err := OpenFile(p, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	if max < 0 {
		return io.ReadAll(f)
	}
	return io.ReadAll(io.LimitReader(f, max))
}

// special refuses the open file at p, described by st, when it is a FIFO,
// a device or a socket: reading one would wait or yield bytes that are no
// record, and writing one would lose them. A directory is left to fail its
// read or write as before.
func special(op, p string, st fs.FileInfo) error {
	if !st.Mode().IsRegular() && !st.IsDir() {
		return &storage.Error{Op: op, File: p, Message: notRegularMessage}
	}
	return nil
}

// ErrNotRegular is OpenFile's refusal of a FIFO, device or socket, where
// it checks by name before opening (the fallback for systems without
// O_NOFOLLOW); on unix such a file opens and the caller checks its mode.
// fileError gives it special's text.
var ErrNotRegular = errors.New("not a regular file")

// notRegularMessage is the text of special's refusal.
const notRegularMessage = "Storage file is not a regular file"

// IsNotRegular reports whether err is the refusal of a FIFO, device or
// socket found where a store expects a regular file, so that a store with
// its own text for that case can answer with it.
func IsNotRegular(err error) bool {
	var se *storage.Error
	return errors.As(err, &se) && se.Message == notRegularMessage
}

// Write writes data to f, opened by OpenAppend, with one write call, then
// with sync flushes it with SyncData. Errors are *storage.Error naming f.
func Write(f *os.File, data []byte, sync bool) error {
	if _, err := f.Write(data); err != nil {
		return fileError("write", f.Name(), err)
	}
	if sync {
		if err := SyncData(f); err != nil {
			return fileError("sync", f.Name(), err)
		}
	}
	return nil
}

// SyncDir fsyncs the directory dir, so that a file just created in it
// survives a crash of the machine.
func SyncDir(dir string) error { return syncDir(dir) }

// Append appends data to rel with one write, creating the file 0600 if it is
// missing (never following a symlink). With sync, the file is fsynced before
// Append returns, and so is the directory when the file was created. A
// write that fails part-way is cut back: the file keeps its old bytes.
func (d *Dir) Append(rel string, data []byte, sync bool) error {
	o, err := d.open(rel, true)
	if err != nil {
		return err
	}
	defer o.close()
	f, st, err := o.openAppend(false)
	created := errors.Is(err, fs.ErrNotExist)
	if created { // the file, and maybe its directory, are missing
		if merr := o.mkdirParent(); merr != nil {
			return fileError("write", o.path, merr)
		}
		f, st, err = o.openAppend(true)
	}
	if err != nil {
		return err
	}
	// A write that fails part-way (a full disk) is cut back to the old
	// end, so that no partial line is left for the next append to follow.
	if err := Write(f, data, sync); err != nil {
		if terr := f.Truncate(st.Size()); terr != nil {
			err = errors.Join(err, fileError("write", f.Name(), terr))
		}
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fileError("write", f.Name(), err)
	}
	if sync && created {
		return syncDir(filepath.Dir(f.Name()))
	}
	return nil
}

// WriteFile replaces rel atomically with data: it writes a temp file named
// .<name>.<12 hex>.tmp in the same directory (exclusive create, 0600),
// fsyncs it, renames it over rel and fsyncs the directory. The temp file is
// removed on every failure path, so rel is either the old or the new bytes.
// data should already be encoded: temp files hold what the target will hold.
func (d *Dir) WriteFile(rel string, data []byte) error {
	o, err := d.open(rel, false)
	if err != nil {
		return err
	}
	defer o.close()
	return o.writeAtomic(data)
}

// WriteFileExclusive writes rel atomically like WriteFile, but never
// replaces anything: it fails with an error matching fs.ErrExist if rel
// already exists. It is for files that must never replace anything, such
// as the file set aside before a repair or a migration's marker.
//
// The bytes go to a temp file beside rel (named as WriteFile's), which is
// fsynced and then put in place under rel by a move that fails on an
// existing name: renameat2(2) with RENAME_NOREPLACE on Linux, MoveFileEx
// without its replace flag on Windows, and elsewhere (or where the file
// system refuses that rename) link(2) and then the temp's removal. The
// directory is fsynced last. So rel is never seen empty or part-written,
// even by a process killed on the way: it is missing, or holds data
// whole. A kill or crash can leave the temp file behind (see [IsTempOf]).
// Only on a file system that supports neither the move nor hard links
// is rel created and then written, as it was before, where a kill in
// between leaves it empty.
func (d *Dir) WriteFileExclusive(rel string, data []byte) error {
	return d.WriteFileExclusiveSteps(rel, data, nil)
}

// Steps of [Dir.WriteFileExclusiveSteps].
const (
	// StepTempCreated: the temp file exists, empty.
	StepTempCreated = "temp created"
	// StepTempWritten: the temp file holds the data, fsynced.
	StepTempWritten = "temp written"
	// StepPlaced: the name is in place; the temp file may remain.
	StepPlaced = "placed"
)

// WriteFileExclusiveSteps is [Dir.WriteFileExclusive], telling step, if
// not nil, each step done (StepTempCreated, StepTempWritten, StepPlaced),
// so that a test can kill the process at one of them.
func (d *Dir) WriteFileExclusiveSteps(rel string, data []byte, step func(string)) error {
	o, err := d.open(rel, false)
	if err != nil {
		return err
	}
	defer o.close()
	p := o.path
	tmp, err := o.writeTemp(data, step)
	if err != nil {
		return err
	}
	err = renameNoReplaceIn(o.r, o.base, tmp, o.rel)
	if errors.Is(err, errNoExclusiveMove) {
		err = o.createExclusive(data)
	}
	if err != nil {
		_ = o.r.Remove(tmp)
		return fileError("write", p, err)
	}
	if step != nil {
		step(StepPlaced)
	}
	// A rename left no temp; a link did, and its removal is best effort:
	// the data is in place, and a temp left over is a known leftover.
	if _, lerr := o.r.Lstat(tmp); lerr == nil {
		_ = o.r.Remove(tmp)
	}
	return syncDir(filepath.Dir(p))
}

// errNoExclusiveMove reports a file system on which renameNoReplaceIn can
// neither move nor link.
var errNoExclusiveMove = errors.New("the file system can neither rename without replacing nor link")

// createExclusive creates p (failing with fs.ErrExist if it exists) and
// writes and fsyncs data to it: not atomic, the fallback of
// WriteFileExclusive where neither a move without replacing nor a link
// is possible. On failure p is removed again.
func (o op) createExclusive(data []byte) error {
	f, _, err := o.openFile(os.O_WRONLY|os.O_CREATE|os.O_EXCL, FileMode)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = o.r.Remove(o.rel)
	}
	return werr
}

// IsTempOf reports whether name is that of a temp file WriteFile,
// WriteFiles or WriteFileExclusive make (and a kill may leave) in writing
// the file named base in the same directory: .<base>.<12 hex>.tmp. (A
// base so long that the temp's name would pass the file system's limit is
// cut short in it, and not recognised here.)
func IsTempOf(name, base string) bool {
	rest, ok := strings.CutPrefix(name, "."+base+".")
	if !ok {
		return false
	}
	h, ok := strings.CutSuffix(rest, ".tmp")
	if !ok || len(h) != 12 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

func (o op) writeAtomic(data []byte) error {
	p := o.path
	tmp, err := o.writeTemp(data, nil)
	if err != nil {
		return err
	}
	if err := o.r.Rename(tmp, o.rel); err != nil {
		_ = o.r.Remove(tmp)
		return fileError("write", p, err)
	}
	_ = syncDir(filepath.Dir(p)) // best effort, as the rename has happened
	return nil
}

// TempName returns the name of a temporary file for the file named base,
// tag being its 12 random hex digits: .<base>.<tag>.tmp, with base cut
// short (from its end) when the name would not fit in storage.NameMax
// bytes, as for the log of an id longer than 231 characters, at the start
// of a character. A cut name of an ASCII base (every record's) is exactly
// storage.NameMax bytes long; readers that match a temporary file
// to its record take its base as a prefix of the record's name then.
func TempName(base, tag string) string {
	const extra = len("..") + len(".tmp")
	if room := storage.NameMax - extra - len(tag); len(base) > room {
		// Cut at the start of a character, not inside one: a file
		// system that keeps names in UTF-8 (APFS) refuses a broken one.
		for room > 0 && !utf8.RuneStart(base[room]) {
			room--
		}
		base = base[:room]
	}
	return "." + base + "." + tag + ".tmp"
}

// writeTemp writes data, fsynced, to a new temp file beside o's name
// (creating its directory if needed) and returns the temp's name relative
// to o's handle. On failure nothing is left behind. step, if not nil, is
// told StepTempCreated and StepTempWritten (see WriteFileExclusiveSteps).
func (o op) writeTemp(data []byte, step func(string)) (_ string, err error) {
	p := o.path
	if err := o.mkdirParent(); err != nil {
		return "", fileError("write", p, err)
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fileError("write", p, err)
	}
	tmp := filepath.Join(filepath.Dir(o.rel), TempName(filepath.Base(p), hex.EncodeToString(b[:])))
	f, err := o.r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|rootOpenFlags, FileMode)
	if err != nil {
		return "", fileError("write", p, err)
	}
	defer func() {
		if err != nil {
			_ = o.r.Remove(tmp)
		}
	}()
	if step != nil {
		step(StepTempCreated)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return "", fileError("write", p, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "", fileError("sync", p, err)
	}
	if err := f.Close(); err != nil {
		return "", fileError("write", p, err)
	}
	if step != nil {
		step(StepTempWritten)
	}
	return tmp, nil
}

// A Replacement is one file of [Dir.WriteFiles]: its path relative to the
// directory and its new bytes.
type Replacement struct {
	Rel  string
	Data []byte
}

// WriteFiles replaces several files like WriteFile, but writes and fsyncs
// every temp file before renaming the first: a write that fails (a full
// disk, a file size limit) leaves every file as it was, instead of some
// replaced and some not. Only a failing rename, or a crash between the
// renames, can leave a part replaced. On failure it returns the index of
// the file the error is about.
func (d *Dir) WriteFiles(files []Replacement) (int, error) {
	ops := make([]op, 0, len(files))
	defer func() {
		for _, o := range ops {
			o.close()
		}
	}()
	for i, f := range files {
		o, err := d.open(f.Rel, false)
		if err != nil {
			return i, err
		}
		ops = append(ops, o)
	}
	temps := make([]string, 0, len(files))
	renamed := 0
	defer func() {
		for i, tmp := range temps[renamed:] {
			_ = ops[renamed+i].r.Remove(tmp)
		}
	}()
	for i, f := range files {
		tmp, err := ops[i].writeTemp(f.Data, nil)
		if err != nil {
			return i, err
		}
		temps = append(temps, tmp)
	}
	dirs := map[string]bool{}
	for i, o := range ops {
		if err := o.r.Rename(temps[i], o.rel); err != nil {
			return i, fileError("write", o.path, err)
		}
		renamed++
		dirs[filepath.Dir(o.path)] = true
	}
	for dir := range dirs {
		_ = syncDir(dir) // best effort, as the renames have happened
	}
	return 0, nil
}

// Touch sets the access and modification times of the file rel to t,
// without following a symlink, so that the sweep by age counts a record
// that was used again as young without its bytes being rewritten. A file
// with more than one hard link is refused (IsHardLinked), as OpenAppend
// refuses it: its other name may lie outside the data home.
func (d *Dir) Touch(rel string, t time.Time) error {
	o, err := d.open(rel, false)
	if err != nil {
		return err
	}
	defer o.close()
	p := o.path
	if err := o.touch(t); err != nil {
		return fileError("write", p, err)
	}
	return nil
}

// Remove removes the file or empty directory rel. A missing rel is not an
// error.
func (d *Dir) Remove(rel string) error {
	o, err := d.open(rel, true)
	if err != nil {
		return err
	}
	defer o.close()
	if o.rel == "." {
		return &storage.Error{Op: "remove", File: o.path, Message: "refusing to remove the storage directory itself"}
	}
	if err := o.r.Remove(o.rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fileError("remove", o.path, err)
	}
	return nil
}

// Rename renames the entry from to to, both relative to the directory,
// replacing what is at to (a rename acts on entries: a symlink at either
// name is renamed or replaced itself, never followed).
func (d *Dir) Rename(from, to string) error {
	src, err := d.open(from, true)
	if err != nil {
		return err
	}
	defer src.close()
	dst, err := d.open(to, true)
	if err != nil {
		return err
	}
	dst.close() // checked; the rename goes through src's handle
	if err := src.r.Rename(src.rel, dst.rel); err != nil {
		return fileError("rename", src.path, err)
	}
	return nil
}

// RemoveAll removes rel and everything under it. A symlink at rel is removed
// itself, never followed. A missing rel is not an error.
func (d *Dir) RemoveAll(rel string) error {
	o, err := d.open(rel, true)
	if err != nil {
		return err
	}
	defer o.close()
	if o.rel == "." {
		return &storage.Error{Op: "remove", File: o.path, Message: "refusing to remove the storage directory itself"}
	}
	if err := o.r.RemoveAll(o.rel); err != nil {
		return fileError("remove", o.path, err)
	}
	return nil
}

// MissingDirs returns the directories of path (itself included) that do
// not exist yet, outermost first.
func MissingDirs(path string) []string {
	var dirs []string
	for cur := filepath.Clean(path); ; {
		if _, err := os.Lstat(cur); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		dirs = append(dirs, cur)
		parent := filepath.Dir(cur)
		if parent == cur {
			break
		}
		cur = parent
	}
	slices.Reverse(dirs)
	return dirs
}

// mkdirAll creates dir and its missing parents like os.MkdirAll (mode
// DirMode), then fsyncs the parent of every directory it created, outermost
// first: a file fsynced in a new directory is lost with it on a power loss
// unless the directory's own entry is durable too.
func mkdirAll(dir string) error {
	created := MissingDirs(dir)
	if err := os.MkdirAll(dir, DirMode); err != nil {
		return err
	}
	return syncParents(created)
}

// syncParents fsyncs the parent of every directory of created, in order
// (mkdirAll's durability half).
func syncParents(created []string) error {
	for _, c := range created {
		// A parent its user may write and search but not read (mode
		// 0300) cannot be opened to sync: the sync is a help for
		// durability the directory's owner chose not to allow, not a
		// condition of the store. A failed sync of one it could open is
		// an error.
		if err := syncDir(filepath.Dir(c)); err != nil && !errors.Is(err, fs.ErrPermission) {
			return err
		}
	}
	return nil
}

// fileError wraps a file-system error in a *storage.Error naming the file.
// A refused symlink (ELOOP from OpenFile) gets the symlink message.
func fileError(op, path string, err error) error {
	var se *storage.Error
	if errors.As(err, &se) {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is already named by the *storage.Error
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	if errors.Is(err, syscall.ELOOP) {
		return &storage.Error{Op: op, File: path, Message: "Symlink paths are not allowed for read: " + filepath.Base(path)}
	}
	if errors.Is(err, ErrNotRegular) {
		return &storage.Error{Op: op, File: path, Message: notRegularMessage}
	}
	return (&storage.Error{Op: op, File: path, Message: "cannot " + op + " file"}).WithCause(err)
}

// CheckProjectDirs refuses a <home>/projects or <home>/projects/<hash>
// that is a symbolic link: the data home may be one, but the directories
// below it are the agent's own, and a link another local user or a
// crashed tool left there would take the project's sessions, tasks and
// spill files elsewhere (each store checks only its own directory). A
// missing directory is fine: the stores create it. It looks before the
// stores open anything, and answers a link found then with this error;
// a link swapped in while they run is refused by their anchoring (Anchor
// of a path below projects/<hash>) and by the handles their operations act
// through. Errors are *storage.Error.
func CheckProjectDirs(paths storage.ProjectPaths) error {
	for _, d := range []string{storage.ProjectsDir(paths.Home), paths.ProjectDir()} {
		if st, err := os.Lstat(d); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			return &storage.Error{Op: "open", File: d, Message: "Storage directory must not be a symlink"}
		}
	}
	return nil
}
