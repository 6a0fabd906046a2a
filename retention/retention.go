package retention

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// DefaultMaxAge is the age after which entries are removed when
// [Options.MaxAge] is zero: 30 days.
const DefaultMaxAge = 30 * 24 * time.Hour

// TempMaxAge is the age after which an orphaned temporary file of a store
// (.<record>.<12 hex>.tmp) is removed, whatever MaxAge says: one hour. A
// store writes such a file and renames it over its record within one
// operation, under the record's lock; one older than an hour whose record
// is not locked was left by a writer that died.
const TempMaxAge = time.Hour

// lockSuffix names the lock directory of an entry: <entry>.lock.
const lockSuffix = filelock.Suffix

// migrationMarker is the file a migration keeps at the root of its
// destination (a project directory or a home) until its copy is complete
// and verified: migrate.MarkerName.
const migrationMarker = ".migration-incomplete"

// forkMarker is the file a fork keeps in the task list it copies until
// its session's log is written: task.ForkMarker.
const forkMarker = ".fork-incomplete"

// Options configures [Sweep]. The zero value sweeps the default home,
// removes entries older than 30 days and sets no size limit.
type Options struct {
	// Home is the data home whose projects/ directory is swept. "" means
	// storage.DefaultHome(storage.DefaultNamespace), which honors
	// LITE_AGENT_HOME. A relative path is made absolute against the working
	// directory.
	Home string

	// MaxAge removes entries last modified more than MaxAge ago. Zero means
	// [DefaultMaxAge]; a negative value is an error.
	MaxAge time.Duration

	// MaxBytes is the byte budget of the files that count against it: the
	// unlocked regular files directly in every project's spill and sessions
	// directories that survive the age rule. While their total exceeds
	// MaxBytes, the least recently modified are removed. Zero means no size
	// limit unless LimitBytes is set; a negative value is an error.
	MaxBytes int64

	// LimitBytes applies MaxBytes even when it is zero, so that every file
	// that counts against the budget is removed. A positive MaxBytes always
	// applies.
	LimitBytes bool

	// DryRun reports what would be removed and removes nothing.
	DryRun bool

	now           func() time.Time  // clock; nil means time.Now
	beforeOpen    func(path string) // test hook run between lstat and open of a directory
	beforeRemove  func(path string) // test hook run between scan and removal
	afterLock     func(path string) // test hook run once the entry's lock is taken
	beforeRelease func(path string) // test hook run after a removal, before its lock is released
	fds           string            // the directory of the process's descriptors, for the portable lock (lock_portable.go); "" means /proc/self/fd/
}

// Sweep removes stale runtime files from the projects of a data home. The
// package documentation gives the rules and guarantees.
//
// Sweep is best effort: an entry that cannot be inspected or removed is
// reported in [Report.Skipped] with [SkipError] and the sweep goes on. The
// error is non-nil only for invalid options, an unusable home or projects
// directory, or a done ctx; the report then holds what happened before.
// A missing home or projects directory is not an error.
//
// Sweep is safe to run concurrently with the stores and with other sweeps:
// it honors their locks and re-checks each entry just before removing it.
func Sweep(ctx context.Context, opts Options) (Report, error) {
	s, err := newSweeper(opts)
	if err != nil {
		return Report{}, err
	}
	err = s.run(ctx)
	s.close()
	return s.rep, err
}

// sweeper holds the state of one sweep.
type sweeper struct {
	opts       Options
	limit      bool      // a size limit applies
	cutoff     time.Time // entries modified before it are old
	tempCutoff time.Time // temporary files modified before it are orphans
	projects   string    // <home>/projects
	rep        Report

	// home is the data home, opened once: the projects directory is
	// opened in it, and its migration marker looked up in it, so that
	// every later lookup is of the directory the sweep began in.
	home *os.Root

	roots      []*os.Root      // open directories, closed at the end
	candidates []candidate     // files counted against MaxBytes
	removed    map[string]bool // paths this sweep removed (or, in a dry run, would remove)
}

