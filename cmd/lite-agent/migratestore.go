package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// storeMigration counts what migrate --to-store copied.
type storeMigration struct {
	Sessions  int `json:"sessions"`
	Records   int `json:"records"`
	Archives  int `json:"archives"`
	TaskLists int `json:"taskLists"`
	Tasks     int `json:"tasks"`
	Spilled   int `json:"spilled"`
	// Verified reports that every record read back from the database
	// equals the record read from the files.
	Verified bool `json:"verified"`
}

// runMigrateToStore copies the project the global flags select from its
// data home into the database at url, keeping namespace, project hash and
// codec, so that each record's encoded bytes are copied as they are; then
// it reads every record back through both stores and compares them. The
// files are only read. The destination project must be empty; if
// anything fails, what was copied is deleted again.
func runMigrateToStore(ctx context.Context, g *globalFlags, url string, asJSON bool, out io.Writer) (err error) {
	if err := checkStoreURL(url); err != nil {
		return usagef("invalid --to-store: %w", err)
	}
	src, err := g.project()
	if err != nil {
		return err
	}
	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		return scrub(fmt.Errorf("open store: %w", err), passwordOf(url))
	}
	defer st.Close()
	dst, err := st.Project(src.enc)
	if err != nil {
		return err
	}
	empty, err := dst.Empty(ctx)
	switch {
	case err != nil:
		return err
	case !empty:
		return fmt.Errorf("the project %s of namespace %s in the database is not empty: migrate only into an empty project", src.paths.Hash, src.paths.Namespace)
	}
	var rep storeMigration
	defer func() {
		if err != nil {
			if cerr := dst.Clear(context.WithoutCancel(ctx)); cerr != nil {
				err = fmt.Errorf("%w; removing the partial copy also failed: %w", err, cerr)
			}
		}
	}()
	if err := copySessions(ctx, src, dst, &rep); err != nil {
		return err
	}
	if err := copyTaskLists(ctx, src, dst, &rep); err != nil {
		return err
	}
	if err := copySpill(ctx, src, dst, &rep); err != nil {
		return err
	}
	if err := verifyStoreCopy(ctx, src, st, dst); err != nil {
		return fmt.Errorf("verification failed, nothing is kept: %w", err)
	}
	rep.Verified = true
	if asJSON {
		return writeJSON(out, rep)
	}
	fmt.Fprintf(out, "migrated project %s (namespace %s) into the database\n  %d sessions (%d records), %d archives, %d task lists (%d tasks), %d spilled bodies\nverified: every record read back from the database equals its source\n",
		src.paths.Hash, src.paths.Namespace, rep.Sessions, rep.Records, rep.Archives, rep.TaskLists, rep.Tasks, rep.Spilled)
	return nil
}

// readDir lists dir, or nothing when it does not exist.
func readDir(dir string) ([]fs.DirEntry, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return ents, err
}

