package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// exportSink receives the files an export writes: exportWriter writes
// them, exportPlan only remembers their content.
type exportSink interface {
	writeRecords(path string, recs [][]byte, mtime time.Time) error
	write(path string, data []byte, mtime time.Time) error
}

// exportPlan is what an export would write now: each file's content by
// path.
type exportPlan map[string][]byte

func (p exportPlan) writeRecords(path string, recs [][]byte, _ time.Time) error {
	var b bytes.Buffer
	for _, r := range recs {
		b.Write(r)
		b.WriteByte('\n')
	}
	p[path] = b.Bytes()
	return nil
}

func (p exportPlan) write(path string, data []byte, _ time.Time) error {
	p[path] = bytes.Clone(data)
	return nil
}

// RemovePartialExport removes from the project directory of paths the
// partial copy an [Project.ExportFiles] into it left when it was killed
// part-way, so that the export can run again: every file under the
// sessions, task and spill directories that is, byte for byte, the
// beginning of the file ExportFiles would write at that place now (or all
// of it), and then the directories left empty. A caller calls it only for
// a directory it marked as the destination of that export before the
// export began (as lite-agent migrate --from-store does), and holds the
// directory against other writers meanwhile.
//
// Anything else there (a file the export does not write, or one whose
// content is not such a beginning: written by another process, or the
// records changed since in the database) proves the directory is not only
// the export's, and nothing at all is removed: the error matches
// migrate.ErrDestinationNotEmpty and names the file. A file that changes
// between the check and its removal is kept, and named the same way.
// p is only read.
func (p *Project) RemovePartialExport(ctx context.Context, paths storage.ProjectPaths) error {
	dst, err := p.side(paths)
	if err != nil {
		return err
	}
	plan := exportPlan{}
	if err := exportFiles(ctx, p, dst, &FilesReport{}, plan); err != nil {
		return err
	}
	type checkedFile struct {
		path string
		info fs.FileInfo
	}
	var files []checkedFile
	var dirs []string
	foreign := func(path, why string) error {
		return fmt.Errorf("%w: %s holds an interrupted export and %s, which %s; move it away by hand", migrate.ErrDestinationNotEmpty, paths.ProjectDir(), path, why)
	}
	for _, root := range []string{paths.SessionsDir, paths.TasksDir, paths.SpillDir} {
		err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			switch {
			case errors.Is(err, fs.ErrNotExist) && path == root:
				return nil
			case err != nil:
				return err
			case e.IsDir():
				dirs = append(dirs, path)
				return nil
			case !e.Type().IsRegular():
				return foreign(path, "is not a regular file")
			}
			want, ok := plan[path]
			if !ok {
				return foreign(path, "the export does not write (the database has no such record)")
			}
			info, same, err := startsExport(path, want)
			if err != nil {
				return err
			}
			if !same {
				return foreign(path, "differs from what the export writes there")
			}
			files = append(files, checkedFile{path, info})
			return nil
		})
		if err != nil {
			return err
		}
	}
	var kept error
	for _, f := range files {
		cur, err := os.Lstat(f.path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return err
		case !os.SameFile(cur, f.info) || cur.Size() != f.info.Size() || !cur.ModTime().Equal(f.info.ModTime()):
			if kept == nil {
				kept = foreign(f.path, "changed while the interrupted export was cleared")
			}
			continue
		}
		if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = syscall.Rmdir(dirs[i]) // only if empty
	}
	return kept
}

// startsExport reports whether the regular file at path holds the
// beginning of want (or all of it), and returns its state as read.
func startsExport(path string, want []byte) (fs.FileInfo, bool, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|safefs.NoWait, 0)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !info.Mode().IsRegular() || info.Size() > int64(len(want)) {
		return info, false, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(len(want))+1))
	if err != nil {
		return nil, false, err
	}
	return info, bytes.HasPrefix(want, data), nil
}