// candidate is a young regular file that counts against MaxBytes.
type candidate struct {
	proj *os.Root // the project holding it
	dir  *os.Root
	name string
	path string
	info fs.FileInfo
}

func newSweeper(opts Options) (*sweeper, error) {
	if opts.MaxAge < 0 {
		return nil, &storage.Error{Op: "validate", Message: "retention MaxAge must not be negative"}
	}
	if opts.MaxBytes < 0 {
		return nil, &storage.Error{Op: "validate", Message: "retention MaxBytes must not be negative"}
	}
	if opts.MaxAge == 0 {
		opts.MaxAge = DefaultMaxAge
	}
	home := opts.Home
	if home == "" {
		h, err := storage.DefaultHome(storage.DefaultNamespace)
		if err != nil {
			return nil, err
		}
		home = h
	}
	home, err := filepath.Abs(home)
	if err != nil {
		return nil, (&storage.Error{Op: "validate", File: opts.Home, Message: "cannot make the data home absolute"}).WithCause(err)
	}
	now := time.Now
	if opts.now != nil {
		now = opts.now
	}
	t := now()
	return &sweeper{
		opts:       opts,
		limit:      opts.LimitBytes || opts.MaxBytes > 0,
		cutoff:     t.Add(-opts.MaxAge),
		tempCutoff: t.Add(-TempMaxAge),
		projects:   storage.ProjectsDir(home),
		rep:        Report{Home: home, DryRun: opts.DryRun, Removed: []Entry{}, Skipped: []Skip{}},
	}, nil
}

func (s *sweeper) close() {
	for _, r := range s.roots {
		_ = r.Close()
	}
}

func (s *sweeper) run(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	// The home may be a link (it is the user's to choose); what is in it
	// is looked up through the directory it named when the sweep began.
	home, err := os.OpenRoot(filepath.Dir(s.projects))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return (&storage.Error{Op: "sweep", File: filepath.Dir(s.projects), Message: "cannot open the data home"}).WithCause(err)
	}
	s.roots = append(s.roots, home)
	s.home = home
	st, err := home.Lstat(storage.ProjectsDirName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return (&storage.Error{Op: "sweep", File: s.projects, Message: "cannot inspect the projects directory"}).WithCause(err)
	case st.Mode()&fs.ModeSymlink != 0:
		s.skip(s.projects, SkipSymlink, nil)
		return nil
	case !st.IsDir():
		s.skip(s.projects, SkipNotDirectory, nil)
		return nil
	}
	if migrating(home) {
		s.skip(filepath.Dir(s.projects), SkipMigrating, nil)
		return nil
	}
	root, err := home.OpenRoot(storage.ProjectsDirName)
	if err != nil {
		return (&storage.Error{Op: "sweep", File: s.projects, Message: "cannot open the projects directory"}).WithCause(err)
	}
	s.roots = append(s.roots, root)
	if !sameDir(root, st) {
		s.skip(s.projects, SkipChanged, nil)
		return nil
	}
	names, err := list(root, ".")
	if err != nil {
		return (&storage.Error{Op: "sweep", File: s.projects, Message: "cannot list the projects directory"}).WithCause(err)
	}
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.project(ctx, root, name); err != nil {
			return err
		}
	}
	return s.trim(ctx)
}