// copySessions copies every session log of src and its context archive.
// A torn tail (bytes after the last newline) is not a record and stays
// behind.
func copySessions(ctx context.Context, src project, dst *postgres.Project, rep *storeMigration) error {
	ents, err := readDir(src.paths.SessionsDir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		id, ok := session.LogID(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(src.paths.SessionsDir, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		var recs [][]byte
		for len(data) > 0 {
			line, rest, complete := bytes.Cut(data, []byte("\n"))
			if !complete {
				break // a torn tail
			}
			recs = append(recs, line)
			data = rest
		}
		if err := dst.ImportSession(ctx, id, recs, info.ModTime()); err != nil {
			return fmt.Errorf("session %s: %w", id, err)
		}
		rep.Sessions++
		rep.Records += len(recs)
		if err := copyArchive(ctx, storage.SessionContextDir(src.paths.SessionsDir, id), id, dst, rep); err != nil {
			return fmt.Errorf("session %s archive: %w", id, err)
		}
	}
	return nil
}

// copyArchive copies the context archive in dir of session id, if any.
func copyArchive(ctx context.Context, dir, id string, dst *postgres.Project, rep *storeMigration) error {
	data, err := os.ReadFile(filepath.Join(dir, archive.IndexFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var index [][]byte
	for len(data) > 0 {
		line, rest, complete := bytes.Cut(data, []byte("\n"))
		if !complete {
			return fmt.Errorf("%s: the last index line is incomplete", filepath.Join(dir, archive.IndexFile))
		}
		index = append(index, line)
		data = rest
	}
	notes := map[string][]byte{}
	ents, err := readDir(filepath.Join(dir, archive.NotesDir))
	if err != nil {
		return err
	}
	for _, e := range ents {
		ref, ok := archive.NoteRef(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if notes[ref], err = os.ReadFile(filepath.Join(dir, archive.NotesDir, e.Name())); err != nil {
			return err
		}
	}
	if len(index) == 0 && len(notes) == 0 {
		return nil
	}
	rep.Archives++
	return dst.ImportArchive(ctx, id, index, notes)
}

// copyTaskLists copies every task list of src, shared marks included.
func copyTaskLists(ctx context.Context, src project, dst *postgres.Project, rep *storeMigration) error {
	ids, err := listIDs(src.paths.TasksDir, "")
	if err != nil {
		return err
	}
	for _, id := range ids {
		dir := src.paths.TaskListDir(id)
		ents, err := readDir(dir)
		if err != nil {
			return err
		}
		recs := map[string][]byte{}
		for _, e := range ents {
			tid, ok := task.RecordStem(e.Name())
			if !ok || !e.Type().IsRegular() || strings.HasPrefix(tid, ".") {
				continue
			}
			if recs[tid], err = os.ReadFile(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
		if err := dst.ImportTaskList(ctx, id, recs, task.IsShared(src.paths.TasksDir, id)); err != nil {
			return fmt.Errorf("task list %s: %w", id, err)
		}
		rep.TaskLists++
		rep.Tasks += len(recs)
	}
	return nil
}

// copySpill copies every spilled body of src.
func copySpill(ctx context.Context, src project, dst *postgres.Project, rep *storeMigration) error {
	ents, err := readDir(src.paths.SpillDir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		ref, ok := spill.FileRef(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		body, err := os.ReadFile(filepath.Join(src.paths.SpillDir, e.Name()))
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		if err := dst.ImportSpill(ctx, ref, body, info.ModTime()); err != nil {
			return err
		}
		rep.Spilled++
	}
	return nil
}

// verifyStoreCopy reads every record of src through the file stores and
// through the database's, and fails at the first that differs or does not
// read.
func verifyStoreCopy(ctx context.Context, src project, st *postgres.Store, dst *postgres.Project) error {
	if ok, _ := exists(src.paths.SessionsDir); ok {
		fcp, err := session.NewFileCheckpointer(src.paths.SessionsDir, session.FileOptions{Encoding: src.enc})
		if err != nil {
			return err
		}
		infos, err := fcp.List(ctx)
		if err != nil {
			return err
		}
		for _, in := range infos {
			a, err := fcp.Read(ctx, in.ID, 0)
			if err != nil {
				return fmt.Errorf("session %s in the files: %w", in.ID, err)
			}
			b, err := dst.Checkpointer().Read(ctx, in.ID, 0)
			if err != nil {
				return fmt.Errorf("session %s in the database: %w", in.ID, err)
			}
			if err := sameJSON(a, b); err != nil {
				return fmt.Errorf("session %s: %w", in.ID, err)
			}
			if err := sameArchive(ctx, src, dst, in.ID); err != nil {
				return fmt.Errorf("session %s archive: %w", in.ID, err)
			}
		}
	}
	ids, err := listIDs(src.paths.TasksDir, "")
	if err != nil {
		return err
	}
	for _, id := range ids {
		fs, err := task.NewFileStore(src.paths.TasksDir, id, src.enc)
		if err != nil {
			return err
		}
		a, err := fs.List(ctx)
		if err != nil {
			return fmt.Errorf("task list %s in the files: %w", id, err)
		}
		tl, err := st.TaskList(ctx, src.enc, id)
		if err != nil {
			return err
		}
		b, err := tl.List(ctx)
		if err != nil {
			return fmt.Errorf("task list %s in the database: %w", id, err)
		}
		if err := sameJSON(a, b); err != nil {
			return fmt.Errorf("task list %s: %w", id, err)
		}
	}
	ents, err := readDir(src.paths.SpillDir)
	if err != nil || len(ents) == 0 {
		return err
	}
	fsp, err := spill.NewFileStore(src.paths.SpillDir, src.enc)
	if err != nil {
		return err
	}
	for _, e := range ents {
		ref, ok := spill.FileRef(e.Name())
		if !ok {
			continue
		}
		a, _, err := fsp.Get(ctx, ref)
		if err != nil {
			return fmt.Errorf("spilled %s in the files: %w", ref, err)
		}
		b, found, err := dst.Spill().Get(ctx, ref)
		if err != nil || !found || a != b {
			return fmt.Errorf("spilled %s differs in the database (found %v): %v", ref, found, err)
		}
	}
	return nil
}

// sameArchive checks that the archive of session id decodes to the same
// index records and notes in the files and in the database.
func sameArchive(ctx context.Context, src project, dst *postgres.Project, id string) error {
	dir := storage.SessionContextDir(src.paths.SessionsDir, id)
	index, notes, err := dst.ExportArchive(ctx, id)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(dir, archive.IndexFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var want [][]byte
	for line := range bytes.Lines(data) {
		want = append(want, bytes.TrimSuffix(line, []byte("\n")))
	}
	if len(want) != len(index) {
		return fmt.Errorf("%d index records in the files, %d in the database", len(want), len(index))
	}
	for i := range want {
		a, err := src.enc.Decode(ctx, storage.KindArchiveIndex, id, fmt.Sprint(i), want[i])
		if err != nil {
			return err
		}
		b, err := src.enc.Decode(ctx, storage.KindArchiveIndex, id, fmt.Sprint(i), index[i])
		if err != nil || !bytes.Equal(a, b) {
			return fmt.Errorf("index record %d differs: %v", i, err)
		}
	}
	for ref, stored := range notes {
		file, err := os.ReadFile(filepath.Join(dir, archive.NotesDir, ref+archive.NoteSuffix))
		if err != nil {
			return err
		}
		a, err := src.enc.Decode(ctx, storage.KindArchive, id, ref, file)
		if err != nil {
			return err
		}
		b, err := src.enc.Decode(ctx, storage.KindArchive, id, ref, stored)
		if err != nil || !bytes.Equal(a, b) {
			return fmt.Errorf("note %s differs: %v", ref, err)
		}
	}
	return nil
}

// sameJSON reports whether a and b encode to the same JSON.
func sameJSON(a, b any) error {
	ja, err := json.Marshal(a)
	if err != nil {
		return err
	}
	jb, err := json.Marshal(b)
	if err != nil {
		return err
	}
	if !bytes.Equal(ja, jb) {
		return errors.New("the copy differs from the source")
	}
	return nil
}

// storeMigrationFlags lists the migrate flags that --to-store cannot take:
// it keeps namespace, project and codec.
var storeMigrationFlags = []string{"to-home", "to-namespace", "to-workdir", "to-codec", "to-key-env", "to-key-file", "to-key-id", "all-projects", "dry-run", "skip-unreadable"}

// checkStoreMigrationFlags rejects the flags that --to-store (or, when
// fromStore, --from-store, which takes --to-home) cannot be combined with.
func checkStoreMigrationFlags(changed func(string) bool, fromStore bool) error {
	flag := "--to-store"
	if fromStore {
		flag = "--from-store"
		if changed("to-store") {
			return usagef("--from-store and --to-store are mutually exclusive")
		}
		if !changed("to-home") {
			return usagef("--from-store needs --to-home DIR, the destination data home")
		}
	}
	for _, name := range storeMigrationFlags {
		if changed(name) && !(fromStore && name == "to-home") {
			return usagef("%s copies one project as it is: --%s cannot be combined with it", flag, name)
		}
	}
	return nil
}

// File modes of what migrate --from-store writes.
const (
	exportDirMode  = 0o700
	exportFileMode = 0o600
)

// runMigrateFromStore copies the project the global flags select from the
// database at url into the data home toHome, keeping namespace, project
// hash and codec, so that each record's encoded bytes are written as they
// are; then it reads every record back through both stores and compares
// them. The database is only read. The project directory under toHome
// must not exist or be empty; it carries migrate.MarkerName until the
// copy is verified, and is removed again if anything fails.
func runMigrateFromStore(ctx context.Context, g *globalFlags, url, toHome string, asJSON bool, out io.Writer) (err error) {
	if err := checkStoreURL(url); err != nil {
		return usagef("invalid --from-store: %w", err)
	}
	workdir, err := g.workdirOption()
	if err != nil {
		return err
	}
	opts, err := g.storageOptions()
	if err != nil {
		return err
	}
	opts.Home = toHome
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: opts})
	if err != nil {
		return err
	}
	dst := project{paths: paths, opts: opts, enc: storage.Encoding{Codec: opts.Codec, Namespace: paths.Namespace, ProjectID: paths.Hash}}
	dir := paths.ProjectDir()
	if ents, err := readDir(dir); err != nil {
		return err
	} else if len(ents) > 0 {
		return fmt.Errorf("%s is not empty: migrate only into an empty project directory", dir)
	}
	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		return scrub(fmt.Errorf("open store: %w", err), passwordOf(url))
	}
	defer st.Close()
	src, err := st.Project(dst.enc)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, exportDirMode); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			if rerr := os.RemoveAll(dir); rerr != nil {
				err = fmt.Errorf("%w; removing the partial copy also failed: %w", err, rerr)
			}
		}
	}()
	marker := filepath.Join(dir, migrate.MarkerName)
	if err := os.WriteFile(marker, nil, exportFileMode); err != nil {
		return err
	}
	var rep storeMigration
	if err := exportProject(ctx, st, src, dst, &rep); err != nil {
		return err
	}
	if err := verifyStoreCopy(ctx, dst, st, src); err != nil {
		return fmt.Errorf("verification failed, nothing is kept: %w", err)
	}
	if err := os.Remove(marker); err != nil {
		return err
	}
	rep.Verified = true
	if asJSON {
		return writeJSON(out, rep)
	}
	fmt.Fprintf(out, "migrated project %s (namespace %s) from the database into %s\n  %d sessions (%d records), %d archives, %d task lists (%d tasks), %d spilled bodies\nverified: every record read back from the files equals its source\n",
		paths.Hash, paths.Namespace, dir, rep.Sessions, rep.Records, rep.Archives, rep.TaskLists, rep.Tasks, rep.Spilled)
	return nil
}

// writeRecords writes the records as the lines of file path.
func writeRecords(path string, recs [][]byte, mtime time.Time) error {
	var b bytes.Buffer
	for _, r := range recs {
		b.Write(r)
		b.WriteByte('\n')
	}
	return writeExported(path, b.Bytes(), mtime)
}

// writeExported writes data as the new file path, its directory made if
// needed, and sets its modification time when mtime is not zero.
func writeExported(path string, data []byte, mtime time.Time) error {
	if err := os.MkdirAll(filepath.Dir(path), exportDirMode); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, exportFileMode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if mtime.IsZero() {
		return nil
	}
	return os.Chtimes(path, mtime, mtime)
}

// exportProject writes every session, archive, task list and spilled body
// of src into the files of dst.
func exportProject(ctx context.Context, st *postgres.Store, src *postgres.Project, dst project, rep *storeMigration) error {
	infos, err := src.Checkpointer().List(ctx)
	if err != nil {
		return err
	}
	for _, in := range infos {
		recs, mod, err := src.ExportSession(ctx, in.ID)
		if err != nil {
			return fmt.Errorf("session %s: %w", in.ID, err)
		}
		if err := writeRecords(filepath.Join(dst.paths.SessionsDir, in.ID+session.LogSuffix), recs, mod); err != nil {
			return err
		}
		rep.Sessions++
		rep.Records += len(recs)
		index, notes, err := src.ExportArchive(ctx, in.ID)
		if err != nil {
			return fmt.Errorf("session %s archive: %w", in.ID, err)
		}
		if len(index) == 0 && len(notes) == 0 {
			continue
		}
		ctxDir := storage.SessionContextDir(dst.paths.SessionsDir, in.ID)
		if err := writeRecords(filepath.Join(ctxDir, archive.IndexFile), index, time.Time{}); err != nil {
			return err
		}
		for ref, note := range notes {
			if err := writeExported(filepath.Join(ctxDir, archive.NotesDir, ref+archive.NoteSuffix), note, time.Time{}); err != nil {
				return err
			}
		}
		rep.Archives++
	}
	lists, err := st.TaskListIDs(ctx, dst.enc)
	if err != nil {
		return err
	}
	for _, id := range lists {
		recs, shared, err := src.ExportTaskList(ctx, id)
		if err != nil {
			return fmt.Errorf("task list %s: %w", id, err)
		}
		for tid, rec := range recs {
			if err := writeExported(filepath.Join(dst.paths.TaskListDir(id), tid+task.RecordSuffix), rec, time.Time{}); err != nil {
				return err
			}
		}
		if shared {
			if err := writeExported(filepath.Join(dst.paths.TaskListDir(id), task.SharedMarker), nil, time.Time{}); err != nil {
				return err
			}
		}
		rep.TaskLists++
		rep.Tasks += len(recs)
	}
	return src.ExportSpill(ctx, func(ref string, body []byte, created time.Time) error {
		rep.Spilled++
		return writeExported(filepath.Join(dst.paths.SpillDir, ref+spill.FileSuffix), body, created)
	})
}
