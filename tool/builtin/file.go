package builtin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/tool"
)

// Limits of the file tools.
const (
	// MaxReadChars is the most UTF-16 code units read_file returns.
	MaxReadChars = 50000
	// ArchiveThreshold is the size in UTF-8 bytes above which read_file
	// stores a file's text in the session's archive instead of returning
	// it, when an archive is configured.
	ArchiveThreshold = 50000
	// DefaultMaxFileBytes is the largest file read_file and edit_file read
	// when [FileOptions.MaxFileBytes] is zero: 64 MiB.
	DefaultMaxFileBytes = 64 << 20
)

// FileOptions configures the file tools. Only Workdir is required; the zero
// value of every other field is a documented default.
type FileOptions struct {
	// Workdir is the workspace: an absolute path to an existing directory.
	// Relative paths resolve against it and no tool changes anything
	// outside it. A workdir reached through symbolic links is resolved
	// once, when the tools are built.
	Workdir string

	// ReadRoots lists more absolute paths, directories or single files,
	// that read_file (and only read_file) may read when given an absolute
	// path inside one of them. nil means none. A root that does not exist
	// when a call is made is skipped.
	ReadRoots []string

	// SessionReadRoots, when set, returns more read roots for a call of
	// session sessionID (its [tool.Call.SessionID]), such as those
	// [SessionDataRoots] gives for that session. It is called only for absolute paths outside the workspace;
	// an error fails the call. nil means none.
	SessionReadRoots func(ctx context.Context, sessionID string) ([]string, error)

	// Symlinks says which symbolic links read_file follows; "" means
	// SymlinksInside. The mutating tools refuse every symbolic link.
	Symlinks SymlinkPolicy

	// Protected lists absolute paths, files or directories, that
	// write_file, edit_file and delete_file never create, change or
	// delete, nor anything beneath them, whatever name, "..", symbolic
	// link or letter case leads there: typically
	// [storage.ProjectPaths.ProtectedPaths]. A refused call is an error
	// result with the text of a [ProtectedPathError]. nil protects
	// nothing beyond the workspace rules. read_file is not affected.
	Protected []string

	// Snapshots records a file's previous content before every change;
	// nil records nothing.
	Snapshots SnapshotRecorder

	// MaxSnapshotBytes is the largest previous content a snapshot keeps,
	// in bytes; a larger file is recorded with Before nil and Truncated
	// set. Zero means DefaultMaxSnapshotBytes.
	MaxSnapshotBytes int64

	// MaxFileBytes is the largest file, in bytes, that read_file returns
	// or archives and that edit_file edits; a larger one is an error
	// result that points the model at bash. Zero means
	// DefaultMaxFileBytes.
	MaxFileBytes int64

	// Archive returns the archive of the calling session. read_file
	// stores a text longer than ArchiveThreshold bytes there and returns
	// its ref and preview with instructions to read it through the
	// context tool. nil, or a scope with a nil Archive, means no
	// archiving: such a text is cut to MaxReadChars instead.
	Archive ArchiveResolver
}

// fileTools holds what the file tools share. It is fixed at construction
// except for locks, which is safe for concurrent use.
type fileTools struct {
	ws           workspace
	wsID         fileID // the real workdir's identity at construction
	protect      protector
	snapshots    SnapshotRecorder
	maxSnapshot  int64
	maxFileBytes int64
	archive      ArchiveResolver
	locks        pathLocks
}

// FileTools returns read_file, write_file, edit_file and delete_file, in
// that order, working in opts.Workdir under the rules of the package
// documentation. It returns an error if Workdir is not an absolute path to
// a directory, a read root is not absolute, a limit is negative or the
// symlink policy is unknown.
//
// The tools are safe for concurrent use. Changes to one file through
// them are serialized; two calls changing different files run in
// parallel.
func FileTools(opts FileOptions) ([]tool.Tool, error) {
	ft, err := newFileTools(opts)
	if err != nil {
		return nil, err
	}
	return []tool.Tool{
		tool.New("read_file", readFileDescription, ft.readFile),
		tool.New("write_file", writeFileDescription, ft.writeFile),
		tool.New("edit_file", editFileDescription, ft.editFile),
		tool.New("delete_file", deleteFileDescription, ft.deleteFile),
	}, nil
}