// project sweeps the spill and sessions directories of projects/<name>.
func (s *sweeper) project(ctx context.Context, projects *os.Root, name string) error {
	p := filepath.Join(s.projects, name)
	pr, ok := s.openDir(projects, name, p)
	if !ok {
		return nil
	}
	keep := false // kept open for the size rule
	defer func() {
		if keep {
			s.roots = append(s.roots, pr)
		} else {
			_ = pr.Close()
		}
	}()
	if _, err := pr.Lstat(migrationMarker); err == nil {
		s.skip(p, SkipMigrating, nil)
		return nil
	}
	// Only spill/ and sessions/ are swept; under tasks/, only temporary
	// files and the lists of forks that died go.
	for _, sub := range [...]string{storage.SpillDirName, storage.SessionsDirName} {
		d, ok := s.openDir(pr, sub, filepath.Join(p, sub))
		if !ok {
			continue
		}
		before := len(s.candidates)
		err := s.dir(ctx, pr, d, filepath.Join(p, sub))
		if s.limit && len(s.candidates) > before {
			s.roots = append(s.roots, d) // kept open for the size rule
			keep = true
		} else {
			_ = d.Close()
		}
		if err != nil {
			return err
		}
	}
	if _, err := pr.Lstat(storage.TasksDirName); err == nil {
		s.skip(filepath.Join(p, storage.TasksDirName), SkipTasks, nil)
		if err := s.taskTemps(ctx, pr, filepath.Join(p, storage.TasksDirName)); err != nil {
			return err
		}
	}
	return nil
}

// taskTemps removes the orphaned temporary files of the task lists under
// tasks, the only thing the sweep ever removes there. A list whose lock
// (<list>.lock beside it) is live is left alone.
func (s *sweeper) taskTemps(ctx context.Context, pr *os.Root, path string) error {
	st, err := pr.Lstat(storage.TasksDirName)
	if err != nil || !st.IsDir() {
		return nil
	}
	tr, err := pr.OpenRoot(storage.TasksDirName)
	if err != nil {
		s.skip(path, SkipError, err)
		return nil
	}
	defer tr.Close()
	if !sameDir(tr, st) {
		s.skip(path, SkipChanged, nil)
		return nil
	}
	names, err := list(tr, ".")
	if err != nil {
		s.skip(path, SkipError, err)
		return nil
	}
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		if strings.HasSuffix(name, lockSuffix) {
			continue
		}
		st, err := tr.Lstat(name)
		if err != nil || !st.IsDir() || liveLock(tr, name) {
			continue // not a list, or a list in use
		}
		if s.forkLeftover(ctx, pr, tr, name, filepath.Join(path, name), st) {
			continue
		}
		ld, ok := s.openDir(tr, name, filepath.Join(path, name))
		if !ok {
			continue
		}
		s.temps(ctx, pr, ld, filepath.Join(path, name), func() bool { return liveLock(tr, name) })
		_ = ld.Close()
	}
	return nil
}

// forkLeftover removes the task list name of tr (at path, st when
// scanned) if it is what a fork that died part-way left: it holds the
// task.ForkMarker, its session has no log (sessions/<name>.jsonl in the
// project pr), and nothing in it is younger than the cutoff. It reports
// whether it dealt with the list (removed it, or reported why not). Any
// other list, a real one, is never removed.
func (s *sweeper) forkLeftover(ctx context.Context, pr, tr *os.Root, name, path string, st fs.FileInfo) bool {
	if ctx.Err() != nil || !s.exists(tr, filepath.Join(name, forkMarker)) || s.exists(pr, filepath.Join(storage.SessionsDirName, name+".jsonl")) || s.removed[forkLog(path)] {
		// Not a fork's, or its fork wrote the log: a real list. (One
		// whose log this sweep removed for its age stays too, as every
		// session's list does.)
		return false
	}
	t, err := measure(tr, name)
	switch {
	case err != nil:
		s.skip(path, SkipError, err)
		return true
	case t.locked || !t.newest.Before(s.cutoff):
		return false // in use, or young: only its temporary files may go
	}
	s.remove(pr, tr, name, path, st, Entry{Path: path, Size: t.size, ModTime: t.newest, IsDir: true, Reason: ReasonForkLeftover})
	return true
}

