package postgres

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// ErrExportLeftFiles is matched by the error of a failed
// [Project.ExportFiles] that could not remove all it wrote.
var ErrExportLeftFiles = errors.New("postgres: the failed export's files were not all removed")

// exportWriter writes the new files of an export and remembers what it
// created, so that a failed export removes exactly that. Everything below
// the destination project directory is made, written, stamped, synced and
// removed through that directory's proven handle (safefs.Dir), anchored
// from the data home down when the first file is written: a link swapped
// in for projects/, the project directory or a directory below it makes
// the export fail, never write or remove where the link leads.
type exportWriter struct {
	root     string      // the destination project directory: nothing is written outside it
	dir      *safefs.Dir // root, anchored on first use
	rootMade []string    // the directories made to anchor root (absolute, outermost first)
	files    []exportedFile
	dirs     []string // the directories made below root (relative), each after its parent
}

// exportedFile is a file the export created, as it left it.
type exportedFile struct {
	rel  string // relative to the root
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

// rel returns path relative to the root, refusing (what names) a path
// outside it.
func (w *exportWriter) rel(path, what string) (string, error) {
	rel, err := filepath.Rel(w.root, path)
	if w.root == "" || err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", &storage.Error{Op: "write", File: path, Message: "the export names " + what + " outside its destination " + w.root}
	}
	return rel, nil
}

// anchor anchors the root, making it and its missing parents (remembered
// so that a failed export removes them) from the data home down.
func (w *exportWriter) anchor() error {
	if w.dir != nil {
		return nil
	}
	missing := safefs.MissingDirs(w.root)
	d, _, err := safefs.AnchorUnsynced(w.root) // synced by sync, with the rest
	if err != nil {
		return err
	}
	w.dir, w.rootMade = d, missing
	return nil
}

// mkdir makes directory dir and its missing parents, remembered so that
// a failed export removes them.
func (w *exportWriter) mkdir(dir string) error {
	rel, err := w.rel(dir, "a directory")
	if err != nil {
		return err
	}
	if err := w.anchor(); err != nil {
		return err
	}
	made, err := w.dir.MkdirAll(rel)
	w.dirs = append(w.dirs, made...)
	return err
}

// write writes data as the new file path, its directory made if needed,
// sets its modification time when mtime is not zero, and fsyncs it.
func (w *exportWriter) write(path string, data []byte, mtime time.Time) (err error) {
	rel, err := w.rel(path, "a file")
	if err != nil {
		return err
	}
	if err := w.mkdir(filepath.Dir(path)); err != nil {
		return err
	}
	f, err := w.dir.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, exportFileMode)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		// The file is the export's, as it is now (whole or not).
		if st, serr := w.dir.Lstat(rel); serr == nil {
			w.files = append(w.files, exportedFile{rel: rel, info: st})
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	// The time first, so that the fsync keeps it too.
	if !mtime.IsZero() {
		if err := w.dir.Touch(rel, mtime); err != nil {
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
	if len(w.rootMade) > 0 {
		// The root and the directories above it that were made: each
		// made parent's parent, from the home down.
		parents := make([]string, 0, len(w.rootMade))
		for _, d := range w.rootMade {
			parents = append(parents, filepath.Dir(d))
		}
		for _, p := range parents {
			d, err := safefs.AnchorExisting(p)
			if err == nil {
				err = d.SyncDir(".")
			}
			if err != nil {
				return err
			}
		}
	}
	if w.dir == nil {
		return nil
	}
	dirs := map[string]bool{}
	for _, f := range w.files {
		dirs[filepath.Dir(f.rel)] = true
	}
	for _, d := range w.dirs {
		dirs[filepath.Dir(d)] = true
	}
	for d := range dirs {
		if err := w.dir.SyncDir(d); err != nil {
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
	if w.dir == nil {
		safefs.RemoveEmptyDirs(w.rootMade)
		return err // nothing written
	}
	var kept []string
	for i := len(w.files) - 1; i >= 0; i-- {
		f := w.files[i]
		path := filepath.Join(w.root, f.rel)
		cur, lerr := w.dir.Lstat(f.rel)
		switch {
		case errors.Is(lerr, fs.ErrNotExist):
		case lerr != nil:
			kept = append(kept, path)
		case !os.SameFile(cur, f.info) || cur.Size() != f.info.Size() || !cur.ModTime().Equal(f.info.ModTime()):
			kept = append(kept, path+" (changed since the export wrote it)")
		default:
			if rerr := w.dir.Remove(f.rel); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				kept = append(kept, path)
			}
		}
	}
	for i := len(w.dirs) - 1; i >= 0; i-- {
		_ = w.dir.RemoveEmptyDir(w.dirs[i]) // only if empty, and never a file put there since
	}
	safefs.RemoveEmptyDirs(w.rootMade)
	if len(kept) > 0 {
		return fmt.Errorf("%w; %w: %s", err, ErrExportLeftFiles, strings.Join(kept, ", "))
	}
	return err
}
