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
	"strings"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// exportSink receives the files an export writes: exportWriter writes
// them, exportPlan only remembers their content.
type exportSink interface {
	writeRecords(path string, recs [][]byte, mtime time.Time) error
	write(path string, data []byte, mtime time.Time) error
	// mkdir makes directory dir, and its parents, when missing: the
	// directory of a task list with no task file.
	mkdir(dir string) error
}

// exportPlan is what an export would write now at the paths of
// interest: each file's content by path. The export of a project streams
// it, one record at a time; the plan keeps only the files asked for (those
// found in the destination), so that it does not hold the project.
type exportPlan struct {
	want  map[string]bool   // the paths whose content is kept
	files map[string][]byte // what the export writes at each of them
}

func (p *exportPlan) writeRecords(path string, recs [][]byte, _ time.Time) error {
	if !p.want[path] {
		return nil
	}
	var b bytes.Buffer
	for _, r := range recs {
		b.Write(r)
		b.WriteByte('\n')
	}
	p.files[path] = b.Bytes()
	return nil
}

// mkdir writes no file: a directory the export makes is removed by
// RemovePartialExport when left empty.
func (p *exportPlan) mkdir(string) error { return nil }

func (p *exportPlan) write(path string, data []byte, _ time.Time) error {
	if p.want[path] {
		p.files[path] = bytes.Clone(data)
	}
	return nil
}

// RemovePartialExport removes from the project directory of paths the
// partial copy an [Project.ExportFiles] into it left when it was killed
// part-way, so that the export can run again: every file under the
// sessions, task and spill directories that is, byte for byte, the
// beginning of the file ExportFiles would write at that place now (or all
// of it), and then the directories left empty. A task record the export
// encodes again for its file (its task id is not the file's stem), which a
// codec with random nonces encodes differently each time, counts as the
// export's when the whole file decodes to the same record. A caller
// calls it only for a directory it marked as the destination of that
// export before the export began (as lite-agent migrate --from-store
// does), and holds the directory against other writers meanwhile. It
// reads the whole project, as the export does, but keeps in memory only
// what the export writes at the places where it finds a file.
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
	type checkedFile struct {
		path string
		info fs.FileInfo
	}
	foreign := func(path, why string) error {
		return fmt.Errorf("%w: %s holds an interrupted export and %s, which %s; move it away by hand", migrate.ErrDestinationNotEmpty, paths.ProjectDir(), path, why)
	}
	// What is there first, then what the export writes at those places.
	var found []string
	var dirs []string
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
			found = append(found, path)
			return nil
		})
		if err != nil {
			return err
		}
	}
	plan := &exportPlan{want: make(map[string]bool, len(found)), files: map[string][]byte{}}
	for _, path := range found {
		plan.want[path] = true
	}
	if err := exportFiles(ctx, p, dst, &FilesReport{}, plan); err != nil {
		return err
	}
	var files []checkedFile
	for _, path := range found {
		want, ok := plan.files[path]
		if !ok {
			return foreign(path, "the export does not write (the database has no such record)")
		}
		info, same, err := startsExport(path, want, p.reencodedRecord(ctx, paths, path, want))
		if err != nil {
			return err
		}
		if !same {
			return foreign(path, "differs from what the export writes there")
		}
		files = append(files, checkedFile{path, info})
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

// reencodedRecord returns, for the task record file at path of a project
// with a codec, the test that a whole file holds the record want encodes:
// the export encodes a record again for its file when the task's id is
// not the file's stem (see fileTaskRecord), and an AEAD's new nonce makes
// every such encoding differ, so the file the export wrote is known by
// what it decodes to, not by its bytes. It returns nil for every other
// file.
func (p *Project) reencodedRecord(ctx context.Context, paths storage.ProjectPaths, path string, want []byte) func([]byte) bool {
	if !p.enc.Encoded() {
		return nil
	}
	rel, err := filepath.Rel(paths.TasksDir, path)
	if err != nil {
		return nil
	}
	list, name, ok := strings.Cut(rel, string(filepath.Separator))
	if !ok || strings.Contains(name, string(filepath.Separator)) || storage.ValidateID(list) != nil {
		return nil
	}
	stem, ok := task.RecordStem(name)
	if !ok {
		return nil
	}
	return func(data []byte) bool {
		a, err := p.enc.Decode(ctx, storage.KindTask, list, stem, data)
		if err != nil {
			return false
		}
		b, err := p.enc.Decode(ctx, storage.KindTask, list, stem, want)
		return err == nil && bytes.Equal(a, b)
	}
}

// startsExport reports whether the regular file at path holds the
// beginning of want (or all of it), or, when sameRecord is not nil, a
// whole record sameRecord takes for want, and returns its state as read.
func startsExport(path string, want []byte, sameRecord func([]byte) bool) (fs.FileInfo, bool, error) {
	f, err := safefs.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	limit := int64(len(want))
	if sameRecord != nil {
		limit = 2*limit + 4096 // another encoding of the record: a nonce, a tag, a key id
	}
	if !info.Mode().IsRegular() || info.Size() > limit {
		return info, false, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, err
	}
	if bytes.HasPrefix(want, data) {
		return info, true, nil
	}
	return info, sameRecord != nil && sameRecord(data), nil
}
