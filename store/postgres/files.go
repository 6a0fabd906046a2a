package postgres

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// FilesReport counts what [Project.ImportFiles] or [Project.ExportFiles]
// copied.
type FilesReport struct {
	// Sessions, Records, Archives, TaskLists, Tasks and Spilled count the
	// session logs, their records, the context archives, the task lists,
	// their tasks and the spilled bodies copied.
	Sessions  int `json:"sessions"`
	Records   int `json:"records"`
	Archives  int `json:"archives"`
	TaskLists int `json:"taskLists"`
	Tasks     int `json:"tasks"`
	Spilled   int `json:"spilled"`
	// Verified reports that every record read back equals its source.
	Verified bool `json:"verified"`
}

// fileSide is the file home's project on the other side of a copy.
type fileSide struct {
	paths storage.ProjectPaths
	enc   storage.Encoding
}

// side checks that paths is the data home layout of p's project (a
// *ConfigError if not) and returns it with p's encoding. A projects/ or
// project directory that is a symlink is refused with an error matching
// migrate.ErrSymlink, as a migration and the agents refuse it: the home
// may be a link, nothing below it, and a link planted there would take
// an import's reads or an export's writes out of the data home.
func (p *Project) side(paths storage.ProjectPaths) (fileSide, error) {
	if paths.Hash != p.project || paths.Namespace != p.ns {
		return fileSide{}, &ConfigError{Message: fmt.Sprintf("the files are project %s of namespace %s, the database's %s of %s", paths.Hash, paths.Namespace, p.project, p.ns)}
	}
	if err := safefs.CheckProjectDirs(paths); err != nil {
		return fileSide{}, fmt.Errorf("%w: %w", migrate.ErrSymlink, err)
	}
	return fileSide{paths: paths, enc: p.enc}, nil
}