// forkListKept reports, for the entry name of d at path, in the project
// pr, whether it is a task list that is no longer a dead fork's (see
// forkLeftover): its session log appeared, or its mark went. Other
// entries are not kept by this rule. Both are looked up through the
// directories the sweep opened, never by path: a project swapped for a
// link since cannot hide the log.
func (s *sweeper) forkListKept(pr, d *os.Root, name, path string) bool {
	tasks := filepath.Dir(path)
	if filepath.Base(tasks) != storage.TasksDirName {
		return false
	}
	_, logErr := pr.Lstat(filepath.Join(storage.SessionsDirName, name+".jsonl"))
	_, markErr := d.Lstat(filepath.Join(name, forkMarker))
	return !errors.Is(logErr, fs.ErrNotExist) || markErr != nil || s.removed[forkLog(path)]
}

// forkLog returns the path of the session log of the task list at path:
// <project>/sessions/<list id>.jsonl.
func forkLog(path string) string {
	return filepath.Join(filepath.Dir(filepath.Dir(path)), storage.SessionsDirName, filepath.Base(path)+".jsonl")
}

// dirTemps removes the orphaned temporary files directly in the kept
// directory d/name (a context archive), whose lock is d/name.lock.
func (s *sweeper) dirTemps(ctx context.Context, pr, d *os.Root, name, path string) {
	if cd, ok := s.openDir(d, name, path); ok {
		s.temps(ctx, pr, cd, path, func() bool { return liveLock(d, name) })
		_ = cd.Close()
	}
}

// temps removes the orphaned temporary files directly in d, a directory of
// records; dirLocked reports whether a live lock of d as a whole is held.
func (s *sweeper) temps(ctx context.Context, pr, d *os.Root, path string, dirLocked func() bool) {
	names, err := list(d, ".")
	if err != nil {
		s.skip(path, SkipError, err)
		return
	}
	for _, name := range names {
		if ctx.Err() != nil {
			return
		}
		record, ok := tempRecord(name)
		if !ok {
			continue
		}
		st, err := d.Lstat(name)
		if err != nil || !st.Mode().IsRegular() || !st.ModTime().Before(s.tempCutoff) {
			continue
		}
		s.removeTemp(pr, d, name, filepath.Join(path, name), st, record, dirLocked)
	}
}

// removeTemp removes the orphaned temporary file d/name of record unless
// the record, or the directory as a whole (dirLocked), has a live lock. A
// stale lock (unrefreshed for filelock's stale period) protects nothing:
// its holder is gone, and a store that takes it over writes a temporary
// file of its own, under another name.
func (s *sweeper) removeTemp(pr, d *os.Root, name, path string, st fs.FileInfo, record string, dirLocked func() bool) bool {
	if liveLock(d, record) || cutTempLocked(d, name, record) || dirLocked != nil && dirLocked() {
		s.skip(path, SkipLocked, nil)
		return false
	}
	return s.remove(pr, d, name, path, st, Entry{Path: path, Size: st.Size(), ModTime: st.ModTime(), Reason: ReasonTemp})
}

// cutTempLocked reports whether the temporary file name, whose record's
// name may have been cut short to fit (it is storage.NameMax bytes long,
// see safefs.TempName), belongs to an entry of d that starts with record
// and has a live lock. A listing that fails counts as locked.
func cutTempLocked(d *os.Root, name, record string) bool {
	if len(name) < storage.NameMax {
		return false
	}
	names, err := list(d, ".")
	if err != nil {
		return true
	}
	for _, n := range names {
		if e, ok := strings.CutSuffix(n, lockSuffix); ok && e != record && strings.HasPrefix(e, record) && liveLock(d, e) {
			return true
		}
	}
	return false
}

// tempRecord returns the record name of a store's temporary file name
// (.<record>.<12 hex>.tmp), or false if name is not one.
func tempRecord(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, ".")
	if !ok {
		return "", false
	}
	if rest, ok = strings.CutSuffix(rest, ".tmp"); !ok || len(rest) < 14 || rest[len(rest)-13] != '.' {
		return "", false
	}
	for _, c := range rest[len(rest)-12:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", false
		}
	}
	return rest[:len(rest)-13], true
}

