package postgres

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// ErrExportLeftFiles is matched by the error of a failed
// [Project.ExportFiles] that could not remove all it wrote.
var ErrExportLeftFiles = errors.New("postgres: the failed export's files were not all removed")

// exportWriter writes the new files of an export and remembers what it
// created, so that a failed export removes exactly that.
type exportWriter struct {
	root  string // the destination project directory: nothing is written outside it
	files []exportedFile
	dirs  []string // the directories made, each after its parent
}

// exportedFile is a file the export created, as it left it.
type exportedFile struct {
	path string
	info fs.FileInfo
}

// writeRecords writes the records as the lines of the new file path.
func (w *exportWriter) writeRecords(path string, recs [][]byte, mtime time.Time) error {
	var b bytes.Buffer
	for _, r := range recs {
		b.Write(r)
		b.WriteByte('\n')
	}
	return w.write(path, b.Bytes(), mtime)
}

// mkdir makes directory dir and its missing parents, remembered so that
// a failed export removes them.
func (w *exportWriter) mkdir(dir string) error {
	if rel, err := filepath.Rel(w.root, dir); w.root == "" || err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return &storage.Error{Op: "write", File: dir, Message: "the export names a directory outside its destination " + w.root}
	}
	missing := safefs.MissingDirs(dir)
	if err := os.MkdirAll(dir, exportDirMode); err != nil {
		return err
	}
	w.dirs = append(w.dirs, missing...)
	return nil
}

// write writes data as the new file path, its directory made if needed,
// sets its modification time when mtime is not zero, and fsyncs it.
func (w *exportWriter) write(path string, data []byte, mtime time.Time) (err error) {
	if rel, err := filepath.Rel(w.root, path); w.root == "" || err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return &storage.Error{Op: "write", File: path, Message: "the export names a file outside its destination " + w.root}
	}
	if err := w.mkdir(filepath.Dir(path)); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, exportFileMode)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		// The file is the export's, as it is now (whole or not).
		if st, serr := os.Lstat(path); serr == nil {
			w.files = append(w.files, exportedFile{path: path, info: st})
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	// The time first, so that the fsync keeps it too.
	if !mtime.IsZero() {
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			return err
		}
	}
	return f.Sync()
}

// sync fsyncs the directory of every file the export created and the
// parent of every directory it made (each file was fsynced as written):
// until then a power loss may take the files, or whole directories,
// away, their entries never written, from an export reported done.
func (w *exportWriter) sync() error {
	dirs := map[string]bool{}
	for _, f := range w.files {
		dirs[filepath.Dir(f.path)] = true
	}
	for _, d := range w.dirs {
		dirs[filepath.Dir(d)] = true
	}
	for d := range dirs {
		if err := safefs.SyncDir(d); err != nil {
			return err
		}
	}
	return nil
}

// abandon removes what the export wrote after it failed with err: the
// files first, then the directories it made, innermost first, each only
// if empty (another process's files keep theirs). A file is removed only
// if it is still the one the export created, with the size and time the
// export left it with: one replaced or written to since is not the
// export's any more. The files kept are named in the error returned.
func (w *exportWriter) abandon(err error) error {
	var kept []string
	for i := len(w.files) - 1; i >= 0; i-- {
		f := w.files[i]
		cur, lerr := os.Lstat(f.path)
		switch {
		case errors.Is(lerr, fs.ErrNotExist):
		case lerr != nil:
			kept = append(kept, f.path)
		case !os.SameFile(cur, f.info) || cur.Size() != f.info.Size() || !cur.ModTime().Equal(f.info.ModTime()):
			kept = append(kept, f.path+" (changed since the export wrote it)")
		default:
			if rerr := os.Remove(f.path); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				kept = append(kept, f.path)
			}
		}
	}
	for i := len(w.dirs) - 1; i >= 0; i-- {
		_ = syscall.Rmdir(w.dirs[i]) // only if empty, and never a file put there since
	}
	if len(kept) > 0 {
		return fmt.Errorf("%w; %w: %s", err, ErrExportLeftFiles, strings.Join(kept, ", "))
	}
	return err
}
