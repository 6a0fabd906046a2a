package migrate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// The names of a project directory's stores, from the layout storage owns.
const (
	sessionsName = storage.SessionsDirName
	tasksName    = storage.TasksDirName
	spillName    = storage.SpillDirName
	projectsName = storage.ProjectsDirName
)

// configFiles and configDirs are the home's configuration, copied byte for
// byte with AllProjects.
var (
	configFiles = []string{"hooks.json", "mcps.json", "permissions.json"}
	configDirs  = []string{"skills", "agents"}
)

// unitKind says what a unit of work copies.
type unitKind uint8

const (
	unitSession unitKind = iota // one session log
	unitArchive                 // one context archive
	unitTasks                   // one task list
	unitSpill                   // one spill file
	unitConfig                  // one configuration file of the home
)

// project is one project directory being copied.
type project struct {
	srcPath        string // absolute source project directory
	dstRel         string // destination project directory, relative to the destination root
	srcEnc, dstEnc storage.Encoding
	// The anchored source store directories; nil when missing.
	sessions, tasks, spill *safefs.Dir
	// The open source and destination directories of the session logs and
	// spill files.
	sessionFiles, spillFiles *dirPair
}

// unit is one file (or one archive or task list) to copy.
type unit struct {
	kind    unitKind
	p       *project    // nil for unitConfig
	home    *safefs.Dir // the source home, for unitConfig
	id      string      // session id, list id, ref, or config path relative to the home
	records int64       // records expected, for progress
	bytes   int64       // stored bytes, for progress
	files   *dirPair    // the directories of a session log or spill file
	countIn *dirHandle  // the source directory of a log that measureLogs sizes or counts
	first   []byte      // the first line of a session log copied, newline included
}

// plan is everything to copy.
type plan struct {
	units []unit
	dirs  []string   // destination directories to create, relative to the destination root
	pairs []*dirPair // the directories units open, to close in the end

	countDirs []*dirHandle // the directories measureLogs reads, closed by plan
}

// filesIn returns the dirPair of the source directory d, whose destination
// is dstRel, creating it in *pp on first use, and counts one more unit.
func (p *plan) filesIn(pp **dirPair, d *safefs.Dir, dstRel string) *dirPair {
	if *pp == nil {
		*pp = &dirPair{src: d, dstRel: dstRel}
		p.pairs = append(p.pairs, *pp)
	}
	(*pp).units++
	return *pp
}

// plan walks the source tree, refusing (or, with SkipUnreadable, listing)
// symlinks and unrecognised entries, and lists the units to copy. It
// changes nothing and creates nothing.
func (m *migration) plan(ctx context.Context) (*plan, error) {
	p := &plan{}
	defer func() {
		for _, d := range p.countDirs {
			d.close()
		}
	}()
	if !m.all {
		pr := m.newProject(m.srcRoot, ".", m.srcHash, m.dstHash)
		if err := m.planProject(ctx, p, pr); err != nil {
			return nil, err
		}
	} else if err := m.planHome(ctx, p); err != nil {
		return nil, err
	}
	if err := checkIDCase(p); err != nil {
		return nil, err
	}
	if err := m.measureLogs(ctx, p); err != nil {
		return nil, err
	}
	var total Progress
	for _, u := range p.units {
		total.TotalFiles++
		total.TotalRecords += u.records
		total.TotalBytes += u.bytes
	}
	if !m.countRecords() {
		total.TotalRecords = 0
	}
	m.prog = total
	return p, nil
}

// checkIDCase refuses a plan with two sessions, or two task lists, of one
// project whose ids differ only in case: the source's file system keeps
// them apart, but the new home may be (or be copied to) a case-insensitive
// one, where they are one file or directory (see storage.CheckIDCase).
func checkIDCase(p *plan) error {
	sessions, lists := map[*project][]string{}, map[*project][]string{}
	var order []*project
	for _, u := range p.units {
		switch u.kind {
		case unitSession, unitArchive:
			sessions[u.p] = append(sessions[u.p], u.id)
		case unitTasks:
			lists[u.p] = append(lists[u.p], u.id)
		default:
			continue
		}
		if len(sessions[u.p])+len(lists[u.p]) == 1 {
			order = append(order, u.p)
		}
	}
	for _, pr := range order {
		if err := storage.CheckIDCase(storage.KindCheckpoint, sessions[pr]); err != nil {
			return fmt.Errorf("%s: %w", pr.srcPath, err)
		}
		if err := storage.CheckIDCase(storage.KindTask, lists[pr]); err != nil {
			return fmt.Errorf("%s: %w", pr.srcPath, err)
		}
	}
	return nil
}

