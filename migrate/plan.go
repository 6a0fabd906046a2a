package migrate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Names in a project directory and a home.
const (
	sessionsName = "sessions"
	tasksName    = "tasks"
	spillName    = "spill"
	projectsName = "projects"
	logExt       = ".jsonl"
	contextExt   = ".context"
	lockExt      = ".lock"
	indexName    = "index.jsonl"
	notesName    = "notes"
	noteExt      = ".md"
	taskExt      = ".json"
	spillExt     = ".txt"
)

// configFiles and configDirs are the home's configuration, copied byte for
// byte with AllProjects.
var (
	configFiles = []string{"hooks.json", "mcps.json", "permissions.json"}
	configDirs  = []string{"skills", "agents"}
)

var (
	projectHashPattern = regexp.MustCompile(`^[0-9a-f]{16}$`)
	refPattern         = regexp.MustCompile(`^[0-9a-f]{64}$`)
	brokenPattern      = regexp.MustCompile(`^[A-Za-z0-9_-]+\.jsonl\.broken-[0-9]+$`)
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
}

// plan is everything to copy.
type plan struct {
	units []unit
	dirs  []string   // destination directories to create, relative to the destination root
	pairs []*dirPair // the directories units open, to close in the end
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
	if !m.all {
		pr := m.newProject(m.srcRoot, ".", m.srcHash, m.dstHash)
		if err := m.planProject(ctx, p, pr); err != nil {
			return nil, err
		}
	} else if err := m.planHome(ctx, p); err != nil {
		return nil, err
	}
	var total Progress
	for _, u := range p.units {
		total.TotalFiles++
		total.TotalRecords += u.records
		total.TotalBytes += u.bytes
	}
	m.prog = total
	return p, nil
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

// entries lists dir, sorted by name.
func entries(dir string) ([]fs.DirEntry, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, (&storage.Error{Op: "list", File: dir, Message: "cannot list source directory"}).WithCause(err)
	}
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

func (m *migration) planHome(ctx context.Context, p *plan) error {
	home, err := safefs.Anchor(m.srcRoot) // exists: checked by checkSourceRoot
	if err != nil {
		return err
	}
	ents, err := entries(m.srcRoot)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(m.srcRoot, name)
		isDir, err := classify(path, e)
		if err != nil {
			if err := m.reject(path, "", err); err != nil {
				return err
			}
			continue
		}
		switch {
		case name == projectsName && isDir:
			if err := m.planProjects(ctx, p, path); err != nil {
				return err
			}
		case !isDir && contains(configFiles, name):
			if err := m.planConfigFile(p, home, name, e); err != nil {
				return err
			}
		case isDir && contains(configDirs, name):
			if err := m.planConfigDir(p, home, name); err != nil {
				return err
			}
		default:
			if err := m.reject(path, "", unrecognized(path)); err != nil {
				return err
			}
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (m *migration) planProjects(ctx context.Context, p *plan, dir string) error {
	ents, err := entries(dir)
	if err != nil {
		return err
	}
	p.dirs = append(p.dirs, projectsName)
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(dir, name)
		isDir, err := classify(path, e)
		if err == nil && (!isDir || !projectHashPattern.MatchString(name)) {
			err = unrecognized(path)
		}
		if err != nil {
			if err := m.reject(path, "", err); err != nil {
				return err
			}
			continue
		}
		pr := m.newProject(path, filepath.Join(projectsName, name), name, name)
		if err := m.planProject(ctx, p, pr); err != nil {
			return err
		}
	}
	return nil
}

func (m *migration) planConfigFile(p *plan, home *safefs.Dir, rel string, e fs.DirEntry) error {
	size, err := fileSize(filepath.Join(m.srcRoot, rel), e)
	if err != nil {
		return err
	}
	p.units = append(p.units, unit{kind: unitConfig, home: home, id: rel, records: 1, bytes: size})
	return nil
}

func (m *migration) planConfigDir(p *plan, home *safefs.Dir, rel string) error {
	p.dirs = append(p.dirs, rel)
	dir := filepath.Join(m.srcRoot, rel)
	ents, err := entries(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		child := filepath.Join(rel, e.Name())
		path := filepath.Join(m.srcRoot, child)
		isDir, err := classify(path, e)
		if err != nil {
			if err := m.reject(path, "", err); err != nil {
				return err
			}
			continue
		}
		if isDir {
			err = m.planConfigDir(p, home, child)
		} else {
			err = m.planConfigFile(p, home, child, e)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// planProject lists the units of one project directory.
func (m *migration) planProject(ctx context.Context, p *plan, pr *project) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ents, err := entries(pr.srcPath)
	if err != nil {
		return err
	}
	p.dirs = append(p.dirs, pr.dstRel)
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(pr.srcPath, name)
		isDir, err := classify(path, e)
		if err == nil && (!isDir || name != sessionsName && name != tasksName && name != spillName) {
			err = unrecognized(path)
		}
		if err != nil {
			if err := m.reject(path, "", err); err != nil {
				return err
			}
			continue
		}
		d, err := safefs.Anchor(path) // exists, so nothing is created
		if err != nil {
			return err
		}
		p.dirs = append(p.dirs, filepath.Join(pr.dstRel, name))
		switch name {
		case sessionsName:
			pr.sessions = d
			err = m.planSessions(p, pr)
		case tasksName:
			pr.tasks = d
			err = m.planTasks(p, pr)
		case spillName:
			pr.spill = d
			err = m.planSpill(p, pr)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (m *migration) planSessions(p *plan, pr *project) error {
	dir := pr.sessions.Path()
	ents, err := entries(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(dir, name)
		isDir, err := classify(path, e)
		if err != nil {
			if err := m.reject(path, "", err); err != nil {
				return err
			}
			continue
		}
		switch {
		case isDir && strings.HasSuffix(name, lockExt):
			// A lock directory: transient, never copied.
		case !isDir && isTemp(name):
			m.skip(Skipped{File: path, Reason: "temporary file of an interrupted write"})
		case !isDir && brokenPattern.MatchString(name):
			m.skip(Skipped{File: path, Reason: "copy set aside by a tail repair; not a session log"})
		case !isDir && strings.HasSuffix(name, logExt) && storage.ValidateID(strings.TrimSuffix(name, logExt)) == nil:
			n, size, err := m.measure(pr.sessions, name, e)
			if err != nil {
				return err
			}
			files := p.filesIn(&pr.sessionFiles, pr.sessions, filepath.Join(pr.dstRel, sessionsName))
			p.units = append(p.units, unit{kind: unitSession, p: pr, id: strings.TrimSuffix(name, logExt), records: n, bytes: size, files: files})
		case isDir && strings.HasSuffix(name, contextExt) && storage.ValidateID(strings.TrimSuffix(name, contextExt)) == nil:
			u := unit{kind: unitArchive, p: pr, id: strings.TrimSuffix(name, contextExt)}
			ok, err := m.planArchive(pr, &u)
			if err != nil {
				return err
			}
			if ok {
				p.units = append(p.units, u)
			}
		default:
			if err := m.reject(path, "", unrecognized(path)); err != nil {
				return err
			}
		}
	}
	return nil
}

// planArchive checks the entries of one archive directory and counts its
// records. It reports false when the archive is left out.
func (m *migration) planArchive(pr *project, u *unit) (bool, error) {
	rel := u.id + contextExt
	dir := filepath.Join(pr.sessions.Path(), rel)
	ents, err := entries(dir)
	if err != nil {
		return false, err
	}
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(dir, name)
		isDir, err := classify(path, e)
		if err != nil {
			return false, m.rejectWhole(dir, err)
		}
		switch {
		case !isDir && name == indexName:
			n, size, err := m.measure(pr.sessions, filepath.Join(rel, name), e)
			if err != nil {
				return false, err
			}
			u.records += n
			u.bytes += size
		case isDir && name == notesName:
			ok, err := m.planNotes(pr, u, filepath.Join(rel, name))
			if err != nil || !ok {
				return false, err
			}
		case !isDir && isTemp(name):
			m.skip(Skipped{File: path, Reason: "temporary file of an interrupted write"})
		default:
			return false, m.rejectWhole(dir, unrecognized(path))
		}
	}
	return true, nil
}

// rejectWhole leaves out a whole archive or task list because of one of its
// entries (with SkipUnreadable), or returns err.
func (m *migration) rejectWhole(dir string, err error) error {
	if !m.opts.SkipUnreadable {
		return err
	}
	return m.reject(dir, "", fmt.Errorf("%w; the whole directory is left out", err))
}

func (m *migration) planNotes(pr *project, u *unit, rel string) (bool, error) {
	dir := filepath.Join(pr.sessions.Path(), rel)
	ents, err := entries(dir)
	if err != nil {
		return false, err
	}
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(dir, name)
		isDir, err := classify(path, e)
		if err != nil {
			return false, m.rejectWhole(filepath.Dir(dir), err)
		}
		switch {
		case !isDir && strings.HasSuffix(name, noteExt) && refPattern.MatchString(strings.TrimSuffix(name, noteExt)):
			size, err := fileSize(path, e)
			if err != nil {
				return false, err
			}
			u.records++
			u.bytes += size
		case !isDir && isTemp(name):
			m.skip(Skipped{File: path, Reason: "temporary file of an interrupted write"})
		default:
			return false, m.rejectWhole(filepath.Dir(dir), unrecognized(path))
		}
	}
	return true, nil
}

func (m *migration) planTasks(p *plan, pr *project) error {
	dir := pr.tasks.Path()
	ents, err := entries(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(dir, name)
		isDir, err := classify(path, e)
		if err != nil {
			if err := m.reject(path, "", err); err != nil {
				return err
			}
			continue
		}
		switch {
		case isDir && strings.HasSuffix(name, lockExt):
			// A lock directory.
		case isDir && storage.ValidateID(name) == nil:
			u := unit{kind: unitTasks, p: pr, id: name}
			ok, err := m.planTaskList(pr, &u)
			if err != nil {
				return err
			}
			if ok {
				p.units = append(p.units, u)
			}
		default:
			if err := m.reject(path, "", unrecognized(path)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (m *migration) planTaskList(pr *project, u *unit) (bool, error) {
	dir := filepath.Join(pr.tasks.Path(), u.id)
	ents, err := entries(dir)
	if err != nil {
		return false, err
	}
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(dir, name)
		isDir, err := classify(path, e)
		if err != nil {
			return false, m.rejectWhole(dir, err)
		}
		switch {
		case !isDir && isTemp(name):
			m.skip(Skipped{File: path, Reason: "temporary file of an interrupted write"})
		case !isDir && strings.HasSuffix(name, taskExt) && len(name) > len(taskExt):
			size, err := fileSize(path, e)
			if err != nil {
				return false, err
			}
			u.records++
			u.bytes += size
		default:
			return false, m.rejectWhole(dir, unrecognized(path))
		}
	}
	return true, nil
}

func (m *migration) planSpill(p *plan, pr *project) error {
	dir := pr.spill.Path()
	ents, err := entries(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(dir, name)
		isDir, err := classify(path, e)
		if err != nil {
			if err := m.reject(path, "", err); err != nil {
				return err
			}
			continue
		}
		switch {
		case !isDir && isTemp(name):
			m.skip(Skipped{File: path, Reason: "temporary file of an interrupted write"})
		case !isDir && strings.HasSuffix(name, spillExt) && spill.ValidRef(strings.TrimSuffix(name, spillExt)):
			size, err := fileSize(path, e)
			if err != nil {
				return err
			}
			files := p.filesIn(&pr.spillFiles, pr.spill, filepath.Join(pr.dstRel, spillName))
			p.units = append(p.units, unit{kind: unitSpill, p: pr, id: strings.TrimSuffix(name, spillExt), records: 1, bytes: size, files: files})
		default:
			if err := m.reject(path, "", unrecognized(path)); err != nil {
				return err
			}
		}
	}
	return nil
}

// measure returns the number of records (non-blank lines) of the file rel
// of d, whose entry is e, and its size, for progress totals. Without a
// Progress callback the lines are not counted.
func (m *migration) measure(d *safefs.Dir, rel string, e fs.DirEntry) (int64, int64, error) {
	if m.opts.Progress != nil {
		return m.countLines(d, rel)
	}
	size, err := fileSize(filepath.Join(d.Path(), rel), e)
	return 0, size, err
}

// fileSize returns the size of the source file at path, whose entry is e.
func fileSize(path string, e fs.DirEntry) (int64, error) {
	info, err := e.Info()
	if err != nil {
		return 0, (&storage.Error{Op: "stat", File: path, Message: "cannot inspect source file"}).WithCause(err)
	}
	return info.Size(), nil
}

// countLines returns the number of non-blank lines of the file rel of d,
// and its size, for progress totals.
func (m *migration) countLines(d *safefs.Dir, rel string) (int64, int64, error) {
	f, path, err := openSource(d, rel)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	if m.countBuf == nil {
		m.countBuf = make([]byte, 64<<10)
	}
	buf := m.countBuf
	var lines, size int64
	content := false // the current line has a non-blank byte
	for {
		n, err := f.Read(buf)
		size += int64(n)
		for _, c := range buf[:n] {
			switch c {
			case '\n':
				if content {
					lines++
				}
				content = false
			case ' ', '\t', '\r':
			default:
				content = true
			}
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

// openSource opens the source file rel of d for reading, refusing symlinks
// on the way and at the end.
func openSource(d *safefs.Dir, rel string) (*os.File, string, error) {
	path, err := d.Resolve(rel)
	if err != nil {
		return nil, "", err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, path, fmt.Errorf("%w: %s", ErrSymlink, path)
		}
		return nil, path, readError(path, err)
	}
	return f, path, nil
}

// readAllAt returns the contents of the source file name of dir and its
// path.
func readAllAt(dir *dirHandle, name string) ([]byte, string, error) {
	f, path, err := dir.open(name)
	if err != nil {
		return nil, path, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, path, readError(path, err)
	}
	return b, path, nil
}

func readError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return (&storage.Error{Op: "read", File: path, Message: "cannot read source file"}).WithCause(err)
}