// ImportFiles copies the project's records from the file home laid out in
// paths (its sessions with their archives, task lists and spilled output)
// into p, which must be empty, then reads every record back through the
// file stores and through p and compares them. The encoded bytes are
// copied as they are, since a record's storage.Context names no path, so
// paths must be the layout of p's namespace and project and the files
// must be encoded with p's codec. A torn tail is not a record and stays
// behind. The files are only read (the file stores lock each record
// while reading it). If anything fails, what the copy inserted is deleted
// (its sessions, archives, task lists and spilled bodies, with whatever
// was added to them since), and nothing else: an agent of the project
// may have written its own records meanwhile, and they stay.
//
// A session being deleted in the files (its log set aside as
// <id>.jsonl.deleting) is refused with its *session.DeletingError, before
// anything is copied and again once the copy is verified: a delete that
// begins during the import fails it, and so does one that removes a
// session copied (a *session.NotFoundError), also when a new session has
// taken its id since (its log no longer begins with the record copied),
// so that what the database keeps never holds a session deleted from the
// files meanwhile. A delete that begins after that last check began after
// every read of the files: the session is imported whole (its log,
// archive and task list as the files held them) and is deleted from the
// files only, as a delete after the import would be.
//
// A project that is not empty (holding records of its own, or the partial
// copy of an interrupted import with records the files no longer have) is
// refused with an error matching migrate.ErrDestinationNotEmpty, as a
// migration refuses a destination that is not empty.
//
// Files a migration did not finish copying (a home or project directory
// holding migrate.MarkerName) are refused with an error matching
// migrate.ErrIncomplete before anything is copied.
//
// Until the copy is verified (or removed again), p carries a marker that
// [Project.ImportIncomplete] reports, so that an import killed part-way
// leaves a project lite-agent verify reports as incomplete; running
// ImportFiles again from the same files removes that partial copy first
// and completes the import. Two imports into one project exclude each
// other: the second fails at once with an *[ImportRunningError].
func (p *Project) ImportFiles(ctx context.Context, paths storage.ProjectPaths) (rep FilesReport, err error) {
	src, err := p.side(paths)
	if err != nil {
		return FilesReport{}, err
	}
	// A home or project a migration did not finish copying holds part of
	// a copy: imported, it would pass the verification below. The home,
	// which may be a link, is looked at by its path; the project's
	// directory through its handle, as it is read.
	if err := migrate.CheckComplete(paths.Home); err != nil {
		return FilesReport{}, fmt.Errorf("postgres: the files are not usable: %w", err)
	}
	pd, err := openSrcDir(paths.ProjectDir())
	if err != nil {
		return FilesReport{}, err
	}
	if err := pd.checkComplete(); err != nil {
		return FilesReport{}, fmt.Errorf("postgres: the files are not usable: %w", err)
	}
	sessions, err := openSrcDir(paths.SessionsDir)
	if err != nil {
		return FilesReport{}, err
	}
	if err := deletingSession(sessions, nil); err != nil {
		return FilesReport{}, err
	}
	release, err := p.lockImport(ctx)
	if err != nil {
		return FilesReport{}, err
	}
	defer release()
	incomplete, err := p.ImportIncomplete(ctx)
	if err != nil {
		return FilesReport{}, err
	}
	if incomplete {
		// An import that did not finish (killed: no other holds the
		// lock) left its marker and part of the copy: what the files
		// name goes. Anything else keeps the marker, for verify to report.
		prev, err := importedFrom(src)
		if err != nil {
			return FilesReport{}, err
		}
		if err := p.removeImported(ctx, prev, true); err != nil {
			return FilesReport{}, fmt.Errorf("removing the partial copy of an interrupted import: %w", err)
		}
	}
	empty, err := p.Empty(ctx)
	switch {
	case err != nil:
		return FilesReport{}, err
	case !empty && incomplete:
		return FilesReport{}, fmt.Errorf("postgres: %w: the project %s of namespace %s in the database holds the partial copy of an interrupted import with records the files no longer have: remove them (lite-agent sessions delete, or drop the project's rows) and run the import again", migrate.ErrDestinationNotEmpty, p.project, p.ns)
	case !empty:
		return FilesReport{}, fmt.Errorf("postgres: %w: the project %s of namespace %s in the database holds records: copy only into an empty project", migrate.ErrDestinationNotEmpty, p.project, p.ns)
	}
	// The marker stays until the copy is verified, or removed again, so
	// that an import killed part-way leaves a project verify reports.
	if err := p.setImportMarker(ctx); err != nil {
		return FilesReport{}, err
	}
	if p.importChecked != nil {
		p.importChecked()
	}
	var imp imported
	defer func() {
		if err != nil {
			// Removed even when ctx ended, within the lease's TTL: on a
			// database that stopped answering it could wait for ever,
			// and the marker left tells the next import (which removes
			// the copy first) and verify.
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.s.ttl)
			defer cancel()
			if cerr := p.removeImported(rctx, imp, false); cerr != nil {
				err = fmt.Errorf("%w; removing the partial copy also failed: %w", err, cerr)
			}
		}
	}()
	if err := copySessions(ctx, src, p, &rep, &imp); err != nil {
		return rep, err
	}
	if err := copyTaskLists(ctx, src, p, &rep, &imp); err != nil {
		return rep, err
	}
	if err := copySpill(ctx, src, p, &rep, &imp); err != nil {
		return rep, err
	}
	if p.importCopied != nil {
		p.importCopied()
	}
	if err := verifyFiles(ctx, src, p); err != nil {
		return rep, fmt.Errorf("verification failed, nothing is kept: %w", err)
	}
	// The files are the file stores', which the database's lock does not
	// cover: a delete may have begun since the check above, and the
	// verification, which goes by the sessions the files still list,
	// would not see the session it took away. Checked last, after the
	// copy and before the marker goes: a delete that began before this
	// check set the log aside first, so this sees it; one that begins
	// after it began after the copy, which is whole.
	if p.importVerified != nil {
		p.importVerified()
	}
	if err := sessionsKept(src.paths.SessionsDir, imp); err != nil {
		return rep, fmt.Errorf("nothing is kept: %w", err)
	}
	if p.importKept != nil {
		p.importKept()
	}
	if err := p.s.tx(ctx, func(tx db) error { return p.clearImportMarker(ctx, tx) }); err != nil {
		return rep, err
	}
	rep.Verified = true
	return rep, nil
}