func newFileTools(opts FileOptions) (*fileTools, error) {
	if !filepath.IsAbs(opts.Workdir) {
		return nil, fmt.Errorf("file tools: workdir %q is not an absolute path", opts.Workdir)
	}
	dir := filepath.Clean(opts.Workdir)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("file tools: workdir: %w", err)
	}
	if info, err := os.Stat(real); err != nil {
		return nil, fmt.Errorf("file tools: workdir: %w", err)
	} else if !info.IsDir() {
		return nil, fmt.Errorf("file tools: workdir %s is not a directory", dir)
	}
	for _, r := range opts.ReadRoots {
		if !filepath.IsAbs(r) {
			return nil, fmt.Errorf("file tools: read root %q is not an absolute path", r)
		}
	}
	switch opts.Symlinks {
	case "":
		opts.Symlinks = SymlinksInside
	case SymlinksInside, SymlinksDeny:
	default:
		return nil, fmt.Errorf("file tools: unknown symlink policy %q", opts.Symlinks)
	}
	if opts.MaxSnapshotBytes < 0 || opts.MaxFileBytes < 0 {
		return nil, errors.New("file tools: negative size limit")
	}
	protect, err := newProtector(opts.Protected, dir, real)
	if err != nil {
		return nil, err
	}
	ft := &fileTools{
		ws: workspace{
			dir:      dir,
			real:     real,
			roots:    append([]string(nil), opts.ReadRoots...),
			rootsFor: opts.SessionReadRoots,
			symlinks: opts.Symlinks,
		},
		wsID:         workspaceID(real),
		protect:      protect,
		snapshots:    opts.Snapshots,
		maxSnapshot:  opts.MaxSnapshotBytes,
		maxFileBytes: opts.MaxFileBytes,
		archive:      opts.Archive,
	}
	if ft.maxSnapshot == 0 {
		ft.maxSnapshot = DefaultMaxSnapshotBytes
	}
	if ft.maxFileBytes == 0 {
		ft.maxFileBytes = DefaultMaxFileBytes
	}
	return ft, nil
}

// SessionDataRoots returns the read roots that let read_file read the data
// of session sessionID kept under sessionsDir: its log <id>.jsonl and its
// archive directory. It returns nil when enc has a codec, since the stored
// bytes are then encoded and the model reads archived content through the
// context tool instead, and when sessionID is not a valid session id.
func SessionDataRoots(sessionsDir, sessionID string, enc storage.Encoding) []string {
	if enc.Codec != nil || storage.ValidateID(sessionID) != nil || !filepath.IsAbs(sessionsDir) {
		return nil
	}
	return []string{
		filepath.Join(sessionsDir, sessionID+session.LogSuffix),
		storage.SessionContextDir(sessionsDir, sessionID),
	}
}

const readFileDescription = `Read a text file. The path is relative to the workspace, or absolute inside it. ` +
	`With limit, only the first limit lines are returned. Output is cut at 50,000 characters; ` +
	`a larger file may instead be stored in the context archive, to be read in pages with the context tool.`

type readFileInput struct {
	Path  string `json:"path" jsonschema:"the file to read, relative to the workspace or absolute"`
	Limit int    `json:"limit,omitempty" jsonschema:"the number of lines to return from the start of the file; all lines when omitted"`
}

// RefineSchema implements [tool.SchemaRefiner].
func (readFileInput) RefineSchema(s *jsonschema.Schema) {
	s.Properties["path"].MinLength = jsonschema.Ptr(1)
	s.Properties["limit"].Minimum = jsonschema.Ptr(1.0)
}

// openAttempts bounds how often read_file resolves a path again when a
// symbolic link took the place of one of its components meanwhile.
const openAttempts = 3