func (m *migration) newProject(srcPath, dstRel, srcHash, dstHash string) *project {
	m.rep.Projects = append(m.rep.Projects, dstHash)
	return &project{
		srcPath: srcPath,
		dstRel:  dstRel,
		srcEnc:  storage.Encoding{Codec: m.srcCodec, Namespace: m.srcNS, ProjectID: srcHash},
		dstEnc:  storage.Encoding{Codec: m.dstCodec, Namespace: m.dstNS, ProjectID: dstHash},
	}
}

// entries lists the directory rel of d, which is dir, sorted by name. It
// opens the directory through d's proven handle (safefs.Dir.OpenFile), so
// that no link swapped in on its path is followed: a directory changed,
// or a symlink on the way, fails with safefs's *storage.Error.
func entries(d *safefs.Dir, rel, dir string) ([]fs.DirEntry, error) {
	if rel == "" {
		rel = "."
	}
	f, err := d.OpenFile(rel, os.O_RDONLY, 0)
	var se *storage.Error
	if errors.As(err, &se) {
		return nil, err
	}
	var ents []fs.DirEntry
	if err == nil {
		ents, err = f.ReadDir(-1)
		f.Close()
	}
	if err != nil {
		return nil, (&storage.Error{Op: "list", File: dir, Message: "cannot list source directory"}).WithCause(err)
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}

// classify returns the type of an entry without following symlinks, or an
// error (ErrSymlink, ErrUnrecognized) for one that is neither a regular file
// nor a directory.
func classify(path string, e fs.DirEntry) (dir bool, err error) {
	t := e.Type()
	switch {
	case t&fs.ModeSymlink != 0:
		return false, fmt.Errorf("%w: %s", ErrSymlink, path)
	case t.IsDir():
		return true, nil
	case t.IsRegular():
		return false, nil
	}
	return false, fmt.Errorf("%w: %s is not a regular file or directory", ErrUnrecognized, path)
}

func unrecognized(path string) error {
	return fmt.Errorf("%w: %s", ErrUnrecognized, path)
}

// isTemp reports whether name is a temp file of an atomic write:
// .<name>.<hex>.tmp.
func isTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp")
}

// An entry is one regular file or directory of a listed source directory.
type entry struct {
	name, path string
	dir        bool
	e          fs.DirEntry
}

// errUnknown is what a visit returns for an entry it does not recognize;
// the walk rejects the entry (see eachEntry).
var errUnknown = errors.New("unrecognized entry")

// errLeftOut is what a walk of a directory that is one unit (an archive, a
// task list) returns when the unit is left out (SkipUnreadable).
var errLeftOut = errors.New("left out")

// eachEntry lists dir and calls visit with each of its regular files and
// directories, in name order. An entry that is neither (a symlink, say), or
// that visit returns errUnknown for, is rejected: on its own, or, if unit
// names a directory that is one unit, by leaving that whole unit out, in
// which case the walk stops with errLeftOut. Without SkipUnreadable a
// rejection is an error.
func (m *migration) eachEntry(d *safefs.Dir, rel, dir, unit string, visit func(entry) error) error {
	return m.eachEntryFirst(d, rel, dir, unit, nil, visit)
}