// openDir opens parent/name as a root if it is a real directory: not a
// symlink, and still the directory that was inspected once opened. A
// missing entry is silently ignored; anything else is reported.
func (s *sweeper) openDir(parent *os.Root, name, path string) (*os.Root, bool) {
	st, err := parent.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false
	case err != nil:
		s.skip(path, SkipError, err)
		return nil, false
	case st.Mode()&fs.ModeSymlink != 0:
		s.skip(path, SkipSymlink, nil)
		return nil, false
	case !st.IsDir():
		s.skip(path, SkipNotDirectory, nil)
		return nil, false
	}
	if s.opts.beforeOpen != nil {
		s.opts.beforeOpen(path)
	}
	r, err := parent.OpenRoot(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Gone since the lstat, as a lock directory made or released
		// under a hidden name (.stale-<hex>.lock) is a moment later.
		return nil, false
	case err != nil:
		s.skip(path, SkipError, err)
		return nil, false
	}
	if !sameDir(r, st) {
		// Replaced (by a symlink, say) between the lstat and the open.
		_ = r.Close()
		s.skip(path, SkipChanged, nil)
		return nil, false
	}
	return r, true
}

// dir applies the age rule to every direct entry of d and collects the
// files that count against the size limit.
func (s *sweeper) dir(ctx context.Context, pr, d *os.Root, path string) error {
	names, err := list(d, ".")
	if err != nil {
		s.skip(path, SkipError, err)
		return nil
	}
	// The listing tells which entries had a lock when it was taken, which
	// saves a lookup per entry; remove checks the disk again in any case.
	listed := make(map[string]bool, len(names))
	for _, name := range names {
		listed[name] = true
	}
	// Context archives come last, after the session logs: an archive
	// goes only after its log, which a session resumed meanwhile keeps
	// (see sessionInUse).
	slices.SortStableFunc(names, func(a, b string) int {
		_, _, ca := storage.ParseContextDirName(a)
		_, _, cb := storage.ParseContextDirName(b)
		return cmp.Compare(b2i(ca), b2i(cb))
	})
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.entry(ctx, pr, d, name, filepath.Join(path, name), listed[filelock.Name(name)])
	}
	return nil
}

// entry applies the rules to the direct entry name of d; hasLock says
// whether name.lock was listed beside it.
func (s *sweeper) entry(ctx context.Context, pr, d *os.Root, name, path string, hasLock bool) {
	s.rep.Scanned++
	st, err := d.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return // removed since the listing
	case err != nil:
		s.skip(path, SkipError, err)
		return
	case st.Mode()&fs.ModeSymlink != 0:
		s.skip(path, SkipSymlink, nil)
		return
	case strings.HasSuffix(name, lockSuffix) && !filelock.Leftover(name):
		// A leftover of an interrupted lock operation (a claim, a lock
		// set aside) is never a live lock: the age rule applies to it.
		if !s.loneLock(d, name, path, st) {
			s.skip(path, SkipLock, nil)
		}
		return
	case hasLock && liveLock(d, name):
		s.skip(path, SkipLocked, nil)
		return
	case !st.IsDir() && !st.Mode().IsRegular():
		s.skip(path, SkipNotRegular, nil)
		return
	case st.Mode().IsRegular() && safefs.LinkCount(st) > 1:
		s.skip(path, SkipHardLink, nil)
		return
	}
	if deletingLog(name) {
		// The record of a delete that has not finished: the delete's
		// rerun removes it, after what else belongs to the session. A
		// directory of that name is no delete's, but the sessions refuse
		// it as one, and only the user may remove what it holds.
		s.skip(path, SkipDeleting, nil)
		return
	}
	if record, ok := tempRecord(name); ok && st.Mode().IsRegular() && st.ModTime().Before(s.tempCutoff) {
		s.removeTemp(pr, d, name, path, st, record, nil)
		return
	}
	if !st.ModTime().Before(s.cutoff) {
		if st.Mode().IsRegular() {
			s.candidates = append(s.candidates, candidate{proj: pr, dir: d, name: name, path: path, info: st})
		} else {
			s.dirTemps(ctx, pr, d, name, path)
		}
		return
	}
	if st.Mode().IsRegular() {
		s.remove(pr, d, name, path, st, Entry{Path: path, Size: st.Size(), ModTime: st.ModTime(), Reason: ReasonAge})
		return
	}
	// A directory's own mtime changes only when entries are added or
	// removed, so it is old only if nothing inside it is young either.
	t, err := measure(d, name)
	switch {
	case err != nil:
		s.skip(path, SkipError, err)
	case t.locked:
		s.skip(path, SkipLocked, nil)
	case !t.newest.Before(s.cutoff) || s.youngSession(d, name):
		// Young contents, or the archive of a young session log: kept,
		// and never counted against MaxBytes; only the orphaned temporary
		// files inside go.
		s.dirTemps(ctx, pr, d, name, path)
	default:
		s.remove(pr, d, name, path, st, Entry{Path: path, Size: t.size, ModTime: t.newest, IsDir: true, Reason: ReasonAge})
	}
}