func (ft *fileTools) readFile(ctx context.Context, c *tool.Call, in readFileInput) (tool.Result, error) {
	var (
		t   target
		f   *os.File
		err error
	)
	for attempt := 1; ; attempt++ {
		t, err = ft.ws.resolve(ctx, c.SessionID, in.Path, accessRead)
		if err != nil {
			return pathResult(err)
		}
		if t.missing {
			return ft.notFound(ctx, t, in.Path)
		}
		f, err = ft.openForRead(t)
		if !errors.Is(err, errSymlink) {
			break
		}
		if attempt == openAttempts {
			return tool.Errorf("%s kept changing while it was opened (a symbolic link took the place of a part of it); not read", in.Path), nil
		}
	}
	if isNotFound(err) {
		return ft.notFound(ctx, t, in.Path)
	}
	if err != nil {
		return tool.Result{}, fmt.Errorf("read %s: %w", in.Path, unwrapPathError(err))
	}
	// What was opened is the file at t's real path, reached without a
	// link: the gate checked the name, which may have led elsewhere then.
	if err := tool.CheckPath(ctx, t.real()); err != nil {
		f.Close()
		return tool.Errorf("%s", err), nil
	}
	data, err := ft.readRegular(f, in.Path)
	f.Close()
	if err != nil {
		return tool.Result{}, err
	}
	text := validText(data)
	out := text
	if in.Limit > 0 {
		if head, more := firstLines(text, in.Limit); more > 0 {
			out = head + fmt.Sprintf("\n... (%d more lines)", more)
		}
	}
	if len(out) > ArchiveThreshold && ft.archive != nil {
		scope, err := ft.archive(ctx, c.SessionID)
		if err != nil {
			return tool.Result{}, fmt.Errorf("archive %s: %w", in.Path, err)
		}
		if scope.Archive != nil {
			meta := map[string]any{"kind": "file", "path": in.Path}
			if scope.SessionID != "" {
				meta["sessionId"] = scope.SessionID
			}
			entry, err := scope.Archive.Put(ctx, text, meta)
			if err != nil {
				return tool.Result{}, fmt.Errorf("archive %s: %w", in.Path, err)
			}
			return tool.Text(fmt.Sprintf("[tool result archived: %s] %d bytes from %s.\n%s\nRead the complete file in pages using context({ref: %q, offset: 0}).",
				entry.Ref, len(text), in.Path, entry.Preview, entry.Ref)), nil
		}
	}
	if cut, ok := utf16text.Cut(out, MaxReadChars); ok {
		out = cut + fmt.Sprintf("\n[truncated: showing the first %d of %d characters; read the rest with limit or bash]", utf16text.Len(cut), utf16text.Len(out))
	}
	return tool.Text(out), nil
}

// firstLines returns the first n lines of text, n > 0, without the newline
// that ends the last of them, and how many lines follow (the text after
// the last newline counts as one, even empty). It scans for the newlines
// instead of splitting the text into lines: a file of newlines would
// otherwise cost a string header a byte.
func firstLines(text string, n int) (head string, more int) {
	end := 0
	for range n {
		i := strings.IndexByte(text[end:], '\n')
		if i < 0 {
			return text, 0
		}
		end += i + 1
	}
	return text[:end-1], strings.Count(text[end:], "\n") + 1
}

// openForRead opens the resolved path t for reading without blocking on
// a FIFO or a device, and without following a symbolic link: t has none
// left, so one found on the way took a component's place since t was
// resolved, and the open fails with errSymlink.
func (ft *fileTools) openForRead(t target) (*os.File, error) {
	if t.base == "" {
		f, err := os.OpenFile(t.rel, os.O_RDONLY|oNonblock|oNoFollow, 0)
		if isLinkErr(err) {
			return nil, errSymlink
		}
		return f, err
	}
	var want fileID
	if t.inWorkspace {
		want = ft.wsID
	}
	root, err := openWorkspace(t.base, want)
	if err != nil {
		return nil, err
	}
	defer root.close()
	dir, err := root.openDir(filepath.Dir(t.rel), false)
	if err != nil {
		return nil, err
	}
	defer dir.close()
	f, err := dir.openFile(filepath.Base(t.rel), os.O_RDONLY|oNonblock, 0)
	if isLinkErr(err) {
		return nil, errSymlink
	}
	return f, err
}

// readRegular reads f, which must be a regular file no larger than the
// tools' MaxFileBytes.
func (ft *fileTools) readRegular(f *os.File, p string) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, unwrapPathError(err))
	}
	if !info.Mode().IsRegular() {
		return nil, notRegular(p)
	}
	if info.Size() > ft.maxFileBytes {
		return nil, tooLarge(p, info.Size(), ft.maxFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, ft.maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, unwrapPathError(err))
	}
	if int64(len(data)) > ft.maxFileBytes {
		return nil, tooLarge(p, int64(len(data)), ft.maxFileBytes)
	}
	return data, nil
}