// eachEntryFirst is eachEntry that calls first, if not nil, with every
// entry before it looks at its type: an error first returns stops the
// walk, whatever the entry is and whether or not SkipUnreadable is set.
func (m *migration) eachEntryFirst(d *safefs.Dir, rel, dir, unit string, first, visit func(entry) error) error {
	ents, err := entries(d, rel, dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		en := entry{name: e.Name(), path: filepath.Join(dir, e.Name()), e: e}
		if first != nil {
			if err := first(en); err != nil {
				return err
			}
		}
		en.dir, err = classify(en.path, e)
		if err == nil {
			if err = visit(en); err == errUnknown {
				err = unrecognized(en.path)
			} else if err != nil {
				return err
			}
		}
		if err == nil {
			continue
		}
		if unit == "" {
			if err := m.reject(en.path, "", err); err != nil {
				return err
			}
			continue
		}
		if err := m.rejectWhole(unit, err); err != nil {
			return err
		}
		return errLeftOut
	}
	return nil
}

// skipTemp lists a temporary file of an interrupted write as skipped.
func (m *migration) skipTemp(path string) {
	m.skip(Skipped{File: path, Reason: "temporary file of an interrupted write"})
}

func (m *migration) planHome(ctx context.Context, p *plan) error {
	home, err := safefs.AnchorExisting(m.srcRoot) // checked by checkSourceRoot; never made again
	if err != nil {
		return err
	}
	return m.eachEntry(home, "", m.srcRoot, "", func(en entry) error {
		switch {
		case en.name == projectsName && en.dir:
			return m.planProjects(ctx, p, home, en.path)
		case !en.dir && contains(configFiles, en.name):
			return m.planConfigFile(p, home, en.name, en.e)
		case en.dir && contains(configDirs, en.name):
			return m.planConfigDir(p, home, en.name)
		}
		return errUnknown
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (m *migration) planProjects(ctx context.Context, p *plan, home *safefs.Dir, dir string) error {
	p.dirs = append(p.dirs, projectsName)
	return m.eachEntry(home, projectsName, dir, "", func(en entry) error {
		if !en.dir || !storage.IsProjectHash(en.name) {
			return errUnknown
		}
		return m.planProject(ctx, p, m.newProject(en.path, filepath.Join(projectsName, en.name), en.name, en.name))
	})
}

func (m *migration) planConfigFile(p *plan, home *safefs.Dir, rel string, e fs.DirEntry) error {
	size, err := m.fileSize(filepath.Join(m.srcRoot, rel), e)
	if err != nil {
		return err
	}
	p.units = append(p.units, unit{kind: unitConfig, home: home, id: rel, records: 1, bytes: size})
	return nil
}

func (m *migration) planConfigDir(p *plan, home *safefs.Dir, rel string) error {
	p.dirs = append(p.dirs, rel)
	return m.eachEntry(home, rel, filepath.Join(m.srcRoot, rel), "", func(en entry) error {
		child := filepath.Join(rel, en.name)
		if en.dir {
			return m.planConfigDir(p, home, child)
		}
		return m.planConfigFile(p, home, child, en.e)
	})
}

// planProject lists the units of one project directory.
func (m *migration) planProject(ctx context.Context, p *plan, pr *project) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p.dirs = append(p.dirs, pr.dstRel)
	// The source is only read: a directory removed since it was listed is
	// an error, never made again.
	dir, err := safefs.AnchorExisting(pr.srcPath)
	if err != nil {
		return err
	}
	return m.eachEntry(dir, "", pr.srcPath, "", func(en entry) error {
		if !en.dir || en.name != sessionsName && en.name != tasksName && en.name != spillName {
			return errUnknown
		}
		if m.opts.beforeAnchor != nil {
			m.opts.beforeAnchor(en.path)
		}
		// Anchored below the project directory, as listed.
		d, err := dir.AnchorExisting(en.name)
		if err != nil {
			return err
		}
		p.dirs = append(p.dirs, filepath.Join(pr.dstRel, en.name))
		switch en.name {
		case sessionsName:
			pr.sessions = d
			return m.planSessions(p, pr)
		case tasksName:
			pr.tasks = d
			return m.planTasks(p, pr)
		default:
			pr.spill = d
			return m.planSpill(p, pr)
		}
	})
}

func (m *migration) planSessions(p *plan, pr *project) error {
	// For Progress, the logs are measured (see measureLogs) through one
	// handle of their directory, opened on first use: one system call per
	// log relative to it rather than a path resolution.
	var dir *dirHandle
	// A delete killed part-way: the session refuses to load, and what is
	// left of it must not pass for a session elsewhere. Refused whatever
	// the entry is (something other than a regular file was not put there
	// by a delete, and the error says so), and never left out: without it,
	// the session's archive would be copied as a leftover of no session.
	deleting := func(en entry) error {
		id, ok := session.DeletingID(en.name)
		if !ok {
			return nil
		}
		de := &session.DeletingError{SessionID: id, File: en.path, Type: en.e.Type()}
		if de.Type != 0 {
			return fmt.Errorf("%w; then migrate again", de)
		}
		return fmt.Errorf("%w; finish its delete (lite-agent sessions delete %s) before migrating", de, id)
	}
	return m.eachEntryFirst(pr.sessions, "", pr.sessions.Path(), "", deleting, func(en entry) error {
		name := en.name
		_, copyKind, isCopy := session.ParseCopyName(name)
		logID, isLog := session.LogID(name)
		archiveID, _, isArchive := storage.ParseContextDirName(name)
		switch {
		case en.dir && strings.HasSuffix(name, filelock.Suffix):
			// A lock directory: transient, never copied.
		case !en.dir && isTemp(name):
			m.skipTemp(en.path)
		case !en.dir && isCopy && copyKind == session.CopyBroken:
			m.skip(Skipped{File: en.path, Reason: "copy set aside by a tail repair; not a session log"})
		case !en.dir && isCopy:
			m.skip(Skipped{File: en.path, Reason: "torn tail set aside by an append; not a session log"})
		case !en.dir && isLog:
			if dir == nil && m.opts.Progress != nil {
				var err error
				if dir, err = openDirHandle(pr.sessions, "", pr.sessions.Path()); err != nil {
					return err
				}
				p.countDirs = append(p.countDirs, dir)
			}
			files := p.filesIn(&pr.sessionFiles, pr.sessions, filepath.Join(pr.dstRel, sessionsName))
			p.units = append(p.units, unit{kind: unitSession, p: pr, id: logID, files: files, countIn: dir})
		case en.dir && isArchive:
			u := unit{kind: unitArchive, p: pr, id: archiveID}
			return m.addUnit(p, &u, m.planArchive(pr, &u))
		default:
			return errUnknown
		}
		return nil
	})
}

// addUnit adds u to the plan once its walk returned err: unless the walk
// left it out, or failed.
func (m *migration) addUnit(p *plan, u *unit, err error) error {
	switch {
	case err == errLeftOut:
		return nil
	case err != nil:
		return err
	}
	p.units = append(p.units, *u)
	return nil
}

// planArchive checks the entries of one archive directory and counts its
// records. It returns errLeftOut when the archive is left out.
func (m *migration) planArchive(pr *project, u *unit) error {
	dir := storage.SessionContextDir(pr.sessions.Path(), u.id)
	rel := filepath.Base(dir)
	return m.eachEntry(pr.sessions, rel, dir, dir, func(en entry) error {
		switch {
		case !en.dir && en.name == archive.IndexFile:
			n, size, err := m.measure(pr.sessions, filepath.Join(rel, en.name), en)
			if err != nil {
				return err
			}
			u.records += n
			u.bytes += size
		case en.dir && en.name == archive.NotesDir:
			return m.planNotes(pr, u, dir, filepath.Join(rel, en.name))
		case !en.dir && isTemp(en.name):
			m.skipTemp(en.path)
		case !en.dir && archive.IsTornCopy(en.name):
			m.skip(Skipped{File: en.path, Reason: "torn tail set aside by a put; not an archive index"})
		default:
			return errUnknown
		}
		return nil
	})
}

// rejectWhole leaves out a whole archive or task list because of one of its
// entries (with SkipUnreadable), or returns err.
func (m *migration) rejectWhole(dir string, err error) error {
	if !m.opts.SkipUnreadable {
		return err
	}
	return m.reject(dir, "", fmt.Errorf("%w; the whole directory is left out", err))
}

// planNotes checks the notes directory rel of the archive archiveDir and
// counts its notes.
func (m *migration) planNotes(pr *project, u *unit, archiveDir, rel string) error {
	return m.eachEntry(pr.sessions, rel, filepath.Join(pr.sessions.Path(), rel), archiveDir, func(en entry) error {
		switch {
		case !en.dir && isNote(en.name):
			size, err := m.fileSize(en.path, en.e)
			if err != nil {
				return err
			}
			u.records++
			u.bytes += size
		case !en.dir && isTemp(en.name):
			m.skipTemp(en.path)
		default:
			return errUnknown
		}
		return nil
	})
}

func (m *migration) planTasks(p *plan, pr *project) error {
	return m.eachEntry(pr.tasks, "", pr.tasks.Path(), "", func(en entry) error {
		switch {
		case en.dir && strings.HasSuffix(en.name, filelock.Suffix):
			// A lock directory.
		case en.dir && storage.ValidateID(en.name) == nil:
			u := unit{kind: unitTasks, p: pr, id: en.name}
			return m.addUnit(p, &u, m.planTaskList(pr, &u))
		default:
			return errUnknown
		}
		return nil
	})
}

// planTaskList checks the entries of one task list and counts its tasks. It
// returns errLeftOut when the list is left out.
func (m *migration) planTaskList(pr *project, u *unit) error {
	dir := filepath.Join(pr.tasks.Path(), u.id)
	return m.eachEntry(pr.tasks, u.id, dir, dir, func(en entry) error {
		switch {
		case !en.dir && isTemp(en.name):
			m.skipTemp(en.path)
		case !en.dir && (en.name == task.SharedMarker || en.name == task.ForkMarker):
			// The mark of a shared list, or of a fork's copy, copied
			// with it.
		case !en.dir && isTaskRecord(en.name):
			size, err := m.fileSize(en.path, en.e)
			if err != nil {
				return err
			}
			u.records++
			u.bytes += size
		default:
			return errUnknown
		}
		return nil
	})
}

func (m *migration) planSpill(p *plan, pr *project) error {
	return m.eachEntry(pr.spill, "", pr.spill.Path(), "", func(en entry) error {
		switch {
		case en.dir && strings.HasSuffix(en.name, filelock.Suffix):
			// A lock directory (a body's, or one being made or
			// released under a hidden name): transient, never copied.
		case !en.dir && isTemp(en.name):
			m.skipTemp(en.path)
		case !en.dir && isSpillFile(en.name):
			size, err := m.fileSize(en.path, en.e)
			if err != nil {
				return err
			}
			files := p.filesIn(&pr.spillFiles, pr.spill, filepath.Join(pr.dstRel, spillName))
			ref, _ := spill.FileRef(en.name)
			p.units = append(p.units, unit{kind: unitSpill, p: pr, id: ref, records: 1, bytes: size, files: files})
		default:
			return errUnknown
		}
		return nil
	})
}

// isNote, isTaskRecord and isSpillFile report whether a file name is one
// of a note, a task record or a spill file, as their stores name them.
func isNote(name string) bool       { _, ok := archive.NoteRef(name); return ok }
func isTaskRecord(name string) bool { _, ok := task.RecordStem(name); return ok }
func isSpillFile(name string) bool  { _, ok := spill.FileRef(name); return ok }

// measure returns the number of records (non-blank lines) of the file rel
// of d, whose entry is en, and its size, for progress totals: without a
// Progress callback, which alone needs them, it returns zeros and reads
// nothing, and without CountRecords it returns the size alone, which
// takes no read either.
func (m *migration) measure(d *safefs.Dir, rel string, en entry) (int64, int64, error) {
	if !m.countRecords() {
		size, err := m.fileSize(en.path, en.e)
		return 0, size, err
	}
	return m.countLines(d, rel)
}

// countRecords reports whether the plan counts the records of logs and
// indexes for the progress totals: only for a Progress callback that
// asked for it with CountRecords.
func (m *migration) countRecords() bool {
	return m.opts.Progress != nil && m.opts.CountRecords
}

// fileSize returns the size of the source file at path, whose entry is e,
// for progress totals: without a Progress function it is not needed, and
// returns 0 without a system call.
func (m *migration) fileSize(path string, e fs.DirEntry) (int64, error) {
	if m.opts.Progress == nil {
		return 0, nil
	}
	info, err := e.Info()
	if err != nil {
		return 0, (&storage.Error{Op: "stat", File: path, Message: "cannot inspect source file"}).WithCause(err)
	}
	return info.Size(), nil
}

// measureLogs finds the size of every session log of the plan, and with
// CountRecords counts its records, for the progress totals (without a
// Progress callback, which alone needs them, there is nothing to measure),
// on as many goroutines as there are processors: all of it happens before
// the copy starts.
func (m *migration) measureLogs(ctx context.Context, p *plan) error {
	var todo []*unit
	for i := range p.units {
		if p.units[i].countIn != nil {
			todo = append(todo, &p.units[i])
		}
	}
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	count := m.countRecords()
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Go(func() {
			var buf []byte
			if count {
				buf = make([]byte, countBufSize)
			}
			for {
				i := int(next.Add(1)) - 1
				if i >= len(todo) || ctx.Err() != nil {
					return
				}
				u := todo[i]
				name := u.id + session.LogSuffix
				var err error
				if count {
					var f *fdFile
					var path string
					if f, path, _, err = u.countIn.open(name); err == nil {
						u.records, u.bytes, err = countRecords(f, path, buf)
						f.Close()
					}
				} else {
					u.bytes, err = u.countIn.size(name)
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					next.Store(int64(len(todo))) // stop the others
					return
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// countBufSize is the size of the buffer countRecords reads with.
const countBufSize = 256 << 10

// countLines returns the number of non-blank lines of the file rel of d,
// and its size, for progress totals.
func (m *migration) countLines(d *safefs.Dir, rel string) (int64, int64, error) {
	f, path, err := openSource(d, rel)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	if m.countBuf == nil {
		m.countBuf = make([]byte, countBufSize)
	}
	return countRecords(f, path, m.countBuf)
}

// countRecords returns the number of non-blank lines of f, which is path,
// and its size, reading with buf. It finds the line ends with
// bytes.IndexByte and looks at a line's bytes only until the first that is
// not blank: the first, in a log.
func countRecords(f io.Reader, path string, buf []byte) (int64, int64, error) {
	var lines, size int64
	content := false // the current line has a non-blank byte
	for {
		n, err := f.Read(buf)
		size += int64(n)
		for b := buf[:n]; len(b) > 0; {
			end := bytes.IndexByte(b, '\n')
			line := b
			if end >= 0 {
				line = b[:end]
			}
			content = content || !blank(line)
			if end < 0 {
				break
			}
			if content {
				lines++
			}
			content = false
			b = b[end+1:]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, readError(path, err)
		}
	}
	if content {
		lines++
	}
	return lines, size, nil
}

// blank reports whether b holds only spaces, tabs and carriage returns.
func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// openSource opens the source file rel of d for reading, refusing symlinks
// on the way and at the end, and, like the worker's open, anything put in
// the place of the regular file the plan saw (a FIFO must not make the
// count wait for a writer).
func openSource(d *safefs.Dir, rel string) (*os.File, string, error) {
	path := filepath.Join(d.Real(), rel)
	f, err := d.OpenFile(rel, os.O_RDONLY, 0)
	var se *storage.Error
	if errors.As(err, &se) {
		return nil, path, err // the directory changed, or a symlink on the way
	}
	if err != nil {
		return nil, path, sourceOpenError(path, err)
	}
	st, err := f.Stat()
	if err := checkRegular(path, err == nil && st.Mode().IsRegular(), err); err != nil {
		_ = f.Close()
		return nil, path, err
	}
	return f, path, nil
}

// readAllAt returns the contents of the source file name of dir, its path
// and its modification time.
func readAllAt(dir *dirHandle, name string) ([]byte, string, time.Time, error) {
	f, path, mtime, err := dir.open(name)
	if err != nil {
		return nil, path, time.Time{}, err
	}
	defer f.Close()
	b, err := f.readAll()
	if err != nil {
		return nil, path, time.Time{}, readError(path, err)
	}
	return b, path, mtime, nil
}

func readError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return (&storage.Error{Op: "read", File: path, Message: "cannot read source file"}).WithCause(err)
}