// deletingSuffix ends the name of the log of a session being deleted:
// <id>.jsonl.deleting (session.DeletingName), or <id>.deleting for an id
// too long for that name (see shortDeletingSuffix).
const deletingSuffix = ".jsonl.deleting"

// deletingLog reports whether name is that of a session's log set aside
// for its delete (see [SkipDeleting]).
func deletingLog(name string) bool {
	if id, ok := strings.CutSuffix(name, deletingSuffix); ok && id != "" {
		return true
	}
	// The short form <id>.deleting of an id too long for the usual one.
	id, ok := strings.CutSuffix(name, shortDeletingSuffix)
	return ok && storage.ValidateID(id) == nil && !storage.FitName(id+deletingSuffix)
}

// shortDeletingSuffix ends the name of the log of a session being deleted
// whose id is too long for <id>.jsonl.deleting to fit: <id>.deleting.
const shortDeletingSuffix = ".deleting"

// loneLock removes the lock directory d/name, which was st when scanned,
// if it is stale by filelock's rule and its entry is gone: what a store or
// sweep killed after removing the entry and before releasing the lock
// leaves, which would otherwise be skipped as a lock for ever. It takes the
// lock over first, as a store would, checks under it that the entry is
// still missing, and releases it, which removes it. It reports whether it
// dealt with name (removed it, or reported why not); false means name is
// to be skipped as a lock. The parked lock directory (filelock.IdleName)
// is no entry's lock and always stays.
func (s *sweeper) loneLock(d *os.Root, name, path string, st fs.FileInfo) bool {
	entry, ok := lockedEntry(d, name)
	if !ok || name == filelock.IdleName || entry == "" || !st.IsDir() || liveLock(d, entry) || s.exists(d, entry) {
		return false
	}
	e := Entry{Path: path, ModTime: st.ModTime(), IsDir: true, Reason: ReasonStaleLock}
	if s.opts.DryRun {
		s.rep.Removed = append(s.rep.Removed, e)
		return true
	}
	entryPath := filepath.Join(filepath.Dir(path), entry)
	l, ok := s.lock(d, entry, entryPath, path)
	if !ok {
		return true
	}
	if s.exists(d, entry) {
		// Created meanwhile, without the lock: the entry's business.
		l.release()
		s.skip(path, SkipChanged, nil)
		return true
	}
	err := l.check()
	l.release()
	if err != nil {
		s.skip(path, SkipLocked, &storage.Error{Op: "lock", File: path, Message: "lock was compromised"})
		return true
	}
	s.rep.Removed = append(s.rep.Removed, e)
	return true
}

// lockedEntry returns the name of the entry of d whose lock directory is
// the lock name: <entry>.lock, or, for the short form filelock gives a
// lock whose usual name would not fit (<id>.c.lock for the archive
// <id>.context of a long id, see filelock.Name), the entry of d that takes
// it. false means d could not be listed to tell.
func lockedEntry(d *os.Root, name string) (string, bool) {
	entry := strings.TrimSuffix(name, lockSuffix)
	i := strings.LastIndexByte(entry, '.')
	if i <= 0 || i != len(entry)-2 {
		return entry, true // not a short form
	}
	names, err := list(d, ".")
	if err != nil {
		return "", false
	}
	for _, n := range names {
		if n != entry && strings.HasPrefix(n, entry) && filelock.Name(n) == name {
			return n, true
		}
	}
	return entry, true
}