func tooLarge(p string, size, max int64) error {
	//lint:ignore ST1005 the model reads this text as the tool's result: a sentence, not a message for wrapping
	return fmt.Errorf("File too large: %s is %d bytes, over the limit of %d; use bash (head, tail, sed -n) to read parts of it", p, size, max)
}

// isNotFound reports whether err says that a path, or one of its parent
// directories, does not exist.
func isNotFound(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// pathResult turns a resolution failure into the call's outcome: a path the
// rules refuse is an error Result with the rule's message.
func pathResult(err error) (tool.Result, error) {
	var pe *pathError
	if errors.As(err, &pe) {
		return tool.Errorf("%s", pe.msg), nil
	}
	return tool.Result{}, err
}

// notFound returns the error Result for a missing file: the hint for a path
// in the workspace, a plain message for one in a read root.
func (ft *fileTools) notFound(ctx context.Context, t target, p string) (tool.Result, error) {
	if !t.inWorkspace {
		return tool.Errorf("File not found: %s", p), nil
	}
	root, err := os.OpenRoot(t.base)
	if err != nil {
		return tool.Errorf("File not found: %s", p), nil
	}
	defer root.Close()
	return tool.Errorf("%s", notFoundHint(ctx, root, t.rel, p)), nil
}

const writeFileDescription = `Create or overwrite a file with the given content. ` +
	`Missing parent directories are created. The path is relative to the workspace, or absolute inside it.`

type writeFileInput struct {
	Path    string `json:"path" jsonschema:"the file to write, relative to the workspace or absolute inside it"`
	Content string `json:"content" jsonschema:"the complete new content of the file"`
}

// RefineSchema implements [tool.SchemaRefiner].
func (writeFileInput) RefineSchema(s *jsonschema.Schema) {
	s.Properties["path"].MinLength = jsonschema.Ptr(1)
}

func (ft *fileTools) writeFile(ctx context.Context, c *tool.Call, in writeFileInput) (tool.Result, error) {
	data := []byte(in.Content)
	res, err := ft.mutate(ctx, c, in.Path, accessWrite, func(m *mutation) (tool.Result, error) {
		if m.old != nil && !m.old.mode.IsRegular() {
			return tool.Result{}, notRegular(in.Path)
		}
		if err := m.snapshot(nil, data, false); err != nil {
			return tool.Result{}, err
		}
		if err := m.makeParent(); err != nil {
			return tool.Result{}, err
		}
		if err := writeAtomic(m.dir, m.name, data, m.old); err != nil {
			return tool.Result{}, fmt.Errorf("write %s: %w", in.Path, unwrapPathError(err))
		}
		return tool.Text(fmt.Sprintf("Wrote %d bytes to %s", utf16text.Len(in.Content), in.Path)), nil
	})
	return res, err
}

const editFileDescription = `Replace the first occurrence of old_text in a file with new_text, literally ` +
	`(no patterns). Include enough surrounding text in old_text to make it unique.`

type editFileInput struct {
	Path    string `json:"path" jsonschema:"the file to edit, relative to the workspace or absolute inside it"`
	OldText string `json:"old_text" jsonschema:"the exact text to replace; its first occurrence is replaced"`
	NewText string `json:"new_text" jsonschema:"the replacement text, inserted literally"`
}

// RefineSchema implements [tool.SchemaRefiner].
func (editFileInput) RefineSchema(s *jsonschema.Schema) {
	s.Properties["path"].MinLength = jsonschema.Ptr(1)
}

func (ft *fileTools) editFile(ctx context.Context, c *tool.Call, in editFileInput) (tool.Result, error) {
	return ft.mutate(ctx, c, in.Path, accessWrite, func(m *mutation) (tool.Result, error) {
		if m.old == nil {
			return ft.notFound(ctx, m.t, in.Path)
		}
		if !m.old.mode.IsRegular() {
			return tool.Result{}, notRegular(in.Path)
		}
		f, err := m.dir.openFile(m.name, os.O_RDONLY|oNonblock, 0)
		if err != nil {
			return tool.Result{}, fmt.Errorf("read %s: %w", in.Path, unwrapPathError(err))
		}
		old, err := ft.readRegular(f, in.Path)
		f.Close()
		if err != nil {
			return tool.Result{}, err
		}
		i := bytes.Index(old, []byte(in.OldText))
		if i < 0 {
			return tool.Text("Error: Text not found in " + in.Path), nil
		}
		data := make([]byte, 0, len(old)-len(in.OldText)+len(in.NewText))
		data = append(append(append(data, old[:i]...), in.NewText...), old[i+len(in.OldText):]...)
		if err := m.snapshot(old, data, false); err != nil {
			return tool.Result{}, err
		}
		if err := writeAtomic(m.dir, m.name, data, m.old); err != nil {
			return tool.Result{}, fmt.Errorf("write %s: %w", in.Path, unwrapPathError(err))
		}
		return tool.Text("Edited " + in.Path), nil
	})
}

const deleteFileDescription = `Delete a file. Only regular files can be deleted, not directories. ` +
	`The path is relative to the workspace, or absolute inside it.`

type deleteFileInput struct {
	Path string `json:"path" jsonschema:"the file to delete, relative to the workspace or absolute inside it"`
}

// RefineSchema implements [tool.SchemaRefiner].
func (deleteFileInput) RefineSchema(s *jsonschema.Schema) {
	s.Properties["path"].MinLength = jsonschema.Ptr(1)
}

func (ft *fileTools) deleteFile(ctx context.Context, c *tool.Call, in deleteFileInput) (tool.Result, error) {
	return ft.mutate(ctx, c, in.Path, accessDelete, func(m *mutation) (tool.Result, error) {
		if m.old == nil {
			return tool.Errorf("File not found: %s", in.Path), nil
		}
		if !m.old.mode.IsRegular() {
			return tool.Result{}, notRegular(in.Path)
		}
		if err := m.snapshot(nil, nil, true); err != nil {
			return tool.Result{}, err
		}
		if err := m.dir.remove(m.name); err != nil {
			return tool.Result{}, fmt.Errorf("delete %s: %w", in.Path, unwrapPathError(err))
		}
		m.dir.sync()
		return tool.Text("Deleted " + in.Path), nil
	})
}

// A mutation is one change to one file in progress, with the file locked
// against other changes through the same tools.
type mutation struct {
	ft   *fileTools
	ctx  context.Context
	call *tool.Call // the call making the change, for its snapshot
	t    target
	p    string // the path as the model gave it
	mode access
	root *dirHandle   // the workspace, open
	now  []protection // the protected paths as they were at the start
	dir  *dirHandle   // the file's parent directory, open; nil if missing
	name string       // the file's name in dir
	old  *fileStat    // the file as it is, not followed; nil if missing
}

// mutate resolves p for mode, locks the file, opens its parent directory
// beneath the workspace without following any symbolic link, refuses a
// protected path and runs change. The workspace itself is never a file to
// change.
//
// Protection is checked twice: by name, on the path below the real
// workspace (which has no link in it once opened so), and by identity, on
// the device and inode of every directory from the workspace to the open
// parent and of the file itself, so that a case variant or another name
// for a protected file is refused as well.
func (ft *fileTools) mutate(ctx context.Context, c *tool.Call, p string, mode access, change func(*mutation) (tool.Result, error)) (tool.Result, error) {
	t, err := ft.ws.resolve(ctx, c.SessionID, p, mode)
	if err != nil {
		return pathResult(err)
	}
	if t.rel == "." {
		return tool.Result{}, notRegular(p)
	}
	if _, ok := ft.protect.byName(filepath.Join(t.base, t.rel)); ok {
		return tool.Result{}, &ProtectedPathError{Op: mode.String(), Path: p}
	}
	now := ft.protect.current()
	unlock, err := ft.locks.lock(ctx, t.rel)
	if err != nil {
		return tool.Result{}, err
	}
	defer unlock()
	root, err := openWorkspace(t.base, ft.wsID)
	if err != nil {
		return tool.Result{}, fmt.Errorf("open workspace: %w", unwrapPathError(err))
	}
	defer root.close()
	m := &mutation{ft: ft, ctx: ctx, call: c, t: t, p: p, mode: mode, root: root, now: now, name: filepath.Base(t.rel)}
	defer func() {
		if m.dir != nil {
			m.dir.close()
		}
	}()
	err = m.openParent(false)
	if errors.Is(err, fs.ErrNotExist) {
		// Nothing to edit or delete; write_file makes the directories
		// once the snapshot is recorded, so check those that exist now.
		if mode == accessWrite {
			if err := m.checkExisting(); err != nil {
				return tool.Result{}, err
			}
		}
		return m.checked(change)
	}
	if err != nil {
		return tool.Result{}, err
	}
	return m.checked(change)
}

// checked runs change once the checks the call's context carries (see
// [tool.CheckPath]) pass on the path opened: the gate decided about the
// name, which may have been a symbolic link to another file then.
func (m *mutation) checked(change func(*mutation) (tool.Result, error)) (tool.Result, error) {
	if err := tool.CheckPath(m.ctx, m.t.real()); err != nil {
		return tool.Errorf("%s", err), nil
	}
	return change(m)
}

// openParent opens the file's parent directory, making the missing ones
// with create, refuses a protected file and fills in m.dir and m.old.
func (m *mutation) openParent(create bool) error {
	dirRel := filepath.Dir(m.t.rel)
	names := splitRel(m.t.rel)
	dir, err := m.root.openDir(dirRel, create)
	switch {
	case errors.Is(err, errSymlink):
		return symlinkRefused(m.mode, m.p)
	case errors.Is(err, fs.ErrNotExist):
		return fs.ErrNotExist
	case err != nil:
		return fmt.Errorf("%s %s: %w", m.mode, m.p, unwrapPathError(err))
	}
	m.dir = dir
	chain, err := dir.chain(m.root, len(names)-1)
	if err != nil {
		return fmt.Errorf("%s %s: %w", m.mode, m.p, unwrapPathError(err))
	}
	st, err := dir.stat(m.name)
	switch {
	case err == nil:
		if st.mode&fs.ModeSymlink != 0 {
			// It became a link after the path was checked.
			return symlinkRefused(m.mode, m.p)
		}
		m.old = st
		chain = append(chain, st.id)
	case !isNotFound(err):
		return fmt.Errorf("%s %s: %w", m.mode, m.p, unwrapPathError(err))
	}
	if byIdentity(m.now, chain, names) {
		return &ProtectedPathError{Op: m.mode.String(), Path: m.p}
	}
	return nil
}

// makeParent makes the file's missing parent directories, unless it has
// one already, and opens it.
func (m *mutation) makeParent() error {
	if m.dir != nil {
		return nil
	}
	err := m.openParent(true)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s %s: %w", m.mode, m.p, syscall.ENOTDIR)
	}
	return err
}

