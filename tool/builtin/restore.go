package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/lite-agent/lite-agent-go/tool"
)

// A FileRestorer reads, writes and deletes workspace files by the paths
// that file snapshots record, under the rules write_file and delete_file
// follow: a path resolves inside the workspace, no symbolic link is
// followed or replaced, protected paths are refused, a write is atomic and
// makes the missing parent directories. It records no snapshot. Package
// rewind uses it to put files back as a checkpoint left them.
//
// It is safe for concurrent use; changes to one file are serialized.
type FileRestorer struct {
	ft *fileTools
}

// NewFileRestorer returns a FileRestorer for the workspace and rules of
// opts, as [FileTools] checks them; opts.Snapshots and opts.Archive are
// ignored.
func NewFileRestorer(opts FileOptions) (*FileRestorer, error) {
	opts.Snapshots, opts.Archive = nil, nil
	ft, err := newFileTools(opts)
	if err != nil {
		return nil, err
	}
	return &FileRestorer{ft: ft}, nil
}

// Canonical returns the path p resolves to for a write, relative to the
// workspace with "/" separators: the form snapshots record, so two
// spellings of one file give one path. A path the rules refuse is an
// error.
func (r *FileRestorer) Canonical(ctx context.Context, p string) (string, error) {
	t, err := r.ft.ws.resolve(ctx, "", p, accessWrite)
	if err != nil {
		return "", err
	}
	if t.rel == "." {
		return "", notRegular(p)
	}
	return t.snapshotPath(), nil
}

// Read returns the content of the file at p and whether it exists. A file
// over the MaxFileBytes limit, or one that is not a regular file, is an
// error.
func (r *FileRestorer) Read(ctx context.Context, p string) (data []byte, exists bool, err error) {
	err = r.do(ctx, p, accessWrite, func(m *mutation) error {
		if m.old == nil {
			return nil
		}
		if !m.old.mode.IsRegular() {
			return notRegular(p)
		}
		f, err := m.dir.openFile(m.name, os.O_RDONLY|oNonblock, 0)
		if err != nil {
			return fmt.Errorf("read %s: %w", p, unwrapPathError(err))
		}
		defer f.Close()
		data, err = r.ft.readRegular(f, p)
		exists = err == nil
		return err
	})
	return data, exists, err
}

// Write replaces the file at p with data, atomically, making its missing
// parent directories; a file replaced keeps its mode.
func (r *FileRestorer) Write(ctx context.Context, p string, data []byte) error {
	return r.do(ctx, p, accessWrite, func(m *mutation) error {
		if m.old != nil && !m.old.mode.IsRegular() {
			return notRegular(p)
		}
		if err := m.makeParent(); err != nil {
			return err
		}
		if err := writeAtomic(m.dir, m.name, data, m.old); err != nil {
			return fmt.Errorf("write %s: %w", p, unwrapPathError(err))
		}
		return nil
	})
}

// Remove deletes the file at p; a missing file is not an error.
func (r *FileRestorer) Remove(ctx context.Context, p string) error {
	return r.do(ctx, p, accessDelete, func(m *mutation) error {
		if m.old == nil {
			return nil
		}
		if !m.old.mode.IsRegular() {
			return notRegular(p)
		}
		if err := m.dir.remove(m.name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("delete %s: %w", p, unwrapPathError(err))
		}
		m.dir.sync()
		return nil
	})
}

// do runs change on p through the mutating tools' path handling and
// turns a refusal the model would read as a result into an error.
func (r *FileRestorer) do(ctx context.Context, p string, mode access, change func(*mutation) error) error {
	res, err := r.ft.mutate(ctx, &tool.Call{}, p, mode, func(m *mutation) (tool.Result, error) {
		return tool.Result{}, change(m)
	})
	if err == nil && res.IsError {
		err = &RefusedError{Path: p, Reason: strings.TrimPrefix(res.Content, "Error: ")}
	}
	return err
}

// A RefusedError reports that a [FileRestorer] refused a path by the rules
// the file tools apply to a write (a symlink, a path outside the
// workspace, a protected path, …). Reason is the refusal as the tools word
// it, which is also the error's text.
type RefusedError struct {
	Path   string // the path as it was given
	Reason string
}

// Error returns the reason the restore was refused.
func (e *RefusedError) Error() string { return e.Reason }