// exists reports whether name is in d; when that cannot be told, it is.
func (s *sweeper) exists(d *os.Root, name string) bool {
	_, err := d.Lstat(name)
	return !errors.Is(err, fs.ErrNotExist)
}

// youngSession reports whether name in d is the context archive of a
// session whose log (<id>.jsonl beside it) is younger than the cutoff: a
// session resumed after MaxAge may read its archive without writing to it,
// and the archive must not go before the log that refers to it.
func (s *sweeper) youngSession(d *os.Root, name string) bool {
	id, _, ok := storage.ParseContextDirName(name)
	if !ok {
		return false
	}
	st, err := d.Lstat(id + ".jsonl")
	return err == nil && st.Mode().IsRegular() && !st.ModTime().Before(s.cutoff)
}

// sessionInUse reports whether name in d (at path) is the context archive
// of a session whose log stays: one that is young or locked (what a
// session resumed since the scan shows at the archive's removal, the logs
// having been swept first), or one that this sweep did not remove, for
// whatever reason it was kept (a reader held its lock when the sweep came
// to it, it has other links, ...). An archive goes only with its log, or
// after it.
func (s *sweeper) sessionInUse(d *os.Root, name, path string) bool {
	id, _, ok := storage.ParseContextDirName(name)
	if !ok {
		return false
	}
	log := id + ".jsonl"
	if s.youngSession(d, name) || liveLock(d, log) {
		return true
	}
	return !s.removed[filepath.Join(filepath.Dir(path), log)] && s.exists(d, log)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// trim removes the least recently modified candidates while their total
// exceeds the size limit.
func (s *sweeper) trim(ctx context.Context) error {
	var total int64
	for _, c := range s.candidates {
		total += c.info.Size()
	}
	if s.limit {
		slices.SortStableFunc(s.candidates, func(a, b candidate) int {
			return cmp.Or(a.info.ModTime().Compare(b.info.ModTime()), strings.Compare(a.path, b.path))
		})
		for _, c := range s.candidates {
			if total <= s.opts.MaxBytes {
				break
			}
			if err := ctx.Err(); err != nil {
				s.rep.BytesKept = total
				return err
			}
			if s.remove(c.proj, c.dir, c.name, c.path, c.info, Entry{Path: c.path, Size: c.info.Size(), ModTime: c.info.ModTime(), Reason: ReasonSize}) {
				total -= c.info.Size()
			}
		}
	}
	s.rep.BytesKept = total
	return nil
}

// remove removes d/name (at path, in the project pr), which was st when
// scanned, unless it changed or gained a lock since; it reports the
// outcome and whether the entry went (or, in a dry run, would go).
func (s *sweeper) remove(pr, d *os.Root, name, path string, st fs.FileInfo, e Entry) bool {
	if s.opts.beforeRemove != nil {
		s.opts.beforeRemove(path)
	}
	var l *entryLock
	if !s.opts.DryRun {
		var ok bool
		if l, ok = s.lock(d, name, path, path); !ok {
			return false
		}
		defer l.release()
		if s.opts.afterLock != nil {
			s.opts.afterLock(path)
		}
	}
	if migrating(pr) || migrating(s.home) {
		// A migration into the project or the home began since the scan.
		s.skip(path, SkipMigrating, nil)
		return false
	}
	cur, err := d.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.skip(path, SkipChanged, nil)
		return false
	case err != nil:
		s.skip(path, SkipError, err)
		return false
	case !unchanged(st, cur):
		s.skip(path, SkipChanged, nil)
		return false
	case s.opts.DryRun && liveLock(d, name):
		s.skip(path, SkipLocked, nil)
		return false
	case cur.IsDir() && s.sessionInUse(d, name, path):
		// The archive's session log stays: it was resumed since the
		// scan, or was kept when the sweep came to it.
		s.skip(path, SkipChanged, nil)
		return false
	case cur.IsDir() && s.forkListKept(pr, d, name, path):
		// The fork finished since the scan: a real list now.
		s.skip(path, SkipChanged, nil)
		return false
	}
	if !s.opts.DryRun {
		if err = l.check(); err == nil {
			if cur.IsDir() {
				err = removeTree(d, name, cur, l.check)
			} else {
				err = d.Remove(name)
			}
		}
		switch {
		case err == nil:
		case errors.Is(err, errChanged):
			s.skip(path, SkipChanged, nil)
			return false
		case l.check() != nil:
			// Taken over or removed by another process: the entry is
			// left as it is, for the lock's new holder. The error names
			// the lock by its path, not by the descriptor it was taken in.
			s.skip(path, SkipLocked, &storage.Error{Op: "lock", File: filelock.Path(path), Message: "lock was compromised"})
			return false
		default:
			s.skip(path, SkipError, err)
			return false
		}
		if s.opts.beforeRelease != nil {
			s.opts.beforeRelease(path)
		}
	}
	s.rep.Removed = append(s.rep.Removed, e)
	s.rep.BytesFreed += e.Size
	if s.removed == nil {
		s.removed = make(map[string]bool)
	}
	s.removed[path] = true
	return true
}