// importedFrom returns what an import of src inserts, as far as the files
// tell it: every session (and its archive), task list and spilled body,
// each body with the creation time the import gives it.
func importedFrom(src fileSide) (imported, error) {
	var imp imported
	sessions, err := openSrcDir(src.paths.SessionsDir)
	if err != nil {
		return imp, err
	}
	ents, err := sessions.list()
	if err != nil {
		return imp, err
	}
	for _, e := range ents {
		if id, ok := session.LogID(e.Name()); ok && e.Type().IsRegular() {
			imp.sessions = append(imp.sessions, id)
		}
	}
	imp.archives = imp.sessions
	tasks, err := openSrcDir(src.paths.TasksDir)
	if err != nil {
		return imp, err
	}
	if imp.lists, err = fileTaskLists(tasks); err != nil {
		return imp, err
	}
	spillDir, err := openSrcDir(src.paths.SpillDir)
	if err != nil {
		return imp, err
	}
	if ents, err = spillDir.list(); err != nil {
		return imp, err
	}
	for _, e := range ents {
		ref, ok := spill.FileRef(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		info, err := spillDir.lstat(e.Name())
		if err != nil {
			return imp, err
		}
		imp.spill = append(imp.spill, importedBody{ref: ref, created: info.ModTime()})
	}
	return imp, nil
}

// ExportFiles writes every record of p into new files in the file home
// laid out in paths, whose project directory the caller has made sure is
// empty, then reads every record back through the file stores and
// through p and compares them. Encoded bytes are written as they are (see
// [Project.ImportFiles]). p is only read. Every file is created new: a
// file already there (an agent of the project may write its files
// meanwhile) fails the export and is left as it is.
//
// A task list the file store cannot hold, two of whose task ids would be
// stored in one record file or in files whose names differ only in case
// (one file on a case-insensitive file system, see
// task.FoldedRecordName), is refused with a *task.InputError before
// anything is written; so are two sessions, or two task lists, whose ids
// differ only in case, with a *storage.Error matching
// storage.ErrIDCaseCollision (see storage.CheckIDCase).
//
// A project an import did not finish copying into (see
// [Project.ImportIncomplete]) is refused with an error matching
// [ErrImportIncomplete] before anything is written.
//
// Every file written is fsynced, and so is the directory of each, and
// the parent of each directory made, before the files are verified.
//
// On failure ExportFiles removes what it wrote, and nothing else: each
// file it created, if it is still that file as the export left it, and
// each directory it made, if it is empty. A file changed since is kept
// and named in the error, which then matches [ErrExportLeftFiles].
func (p *Project) ExportFiles(ctx context.Context, paths storage.ProjectPaths) (FilesReport, error) {
	dst, err := p.side(paths)
	if err != nil {
		return FilesReport{}, err
	}
	// A partial copy would be written whole and verified as such.
	if incomplete, err := p.ImportIncomplete(ctx); err != nil {
		return FilesReport{}, err
	} else if incomplete {
		return FilesReport{}, fmt.Errorf("project %s of namespace %s: %w", p.project, p.ns, ErrImportIncomplete)
	}
	var rep FilesReport
	w := &exportWriter{root: paths.ProjectDir()}
	if err := exportFiles(ctx, p, dst, &rep, w); err != nil {
		return rep, w.abandon(err)
	}
	if err := w.sync(); err != nil {
		return rep, w.abandon(err)
	}
	if err := verifyFiles(ctx, dst, p); err != nil {
		return rep, w.abandon(fmt.Errorf("verification failed: %w", err))
	}
	rep.Verified = true
	return rep, nil
}

// fileTaskLists returns the task lists in tasks: its directories named
// with a valid id.
func fileTaskLists(tasks srcDir) ([]string, error) {
	ents, err := tasks.list()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		if e.IsDir() && storage.ValidateID(e.Name()) == nil {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// copySessions copies every session log of src and its context archive.
// A torn tail (bytes after the last newline) is not a record and stays
// behind.
func copySessions(ctx context.Context, src fileSide, dst *Project, rep *FilesReport, imp *imported) error {
	sessions, err := openSrcDir(src.paths.SessionsDir)
	if err != nil {
		return err
	}
	ents, err := sessions.list()
	if err != nil {
		return err
	}
	for _, e := range ents {
		id, ok := session.LogID(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		recs, err := readLogLines(sessions, e.Name())
		if err != nil {
			return err
		}
		info, err := sessions.lstat(e.Name())
		if err != nil {
			return err
		}
		if err := dst.ImportSession(ctx, id, recs, info.ModTime()); err != nil {
			return fmt.Errorf("session %s: %w", id, err)
		}
		imp.sessions = append(imp.sessions, id)
		if len(recs) > 0 {
			if imp.firsts == nil {
				imp.firsts = map[string][]byte{}
			}
			imp.firsts[id] = recs[0]
		}
		rep.Sessions++
		rep.Records += len(recs)
		ctxDir, err := sessions.sub(filepath.Base(storage.SessionContextDir(sessions.path, id)))
		if err != nil {
			return fmt.Errorf("session %s archive: %w", id, err)
		}
		if err := copyArchive(ctx, ctxDir, id, dst, rep, imp); err != nil {
			return fmt.Errorf("session %s archive: %w", id, err)
		}
		if dst.importSession != nil {
			dst.importSession(id)
		}
	}
	return nil
}

// readLogLines returns the complete lines of the session log name in dir, as
// completeLines returns those of the whole file, reading it as a stream
// the way the file store does: a line longer than session.MaxLineBytes is
// refused with a *storage.Error, and a torn tail, however long, is read
// past without being held (a planted sparse log costs no disk; read whole,
// a 3 GiB one took 7.5 GB).
func readLogLines(dir srcDir, name string) ([][]byte, error) {
	path := filepath.Join(dir.path, name)
	cannotRead := &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: path, Message: "cannot read checkpoint log"}
	f, err := dir.open(name)
	if err != nil {
		return nil, cannotRead.WithCause(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, cannotRead.WithCause(err)
	}
	if !st.Mode().IsRegular() {
		return nil, &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: path, Message: "checkpoint log is not a regular file"}
	}
	// A log mostly of holes is refused, as the file store refuses it,
	// rather than its zeros read.
	if err := safefs.CheckHoles("read", path, f, st.Size()); err != nil {
		var se *storage.Error
		if errors.As(err, &se) {
			se.Kind = storage.KindCheckpoint
		}
		return nil, err
	}
	br := bufio.NewReaderSize(f, 64<<10)
	var recs [][]byte
	var off, start int64 // bytes read, and where the current line starts
	for {
		chunk, err := br.ReadSlice('\n')
		off += int64(len(chunk))
		switch {
		case err == nil:
			// A complete line: read it again, now that its length is
			// known, so that only lines within the limit are held.
			n := off - 1 - start
			if n > session.MaxLineBytes {
				return nil, &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: path, Record: strconv.Itoa(len(recs) + 1),
					Message: "checkpoint record exceeds the line length limit"}
			}
			line := chunk[:len(chunk)-1]
			if int64(len(line)) < n {
				line = make([]byte, n)
				if _, err := f.ReadAt(line, start); err != nil {
					return nil, cannotRead.WithCause(err)
				}
			} else {
				line = bytes.Clone(line)
			}
			recs = append(recs, line)
			start = off
		case errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			return recs, nil // what is left is a torn tail
		default:
			return nil, cannotRead.WithCause(err)
		}
	}
}

// completeLines returns the lines of data, a session log or an archive
// index as stored, without their newlines. A torn tail (bytes after the
// last newline, what an append or put killed part-way leaves, never
// acknowledged) is not a line and is left out, as the file stores' readers
// ignore it.
func completeLines(data []byte) [][]byte {
	var recs [][]byte
	for len(data) > 0 {
		line, rest, complete := bytes.Cut(data, []byte("\n"))
		if !complete {
			break // a torn tail
		}
		recs = append(recs, line)
		data = rest
	}
	return recs
}

// copyArchive copies the context archive in dir of session id, if any
// (dir does not exist when it has none). A
// torn tail of its index (see completeLines) stays behind, and so do the
// torn tails a put set aside (index.jsonl.torn-<ms>), which hold no
// record.
func copyArchive(ctx context.Context, dir srcDir, id string, dst *Project, rep *FilesReport, imp *imported) error {
	data, err := dir.readFile(archive.IndexFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	index := completeLines(data)
	notes := map[string][]byte{}
	notesDir, err := dir.sub(archive.NotesDir)
	if err != nil {
		return err
	}
	ents, err := notesDir.list()
	if err != nil {
		return err
	}
	for _, e := range ents {
		ref, ok := archive.NoteRef(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if notes[ref], err = notesDir.readFile(e.Name()); err != nil {
			return err
		}
	}
	if len(index) == 0 && len(notes) == 0 {
		return nil
	}
	if err := dst.ImportArchive(ctx, id, index, notes); err != nil {
		return err
	}
	imp.archives = append(imp.archives, id)
	rep.Archives++
	return nil
}

// A task record is stored in the database under its task id, and encoded
// with that id as its record id; in the files it is stored under
// task.RecordName(id) and encoded with the stem of that name, which is the
// id itself for every id task.Store.Create assigns. databaseTaskRecord and
// fileTaskRecord turn the one into the other; a record whose id and stem
// agree keeps its bytes.

// databaseTaskRecord returns the task id of the record data, read from
// the file whose name has the stem stem in list listID, and the record as
// the database stores it.
func databaseTaskRecord(ctx context.Context, enc storage.Encoding, listID, stem string, data []byte) (string, []byte, error) {
	plain, err := enc.Decode(ctx, storage.KindTask, listID, stem, data)
	if err != nil {
		return "", nil, err
	}
	var head struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(plain, &head); err != nil || head.ID == "" || !task.StoredUnder(head.ID, stem) {
		return "", nil, errors.New("the record's id is missing or does not match its file name")
	}
	if head.ID == stem || !enc.Encoded() {
		return head.ID, data, nil
	}
	data, err = enc.Encode(ctx, storage.KindTask, listID, head.ID, plain)
	return head.ID, data, err
}

// fileTaskRecord returns the record data of task id in list listID, as the
// database stores it, as its file holds it.
func fileTaskRecord(ctx context.Context, enc storage.Encoding, listID, id string, data []byte) ([]byte, error) {
	stem := strings.TrimSuffix(task.RecordName(id), task.RecordSuffix)
	if stem == id || !enc.Encoded() {
		return data, nil
	}
	plain, err := enc.Decode(ctx, storage.KindTask, listID, id, data)
	if err != nil {
		return nil, err
	}
	return enc.Encode(ctx, storage.KindTask, listID, stem, plain)
}

// copyTaskLists copies every task list of src, shared marks included.
func copyTaskLists(ctx context.Context, src fileSide, dst *Project, rep *FilesReport, imp *imported) error {
	tasks, err := openSrcDir(src.paths.TasksDir)
	if err != nil {
		return err
	}
	ids, err := fileTaskLists(tasks)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	sessions, err := openSrcDir(src.paths.SessionsDir)
	if err != nil {
		return err
	}
	for _, id := range ids {
		dir, err := tasks.sub(id)
		if err != nil {
			return err
		}
		ents, err := dir.list()
		if err != nil {
			return err
		}
		recs := map[string][]byte{}
		for _, e := range ents {
			stem, ok := task.RecordStem(e.Name())
			if !ok || !e.Type().IsRegular() || strings.HasPrefix(stem, ".") {
				continue
			}
			data, err := dir.readFile(e.Name())
			if err != nil {
				return err
			}
			tid, data, err := databaseTaskRecord(ctx, src.enc, id, stem, data)
			if err != nil {
				return fmt.Errorf("task list %s: %s: %w", id, e.Name(), err)
			}
			if _, ok := recs[tid]; ok && e.Name() != task.RecordName(tid) {
				// A record left under its legacy name by a move that did
				// not finish: the one under the current name counts.
				continue
			}
			recs[tid] = data
		}
		if err := dst.ImportTaskList(ctx, id, recs, dir.exists(task.SharedMarker)); err != nil {
			return fmt.Errorf("task list %s: %w", id, err)
		}
		imp.lists = append(imp.lists, id)
		// A list a fork killed part-way left (its mark, no session log)
		// stays marked as a fork's, so that the sweep still tells it from
		// a real list.
		if began, ok := forkMarkTime(sessions, dir, id); ok {
			if err := dst.markForking(ctx, dst.s.db(), id, &began); err != nil {
				return fmt.Errorf("task list %s: %w", id, err)
			}
		}
		rep.TaskLists++
		rep.Tasks += len(recs)
	}
	return nil
}

// forkMarkTime reports whether task list id of the files, in list, holds
// task.ForkMarker, a regular file, while its session has no log in
// sessions (what a fork killed part-way leaves), and returns the mark's
// modification time.
func forkMarkTime(sessions, list srcDir, id string) (time.Time, bool) {
	st, err := list.lstat(task.ForkMarker)
	if err != nil || !st.Mode().IsRegular() {
		return time.Time{}, false
	}
	if _, err := sessions.lstat(id + session.LogSuffix); !errors.Is(err, fs.ErrNotExist) {
		return time.Time{}, false
	}
	return st.ModTime(), true
}

// copySpill copies every spilled body of src.
func copySpill(ctx context.Context, src fileSide, dst *Project, rep *FilesReport, imp *imported) error {
	dir, err := openSrcDir(src.paths.SpillDir)
	if err != nil {
		return err
	}
	ents, err := dir.list()
	if err != nil {
		return err
	}
	for _, e := range ents {
		ref, ok := spill.FileRef(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		body, err := dir.readFile(e.Name())
		if err != nil {
			return err
		}
		info, err := dir.lstat(e.Name())
		if err != nil {
			return err
		}
		if err := dst.ImportSpill(ctx, ref, body, info.ModTime()); err != nil {
			return err
		}
		imp.spill = append(imp.spill, importedBody{ref: ref, created: info.ModTime()})
		rep.Spilled++
	}
	return nil
}

// deletingSession returns a *session.DeletingError, with what finishes it,
// for the first session of the sessions directory dir whose delete did not
// finish (its log set aside as <id>.jsonl.deleting): its log is no longer
// copied, and its archive and task list, copied, would outlive it in the
// database. ents is its listing, nil to list it here.
func deletingSession(dir srcDir, ents []fs.DirEntry) error {
	if ents == nil {
		var err error
		if ents, err = dir.list(); err != nil {
			return err
		}
	}
	for _, e := range ents {
		if id, ok := session.DeletingID(e.Name()); ok {
			de := &session.DeletingError{SessionID: id, File: filepath.Join(dir.path, e.Name()), Type: e.Type()}
			if de.Type != 0 {
				return fmt.Errorf("postgres: the files are not usable: %w", de)
			}
			return fmt.Errorf("postgres: the files are not usable: %w; finish it with lite-agent sessions delete %s", de, id)
		}
	}
	return nil
}

// sessionsKept returns an error when, in the sessions directory dir, a
// session is being deleted (see deletingSession) or one of the sessions
// imp copied has no log any more, or a log that does not begin with the
// record copied (a *session.NotFoundError): the session was deleted and a
// new one of the same id began since, which the verification, when it
// listed the files before the new log appeared, did not compare.
func sessionsKept(path string, imp imported) error {
	dir, err := openSrcDir(path)
	if err != nil {
		return err
	}
	ents, err := dir.list()
	if err != nil {
		return err
	}
	if err := deletingSession(dir, ents); err != nil {
		return err
	}
	types := make(map[string]fs.FileMode, len(ents))
	for _, e := range ents {
		types[e.Name()] = e.Type()
	}
	for _, id := range imp.sessions {
		var first []byte
		if f, ok := imp.firsts[id]; ok {
			first = append(f[:len(f):len(f)], '\n')
		}
		if err := session.CheckKept(dir, types, id, first); err != nil {
			return fmt.Errorf("postgres: in the files: %w", err)
		}
	}
	return nil
}

// verifyStoreCopy reads every record of src through the file stores and
// through the database's, and fails at the first that differs or does not
// read.
func verifyFiles(ctx context.Context, src fileSide, dst *Project) error {
	sessions, err := openSrcDir(src.paths.SessionsDir)
	if err != nil {
		return err
	}
	if sessions.d != nil {
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
			if err := sameArchive(ctx, sessions, src.enc, dst, in.ID); err != nil {
				return fmt.Errorf("session %s archive: %w", in.ID, err)
			}
		}
	}
	tasks, err := openSrcDir(src.paths.TasksDir)
	if err != nil {
		return err
	}
	ids, err := fileTaskLists(tasks)
	if err != nil {
		return err
	}
	dbLists, err := dst.s.TaskListIDs(ctx, dst.enc)
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
		tl, err := dst.TaskList(id)
		if err != nil {
			return err
		}
		b, err := tl.List(ctx)
		if err != nil {
			return fmt.Errorf("task list %s in the database: %w", id, err)
		}
		// No task is no task: the file store reads an empty list as nil,
		// the database's as an empty slice.
		if len(a) != 0 || len(b) != 0 {
			if err := sameJSON(a, b); err != nil {
				return fmt.Errorf("task list %s: %w", id, err)
			}
		}
		// The list itself, tasks or not, and its shared mark.
		_, shared, err := dst.ExportTaskList(ctx, id)
		if err != nil {
			return fmt.Errorf("task list %s in the database: %w", id, err)
		}
		if !slices.Contains(dbLists, id) {
			return fmt.Errorf("task list %s: it is missing in the database", id)
		}
		list, err := tasks.sub(id)
		if err != nil {
			return err
		}
		if shared != list.exists(task.SharedMarker) {
			return fmt.Errorf("task list %s: shared in the files %v, in the database %v", id, !shared, shared)
		}
	}
	spillDir, err := openSrcDir(src.paths.SpillDir)
	if err != nil {
		return err
	}
	ents, err := spillDir.list()
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
		if err != nil {
			return fmt.Errorf("spilled %s in the database: %w", ref, err)
		}
		if !found || a != b {
			return fmt.Errorf("spilled %s differs in the database (found %v)", ref, found)
		}
	}
	return nil
}

// sameArchive checks that the archive of session id decodes to the same
// index records and notes in the files (the sessions directory sessions,
// encoded with enc) and in the database.
func sameArchive(ctx context.Context, sessions srcDir, enc storage.Encoding, dst *Project, id string) error {
	index, notes, err := dst.ExportArchive(ctx, id)
	if err != nil {
		return err
	}
	dir, err := sessions.sub(filepath.Base(storage.SessionContextDir(sessions.path, id)))
	if err != nil {
		return err
	}
	data, err := dir.readFile(archive.IndexFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	want := completeLines(data)
	if len(want) != len(index) {
		return fmt.Errorf("%d index records in the files, %d in the database", len(want), len(index))
	}
	for i := range want {
		a, err := enc.Decode(ctx, storage.KindArchiveIndex, id, fmt.Sprint(i), want[i])
		if err != nil {
			return err
		}
		b, err := enc.Decode(ctx, storage.KindArchiveIndex, id, fmt.Sprint(i), index[i])
		if err != nil || !bytes.Equal(a, b) {
			return fmt.Errorf("index record %d differs: %v", i, err)
		}
	}
	for ref, stored := range notes {
		file, err := dir.readFile(filepath.Join(archive.NotesDir, ref+archive.NoteSuffix))
		if err != nil {
			return err
		}
		a, err := enc.Decode(ctx, storage.KindArchive, id, ref, file)
		if err != nil {
			return err
		}
		b, err := enc.Decode(ctx, storage.KindArchive, id, ref, stored)
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

// exportProject writes every session, archive, task list and spilled body
// of src into the files of dst.
func exportFiles(ctx context.Context, src *Project, dst fileSide, rep *FilesReport, w exportSink) error {
	// The task lists are read and checked first, so that a list the files
	// cannot hold stops the export before it writes anything.
	lists, err := exportedTaskLists(ctx, src)
	if err != nil {
		return err
	}
	infos, err := src.Checkpointer().List(ctx)
	if err != nil {
		return err
	}
	// Sessions, and task lists, whose ids differ only in case would be
	// one file or directory on a case-insensitive file system, where the
	// exported home may be copied: refused before anything is written.
	sids := make([]string, len(infos))
	for i, in := range infos {
		sids[i] = in.ID
	}
	if err := storage.CheckIDCase(storage.KindCheckpoint, sids); err != nil {
		return err
	}
	lids := make([]string, len(lists))
	for i, l := range lists {
		lids[i] = l.id
	}
	if err := storage.CheckIDCase(storage.KindTask, lids); err != nil {
		return err
	}
	for _, in := range infos {
		recs, mod, err := src.ExportSession(ctx, in.ID)
		if err != nil {
			return fmt.Errorf("session %s: %w", in.ID, err)
		}
		if err := w.writeRecords(filepath.Join(dst.paths.SessionsDir, in.ID+session.LogSuffix), recs, mod); err != nil {
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
		if err := w.writeRecords(filepath.Join(ctxDir, archive.IndexFile), index, time.Time{}); err != nil {
			return err
		}
		for ref, note := range notes {
			if err := w.write(filepath.Join(ctxDir, archive.NotesDir, ref+archive.NoteSuffix), note, time.Time{}); err != nil {
				return err
			}
		}
		rep.Archives++
	}
	for _, l := range lists {
		id, recs, shared := l.id, l.records, l.shared
		// A list with no task is still a list: its directory, as the
		// file store has it.
		if err := w.mkdir(dst.paths.TaskListDir(id)); err != nil {
			return err
		}
		for _, tid := range slices.Sorted(maps.Keys(recs)) {
			name := task.RecordName(tid)
			rec, err := fileTaskRecord(ctx, src.enc, id, tid, recs[tid])
			if err != nil {
				return fmt.Errorf("task list %s: task %q: %w", id, tid, err)
			}
			if err := w.write(filepath.Join(dst.paths.TaskListDir(id), name), rec, time.Time{}); err != nil {
				return err
			}
		}
		if shared {
			if err := w.write(filepath.Join(dst.paths.TaskListDir(id), task.SharedMarker), nil, time.Time{}); err != nil {
				return err
			}
		}
		if l.forking {
			// What a fork killed part-way left stays marked as a fork's
			// (see task.ForkMarker).
			if err := w.write(filepath.Join(dst.paths.TaskListDir(id), task.ForkMarker), nil, l.forkBegan); err != nil {
				return err
			}
		}
		rep.TaskLists++
		rep.Tasks += len(recs)
	}
	return src.ExportSpill(ctx, func(ref string, body []byte, created time.Time) error {
		rep.Spilled++
		return w.write(filepath.Join(dst.paths.SpillDir, ref+spill.FileSuffix), body, created)
	})
}

// exportedList is one task list of an export: its records by task id, and
// whether it is marked shared.
type exportedList struct {
	id      string
	records map[string][]byte
	shared  bool
	// forking marks the list a fork killed part-way left (see
	// Store.MarkForking), whose fork began at forkBegan.
	forking   bool
	forkBegan time.Time
}

// exportedTaskLists reads every task list of src for an export and checks
// that the file store can hold each: no two of its tasks may be stored in
// one record file (see task.RecordName), nor in files whose names differ
// only in case (task.FoldedRecordName), which are one file on a
// case-insensitive file system, where a home may be copied, and where the
// second would replace the first. Such ids are refused, as
// task.FileStore.Import refuses them, with a *task.InputError.
func exportedTaskLists(ctx context.Context, src *Project) ([]exportedList, error) {
	ids, err := src.s.TaskListIDs(ctx, src.enc)
	if err != nil {
		return nil, err
	}
	lists := make([]exportedList, 0, len(ids))
	for _, id := range ids {
		recs, shared, err := src.ExportTaskList(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("task list %s: %w", id, err)
		}
		names := make(map[string]string, len(recs))
		for _, tid := range slices.Sorted(maps.Keys(recs)) {
			name := task.FoldedRecordName(tid)
			if other, ok := names[name]; ok {
				how := "in one file, " + task.RecordName(tid)
				if task.RecordName(other) != task.RecordName(tid) {
					how = "in files whose names differ only in case, one file on a case-insensitive file system"
				}
				return nil, fmt.Errorf("task list %s: %w", id, &task.InputError{ID: tid, Field: "id", Err: fmt.Errorf("it and task '%s' would be stored %s", other, how)})
			}
			names[name] = tid
		}
		forking, began, err := src.forkLeftover(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("task list %s: %w", id, err)
		}
		lists = append(lists, exportedList{id: id, records: recs, shared: shared, forking: forking, forkBegan: began})
	}
	return lists, nil
}

// File modes of what ExportFiles writes, as the file stores make them.
const (
	exportDirMode  = 0o700
	exportFileMode = 0o600
)