// checkExisting opens the deepest existing directory on the way to the
// file and refuses the change when it, or a directory above it, is
// protected for what lies below it.
func (m *mutation) checkExisting() error {
	names := splitRel(m.t.rel)
	for n := len(names) - 1; n >= 0; n-- {
		d, err := m.root.openDir(filepath.Join(append([]string{"."}, names[:n]...)...), false)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if errors.Is(err, errSymlink) {
			return symlinkRefused(m.mode, m.p)
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w", m.mode, m.p, unwrapPathError(err))
		}
		chain, err := d.chain(m.root, n)
		d.close()
		if err != nil {
			return fmt.Errorf("%s %s: %w", m.mode, m.p, err)
		}
		if byIdentity(m.now, chain, names) {
			return &ProtectedPathError{Op: m.mode.String(), Path: m.p}
		}
		return nil
	}
	return nil
}

// snapshot records the file's previous content before it changes: old is
// that content when the caller has read it (nil otherwise), and data the
// new content unless deleted.
func (m *mutation) snapshot(old, data []byte, deleted bool) error {
	if m.ft.snapshots == nil {
		return nil
	}
	ev := session.FileSnapshotEvent{Path: m.t.snapshotPath()}
	if deleted {
		ev.Deleted = true
	} else {
		ev.After = sha256Hex(data)
	}
	var size int64
	if m.old != nil {
		size = m.old.size
	}
	err := snapshotBefore(&ev, m.old != nil, size, old, old != nil, m.ft.maxSnapshot, func() (*os.File, error) {
		f, err := m.dir.openFile(m.name, os.O_RDONLY|oNonblock, 0)
		if err != nil {
			return nil, err
		}
		// The file was a regular one when openParent looked; a FIFO or a
		// device put in its place since would block the read or never
		// end it.
		if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
			f.Close()
			if err != nil {
				return nil, err
			}
			return nil, notRegular(m.p)
		}
		return f, nil
	})
	if err != nil {
		return fmt.Errorf("snapshot %s: %w", ev.Path, unwrapPathError(err))
	}
	return m.ft.record(m.ctx, m.call, ev)
}