// migrating reports whether dir (the home or a project directory) holds
// the marker of a migration that has not finished; when that cannot be
// told, it does.
func migrating(dir *os.Root) bool {
	_, err := dir.Lstat(migrationMarker)
	return !errors.Is(err, fs.ErrNotExist)
}

func (s *sweeper) skip(path string, reason SkipReason, err error) {
	s.rep.Skipped = append(s.rep.Skipped, Skip{Path: path, Reason: reason, Err: err})
}

// unchanged reports whether cur is still the entry scanned as old: the same
// file, of the same type, not modified since.
func unchanged(old, cur fs.FileInfo) bool {
	return os.SameFile(old, cur) &&
		old.Mode().Type() == cur.Mode().Type() &&
		old.ModTime().Equal(cur.ModTime()) &&
		(cur.IsDir() || old.Size() == cur.Size())
}

// sameDir reports whether the open root r is the directory st describes.
func sameDir(r *os.Root, st fs.FileInfo) bool {
	cur, err := r.Stat(".")
	return err == nil && os.SameFile(cur, st)
}

// list returns the sorted names in the directory rel of r.
func list(r *os.Root, rel string) ([]string, error) {
	f, err := r.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	return names, nil
}

// tree summarizes a directory for the age rule.
type tree struct {
	newest time.Time // newest mtime of the directory and the files and directories in it
	size   int64     // total size of the regular files in it
	locked bool      // it contains an entry named *.lock
}

// measure walks the directory rel of r with lstat only: it never opens a
// file and never follows a symlink.
func measure(r *os.Root, rel string) (tree, error) {
	var t tree
	st, err := r.Lstat(rel)
	if err != nil {
		return t, err
	}
	t.newest = st.ModTime()
	err = measureInto(r, rel, &t)
	return t, err
}

func measureInto(r *os.Root, rel string, t *tree) error {
	names, err := list(r, rel)
	if err != nil {
		return err
	}
	for _, name := range names {
		p := rel + "/" + name
		st, err := r.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if strings.HasSuffix(name, lockSuffix) {
			t.locked = true
		}
		// Only files and directories carry the time of the data's last
		// change; a symlink's own time says nothing about it.
		switch {
		case st.Mode().IsRegular():
			t.size += st.Size()
		case st.IsDir():
			if err := measureInto(r, p, t); err != nil {
				return err
			}
		default:
			continue
		}
		if st.ModTime().After(t.newest) {
			t.newest = st.ModTime()
		}
	}
	return nil
}
