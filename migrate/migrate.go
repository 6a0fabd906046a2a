package migrate

import (
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

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Endpoint is one side of a migration: the project directory and the storage
// configuration, as an agent would be given them.
type Endpoint struct {
	// Workdir is the project directory; its [storage.ProjectHash] names the
	// project. For the source, "" means the working directory; for the
	// destination, "" means the source's Workdir, so that the hash is kept.
	// With [Options.AllProjects] the destination's Workdir must be "".
	Workdir string

	// Storage selects the namespace, the home and the codec, with the
	// meaning of [storage.ResolveProjectPaths]: "" namespace is
	// [storage.DefaultNamespace], "" home is [storage.DefaultHome] of the
	// namespace, a nil codec is plaintext.
	Storage storage.Options
}

// Options configures [Run]. The zero value copies the working directory's
// project from the default home to the default home, which fails as a copy
// onto itself: set at least To.Storage.Home.
type Options struct {
	// From is read with its own configuration; To is written with its own.
	From, To Endpoint

	// AllProjects copies the whole source home (every project and the home's
	// configuration files) instead of one project. Each project keeps its
	// hash, so To.Workdir must be "".
	AllProjects bool

	// DryRun reads and decodes every source record and checks the
	// destination rules, but writes nothing. The report counts what would be
	// copied.
	DryRun bool

	// SkipUnreadable leaves out, and lists in [Report.Skipped], source
	// records that do not decode or are invalid, symlinks and unrecognised
	// entries; without it the first of them stops the migration. If it
	// copies no record and leaves out records that did not decode, the
	// migration fails with ErrUnreadable all the same: that is a wrong
	// source codec or key.
	SkipUnreadable bool

	// Progress, if not nil, is called with the counts so far as files and
	// records are copied, at most once per ProgressInterval, and once more
	// when the last file is done. Calls are serialised; the migration waits
	// while Progress runs, so it should return quickly. When it is called
	// between two files, the worker calling it holds no source lock.
	Progress func(Progress)

	// CountRecords makes Progress's TotalRecords the number of records of
	// the source: the plan then reads every session log and archive index
	// once before the copy starts, only to count their lines (some 5 % of
	// the time of a migration).
	// Without it TotalRecords is 0 and Records counts the records copied so
	// far; Files, TotalFiles, Bytes and TotalBytes are the same either way,
	// so a progress bar can follow Bytes of TotalBytes. It has no effect
	// without Progress.
	CountRecords bool

	// ProgressInterval is the least time between two calls of Progress;
	// zero means 100 ms. A negative interval reports after every file and
	// every few thousand records of a long log.
	ProgressInterval time.Duration

	// Workers is how many files are copied at once; zero means one per
	// processor (GOMAXPROCS) and one more, at most 32. Copying a log keeps
	// a processor busy nearly all the time (its lock moves from log to log
	// by a rename, and the disk is synced in the background), so one extra
	// worker covers the one waiting in a system call; each worker more
	// costs memory (its buffers) and scheduling, not speed.
	Workers int

	// failWrite, if not nil, is called before every write to the
	// destination with the path relative to the destination root; an error
	// fails that write. Tests use it to simulate a full disk.
	failWrite func(rel string) error

	// tamperWrite, if not nil, is given a copy of every chunk written to the
	// destination and returns what reaches the file instead. Tests use it to
	// simulate data that does not reach the disk intact.
	tamperWrite func(rel string, b []byte) []byte

	// syncHook, if not nil, is called after each sync of the destination
	// through the flusher (n counts them from 1) and may replace its error;
	// flushEvery, if positive, replaces the flusher's interval. Tests use
	// them to simulate a writeback error reported to a background sync.
	syncHook   func(n int, err error) error
	flushEvery int64

	// beforeAnchor, if not nil, is called with the path of every source
	// directory the plan found, just before it opens it. Tests use it to
	// remove the directory in that window.
	beforeAnchor func(path string)

	// removalsSynced, if not nil, is called as a failed run begins to sync
	// what it removed, before its marker goes (see abandon). Tests use it
	// to look at the destination then.
	removalsSynced func()

	// prefetched, if not nil, is called with the unit of every log
	// prefetched. Tests use it to count them; coldStart makes the run
	// prefetch every log from the start, as if the first were found out of
	// the page cache, for a benchmark to compare with.
	prefetched func(id string)
	coldStart  bool

	// nowaitRead, if not nil, stands in for the first read of each log
	// that takes only what the page cache holds (see readLog). Tests use it
	// to give answers this kernel does not.
	nowaitRead func(fd int, p []byte) (int, error)

	// copied, if not nil, is called once the copy is over, before the
	// check that no session copied was deleted meanwhile. Tests use it to
	// delete a session in that gap.
	copied func()

	// stepped, if not nil, is called as the destination is opened and the
	// source planned, with the name of the step done (see step). Tests
	// use it to stop a migration there.
	stepped func(name string)
}

// Progress is a snapshot of a running migration.
type Progress struct {
	// Files counts the files done so far and TotalFiles those the source
	// holds. Records counts the records done so far (a record is a line of
	// a log or index, or a whole file of another kind). TotalRecords is what
	// the source holds with [Options.CountRecords], and otherwise 0; Records
	// then counts only the records copied, not those left out.
	Files, TotalFiles     int
	Records, TotalRecords int64
	// Bytes counts the stored source bytes read so far, TotalBytes the
	// stored bytes of the whole source (from the files' sizes when the copy
	// starts).
	Bytes, TotalBytes int64
	// Elapsed is the time since the copy started.
	Elapsed time.Duration
}

// Report says what a migration did.
type Report struct {
	// DryRun reports that nothing was written.
	DryRun bool `json:"dryRun"`
	// Source and Destination describe the two sides.
	Source      Side `json:"source"`
	Destination Side `json:"destination"`
	// Projects lists the project hashes copied, as the destination names
	// them, in order.
	Projects []string `json:"projects"`
	// Kinds counts the records of each kind copied.
	Kinds map[storage.Kind]Count `json:"kinds"`
	// Config counts the configuration files of the home copied byte for
	// byte (AllProjects only).
	Config Count `json:"config"`
	// Records and Bytes are the totals over all kinds and Config: records
	// and plaintext bytes.
	Records int64 `json:"records"`
	Bytes   int64 `json:"bytes"`
	// Skipped lists what was left out: temporary files and repair copies
	// always, unreadable records, symlinks and unrecognised entries with
	// SkipUnreadable.
	Skipped []Skipped `json:"skipped"`
	// Problems lists the differences verification found between the
	// destination and the source; empty on success.
	Problems []Problem `json:"problems"`
	// Verified reports that every copied record was found, as written to
	// the destination, to decode with the destination configuration to its
	// source plaintext (see the package documentation). It is false for a
	// dry run.
	Verified bool `json:"verified"`
	// Elapsed is how long the migration took.
	Elapsed time.Duration `json:"elapsedNs"`
}

// Side describes one end of a migration in a [Report].
type Side struct {
	// Home is the data home and Namespace the namespace.
	Home      string `json:"home"`
	Namespace string `json:"namespace"`
	// Codec is the codec id, or "" for plaintext.
	Codec string `json:"codec,omitempty"`
	// Root is the directory copied (source) or written (destination): a
	// project directory, or the home with AllProjects.
	Root string `json:"root"`
	// Hash is the project hash, or "" with AllProjects.
	Hash string `json:"hash,omitempty"`
}

// Count sums up the records of one kind.
type Count struct {
	// Files is the number of files, Records the number of records.
	Files   int   `json:"files"`
	Records int64 `json:"records"`
	// Bytes is the plaintext size of the records.
	Bytes int64 `json:"bytes"`
	// SourceBytes and DestinationBytes are the stored sizes on each side.
	SourceBytes      int64 `json:"sourceBytes"`
	DestinationBytes int64 `json:"destinationBytes"`
}

// Skipped is one source file or record left out of the migration.
type Skipped struct {
	// File is the source path; Record the record (seq, line number, ref or
	// task id), or "" for a whole file.
	File   string `json:"file"`
	Record string `json:"record,omitempty"`
	// Reason says why, in a form safe to show: never a record's contents.
	Reason string `json:"reason"`
}

// Problem is one difference verification found.
type Problem struct {
	// File is the destination path, Record the record or "".
	File   string `json:"file"`
	Record string `json:"record,omitempty"`
	// Message describes the difference.
	Message string `json:"message"`
}

// The errors Run wraps, for errors.Is. Each is returned with the path
// involved; storage failures (a lock, a file) are *storage.Error.
var (
	// ErrOptions reports options that contradict each other.
	ErrOptions = errors.New("invalid migration options")
	// ErrNoSource reports a source root that does not exist.
	ErrNoSource = errors.New("nothing to migrate: the source does not exist")
	// ErrSameAsSource reports a destination root that is the source root.
	ErrSameAsSource = errors.New("the destination is the source")
	// ErrInsideSource reports a destination root inside the source root,
	// or a source inside the destination.
	ErrInsideSource = errors.New("the destination is inside the source")
	// ErrDestinationNotEmpty reports a destination root that exists and
	// holds anything but an interrupted migration of the same source.
	ErrDestinationNotEmpty = errors.New("the destination is not empty")
	// ErrSymlink reports a symlink in the source tree or at the destination.
	ErrSymlink = errors.New("symlink in the migrated tree")
	// ErrUnrecognized reports a source entry that is not runtime data the
	// package knows how to copy.
	ErrUnrecognized = errors.New("unrecognized entry in the source")
	// ErrUnreadable reports a source record that does not decode under the
	// source configuration or is not a valid record; the *storage.Error it
	// comes with names the file and the record.
	ErrUnreadable = errors.New("unreadable source record")
	// ErrIncomplete reports a destination holding the marker of a migration
	// that did not finish.
	ErrIncomplete = errors.New("incomplete migration")
	// ErrVerification reports a destination that does not read back as the
	// source; [Report.Problems] lists the differences.
	ErrVerification = errors.New("the destination failed verification")
)

// MarkerName is the file a migration writes at the root of its destination
// (a data home or a project directory) before anything else and removes
// after everything is written and verified. A directory that holds it is
// an incomplete copy: agents refuse to use it.
const MarkerName = ".migration-incomplete"

// CheckComplete reports whether dir (a project directory or a data home)
// holds the marker of an unfinished migration (of any type: it is not
// followed; a missing dir holds none): nil if not, an error matching
// [ErrIncomplete] that names the marker if it does, or the error of looking.
func CheckComplete(dir string) error {
	marker := filepath.Join(dir, MarkerName)
	_, err := os.Lstat(marker)
	switch {
	case err == nil:
		return fmt.Errorf("%w: %s was left by a migration that did not finish; run the migration again or delete the destination", ErrIncomplete, marker)
	case errors.Is(err, fs.ErrNotExist):
		return nil
	}
	return err
}

// Run migrates as opts say and returns what it did. See the package
// documentation for the rules. The error is nil only when every record was
// copied and verified (or, for a dry run, read); the report is filled as far
// as the migration went either way. Run is safe to call concurrently for
// different destinations; two runs for one destination exclude each other.
//
// A source project with two sessions, or two task lists, whose ids differ
// only in case is refused before anything is written, with a
// *storage.Error matching storage.ErrIDCaseCollision: the new home may be
// (or be copied to) a case-insensitive file system, where they are one
// file or directory. Fork one of them to a new id and delete it first.
func Run(ctx context.Context, opts Options) (Report, error) {
	start := time.Now()
	m, err := newMigration(opts)
	if err != nil {
		return Report{}, err
	}
	err = m.run(ctx)
	m.rep.Elapsed = time.Since(start)
	m.finishReport()
	return m.rep, err
}

// migration is the state of one Run.
type migration struct {
	opts         Options
	all          bool
	srcHome      string
	srcRoot      string // absolute source root: a project dir or the home
	dstRoot      string // absolute destination root
	srcNS, dstNS string
	srcCodec     storage.Codec
	dstCodec     storage.Codec
	srcHash      string // single project only
	dstHash      string // single project only
	workers      int

	dst      *safefs.Dir    // the anchored destination root; nil in a dry run
	dstLock  *filelock.Lock // the destination's lock, held while dst is written
	countBuf []byte         // the read buffer of the plan
	flush    *flusher       // syncs the destination while it is written

	// cold is set once a session log was found not to be in the page
	// cache, or where that cannot be told: the logs are prefetched from
	// then on (see copyAll and readLog).
	cold coldFlag

	reportEvery time.Duration // the least time between two reports

	mu          sync.Mutex // guards the fields below
	rep         Report
	prog        Progress
	copyFrom    time.Time
	lastReport  time.Time
	undecodable int        // records SkipUnreadable left out because they did not decode
	made        []madeFile // the files this run created at the destination
	madeDirs    []string   // the directories it made there (relative to dst), each after its parent
}

func newMigration(opts Options) (*migration, error) {
	if opts.AllProjects && opts.To.Workdir != "" {
		return nil, fmt.Errorf("%w: a destination workdir changes one project's hash; it cannot be combined with all projects", ErrOptions)
	}
	to := opts.To
	if to.Workdir == "" {
		to.Workdir = opts.From.Workdir
	}
	src, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: opts.From.Workdir, Storage: opts.From.Storage})
	if err != nil {
		return nil, err
	}
	dst, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: to.Workdir, Storage: to.Storage})
	if err != nil {
		return nil, err
	}
	// Each codec's ID is read once, so that the whole run reads and
	// writes under one id per side.
	codecs := [2]storage.Codec{opts.From.Storage.Codec, to.Storage.Codec}
	for i, c := range codecs {
		if c != nil {
			if codecs[i], err = storage.FreezeCodec(c); err != nil {
				return nil, err
			}
		}
	}
	m := &migration{
		opts:     opts,
		all:      opts.AllProjects,
		srcHome:  src.Home,
		srcNS:    src.Namespace,
		dstNS:    dst.Namespace,
		srcCodec: codecs[0],
		dstCodec: codecs[1],
		workers:  opts.Workers,
	}
	if opts.coldStart {
		m.cold.Store()
	}
	if m.workers <= 0 {
		m.workers = min(runtime.GOMAXPROCS(0)+1, 32)
	}
	m.reportEvery = opts.ProgressInterval
	if m.reportEvery == 0 {
		m.reportEvery = 100 * time.Millisecond
	}
	if m.all {
		m.srcRoot, m.dstRoot = src.Home, dst.Home
	} else {
		m.srcRoot, m.dstRoot = src.ProjectDir(), dst.ProjectDir()
		m.srcHash, m.dstHash = src.Hash, dst.Hash
	}
	m.rep = Report{
		DryRun:      opts.DryRun,
		Source:      Side{Home: src.Home, Namespace: src.Namespace, Codec: codecID(m.srcCodec), Root: m.srcRoot, Hash: m.srcHash},
		Destination: Side{Home: dst.Home, Namespace: dst.Namespace, Codec: codecID(m.dstCodec), Root: m.dstRoot, Hash: m.dstHash},
		Projects:    []string{},
		Kinds:       map[storage.Kind]Count{},
		Skipped:     []Skipped{},
		Problems:    []Problem{},
	}
	return m, nil
}

func codecID(c storage.Codec) string {
	if c == nil {
		return ""
	}
	return c.ID()
}

// run is Run after the options are resolved.
func (m *migration) run(ctx context.Context) error {
	if err := m.checkOverlap(); err != nil {
		return err
	}
	if err := m.checkSourceRoot(); err != nil {
		return err
	}
	incomplete, _, err := m.inspectDestination(ctx)
	if err != nil {
		return err
	}
	if m.opts.DryRun {
		p, err := m.plan(ctx)
		if err != nil {
			return err
		}
		if err := m.sessionsKept(p, m.copyAll(ctx, p)); err != nil {
			return err
		}
		return m.checkSomethingRead()
	}
	p, d, err := m.planAndOpen(ctx, incomplete)
	if err != nil {
		return err
	}
	m.step("copying")
	copyErr := m.copyAll(ctx, p)
	if copyErr == nil {
		// The copy wrote everything: its last sync runs while the
		// sessions are checked, and finish waits for it.
		m.flush.begin()
	}
	err = m.sessionsKept(p, copyErr)
	if err == nil {
		err = m.checkSomethingRead()
	}
	if err == nil {
		err = d.finish(ctx, len(m.rep.Problems) == 0) // syncs through m.flush
	} else {
		m.flush.abort()
		d.abandon()
	}
	if err == nil && len(m.rep.Problems) > 0 {
		err = fmt.Errorf("%w: %d problems; %s", ErrVerification, len(m.rep.Problems), filepath.Join(m.dstRoot, MarkerName)+" marks it incomplete")
	}
	if rerr := d.release(); err == nil {
		err = rerr
	}
	if err == nil {
		m.rep.Verified = true
	}
	return err
}

// planAndOpen plans the copy and opens the destination (see
// openDestination). A destination found empty or missing is opened while
// the source is planned: its five syncs (the marker, its name, the
// entries of the directories made) then wait for the disk alongside the
// plan's reads instead of after them. If the plan fails, what the opening
// wrote goes again (see abandon) and nothing is left but what was there.
// A destination holding an interrupted migration (incomplete) is opened
// only once the plan has accepted the source, so that a source refused
// leaves the interrupted copy as it was, marker included.
func (m *migration) planAndOpen(ctx context.Context, incomplete bool) (*plan, *destination, error) {
	if incomplete {
		p, err := m.plan(ctx)
		if err != nil {
			return nil, nil, err
		}
		m.step("planned")
		d, err := m.openDestination(ctx)
		return p, d, err
	}
	dctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		d    *destination
		derr error
	)
	opened := make(chan struct{})
	go func() {
		defer close(opened)
		d, derr = m.openDestination(dctx)
	}()
	m.step("planning")
	p, err := m.plan(ctx)
	if err != nil {
		cancel() // a lock still waited for is not needed
	} else {
		m.step("planned")
	}
	<-opened
	switch {
	case err != nil && derr == nil:
		m.flush.abort()
		d.abandon()
		_ = d.release()
		return nil, nil, err
	case err != nil:
		return nil, nil, err
	case derr != nil:
		return nil, nil, derr
	}
	return p, d, nil
}

// step tells a test that the step name is done (see Options.stepped).
func (m *migration) step(name string) {
	if m.opts.stepped != nil {
		m.opts.stepped(name)
	}
}

// sessionsKept checks, once the copy is over (copyErr is its error, nil
// if it succeeded), that no session it copied was deleted from the source
// meanwhile, and returns the error the migration ends with. The source's
// locks exclude a delete only while one file is read: a delete of a
// session (lite-agent sessions delete, in another process) that began
// during the copy may have removed its archive or task list before or
// after they were copied, and the destination would hold a session the
// source deleted, or only part of it. A delete sets the session's log
// aside first (<id>.jsonl.deleting) and removes it last, so a session
// whose log is still in place here lost nothing before the copy ended; a
// delete that begins after this check began after the copy, which holds
// the session whole. A session whose log is set aside (a
// *session.DeletingError) or gone (a *session.NotFoundError) fails the
// migration, and nothing is kept. A copy that failed because the delete
// took a file away fails with that error too, the copy's own wrapped
// after it.
func (m *migration) sessionsKept(p *plan, copyErr error) error {
	if m.opts.copied != nil {
		m.opts.copied()
	}
	if copyErr != nil && ctxDone(copyErr) {
		return copyErr
	}
	err := m.checkSessions(p)
	switch {
	case err == nil:
		return copyErr
	case copyErr != nil:
		return fmt.Errorf("%w; nothing is kept (the copy failed: %w)", err, copyErr)
	}
	return fmt.Errorf("%w; nothing is kept", err)
}

// checkSessions runs sessionKept for every session of p and returns the
// error of the first session, in p's order, that fails it. Each sessions
// directory is listed once, not two lstat calls (and the directory's
// checks) per session: a home of a thousand sessions paid 5 % of the
// migration's processor time for them. The sessions are then checked the
// workers at a time: reading each log's first line one session after
// another took another 3 % while the other processors waited.
func (m *migration) checkSessions(p *plan) error {
	listed := make(map[*safefs.Dir]map[string]fs.FileMode)
	opened := make(map[*safefs.Dir]keptDir)
	defer func() {
		for _, k := range opened {
			k.h.close()
		}
	}()
	var units []*unit
	for i := range p.units {
		u := &p.units[i]
		if u.kind != unitSession {
			continue
		}
		if _, ok := listed[u.p.sessions]; !ok {
			names, err := entryTypes(u.p.sessions)
			if err != nil {
				return err
			}
			listed[u.p.sessions] = names
			k, err := openKeptDir(u.p.sessions)
			if err != nil {
				return err
			}
			opened[u.p.sessions] = k
		}
		units = append(units, u)
	}
	errs := make([]error, len(units))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(m.workers, len(units)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(units) {
					return
				}
				u := units[i]
				if errs[i] = sessionKept(opened[u.p.sessions], listed[u.p.sessions], u.id, u.first); errs[i] != nil {
					next.Store(int64(len(units))) // the others stop
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// ctxDone reports whether err is that of a done context.
func ctxDone(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// entryTypes lists the sessions directory d: each entry's name and type.
func entryTypes(d *safefs.Dir) (map[string]fs.FileMode, error) {
	ents, err := d.ReadDir("")
	if err != nil {
		return nil, readError(d.Path(), err)
	}
	types := make(map[string]fs.FileMode, len(ents))
	for _, e := range ents {
		types[e.Name()] = e.Type()
	}
	return types, nil
}

// keptDir is a source sessions directory held open for the checks of
// its sessions (see checkSessions): [session.CheckKept] reads each log's
// first line relative to it, with one openat of the log's own name
// rather than a walk of its whole path.
type keptDir struct {
	h *dirHandle
}

// openKeptDir opens the anchored sessions directory d for the checks.
func openKeptDir(d *safefs.Dir) (keptDir, error) {
	h, err := openDirHandle(d, "", d.Path())
	if err != nil {
		return keptDir{}, err
	}
	return keptDir{h: h}, nil
}

// Path returns the directory's path, for errors.
func (k keptDir) Path() string { return k.h.path }

// ReadHead returns at most the first max bytes of the regular file name
// in the directory, opened as the copy opens it (see dirHandle.openRead).
func (k keptDir) ReadHead(name string, max int) (_ []byte, err error) {
	f, err := k.h.openRead(name)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	if ok, _, err := f.status(); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("%s is not a regular file", filepath.Join(k.h.path, name))
	}
	b := make([]byte, max)
	n, err := io.ReadFull(f, b)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return b[:n], err
}

// sessionKept returns nil if session id, whose log the copy began with
// the line first, is still in place in the source sessions directory d,
// whose entries' types are types (see entryTypes), and otherwise the
// error that says what became of it (see [session.CheckKept]).
func sessionKept(d keptDir, types map[string]fs.FileMode, id string, first []byte) error {
	err := session.CheckKept(d, types, id, first)
	var de *session.DeletingError
	var nf *session.NotFoundError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &de) && de.Type == 0:
		return fmt.Errorf("migrate: %w; finish it (lite-agent sessions delete %s) and migrate again", err, id)
	case de != nil || errors.As(err, &nf):
		return fmt.Errorf("migrate: %w", err)
	case errors.Is(err, safefs.ErrNotRegular):
		return fmt.Errorf("%w: %w", ErrUnrecognized, err)
	}
	return readError(filepath.Join(d.Path(), id+session.LogSuffix), err)
}

// checkSomethingRead refuses a migration that, with SkipUnreadable, copied
// no record at all and left out records the source codec could not decode:
// that is a wrong source codec or key, not damaged data, and a destination
// holding nothing must not pass for the source's copy. Records left out
// for their shape (a torn line, say) do not count.
func (m *migration) checkSomethingRead() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.undecodable == 0 {
		return nil
	}
	for _, c := range m.rep.Kinds {
		if c.Records > 0 {
			return nil
		}
	}
	return fmt.Errorf("%w: no record could be decoded with the source configuration (%s), %d could not; check its codec and key", ErrUnreadable, describeCodec(m.srcCodec), m.undecodable)
}

// describeCodec names a codec for a message.
func describeCodec(c storage.Codec) string {
	if c == nil {
		return "no codec"
	}
	return "codec " + c.ID()
}

// checkOverlap refuses a destination root that is the source root or lies
// inside it (or the reverse), comparing real paths so that a symlinked
// ancestor cannot hide an overlap.
func (m *migration) checkOverlap() error {
	src, err := realish(m.srcRoot)
	if err != nil {
		return err
	}
	dst, err := realish(m.dstRoot)
	if err != nil {
		return err
	}
	switch {
	case src == dst:
		return fmt.Errorf("%w: %s", ErrSameAsSource, m.dstRoot)
	case within(src, dst):
		return fmt.Errorf("%w: %s is inside %s", ErrInsideSource, m.dstRoot, m.srcRoot)
	case within(dst, src):
		return fmt.Errorf("%w: the source %s is inside the destination %s", ErrInsideSource, m.srcRoot, m.dstRoot)
	}
	return nil
}

// realish returns the real path of p: that of its nearest existing ancestor,
// with the missing components appended.
func realish(p string) (string, error) {
	p = filepath.Clean(p)
	var rest []string
	for cur := p; ; {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			slices.Reverse(rest)
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", (&storage.Error{Op: "resolve", File: cur, Message: "cannot resolve path"}).WithCause(err)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = append(rest, filepath.Base(cur))
		cur = parent
	}
}

// within reports whether child lies strictly inside parent.
func within(parent, child string) bool {
	rel, err := filepath.Rel(parent, child)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// checkSourceRoot checks that the source root exists and is a directory:
// a project directory must not be a symlink; a home may be one, as the
// stores allow.
func (m *migration) checkSourceRoot() error {
	if err := m.checkProjectsDir(m.srcRoot); err != nil {
		return err
	}
	st, err := os.Lstat(m.srcRoot)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s", ErrNoSource, m.srcRoot)
	}
	if err != nil {
		return (&storage.Error{Op: "open", File: m.srcRoot, Message: "cannot inspect the source"}).WithCause(err)
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		if !m.all {
			return fmt.Errorf("%w: %s", ErrSymlink, m.srcRoot)
		}
		if st, err = os.Stat(m.srcRoot); err != nil {
			return (&storage.Error{Op: "open", File: m.srcRoot, Message: "cannot inspect the source"}).WithCause(err)
		}
	}
	if !st.IsDir() {
		return fmt.Errorf("%w: %s is not a directory", ErrUnrecognized, m.srcRoot)
	}
	for _, dir := range []string{m.srcHome, m.srcRoot} {
		if err := CheckComplete(dir); err != nil {
			return fmt.Errorf("the source is not usable: %w", err)
		}
	}
	return nil
}

// checkProjectsDir refuses, for a migration of one project, a
// <home>/projects above the project directory root that is a symlink: the
// home may be one, but nothing below it, as the stores and agents hold. A
// link planted there (a copied home, a shared disk) would take the copy,
// or its source, to wherever it leads.
func (m *migration) checkProjectsDir(root string) error {
	if m.all {
		return nil // root is the home itself
	}
	projects := filepath.Dir(root)
	if st, err := os.Lstat(projects); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%w: %s is a symlink", ErrSymlink, projects)
	}
	return nil
}

// advance adds to the progress counts and reports them if a report is due:
// the last file is done, or ProgressInterval has passed since the last
// report. between is the lock of a worker that has finished a file and not
// begun the next, released before Progress is called; nil mid-file.
func (m *migration) advance(files int, records, bytes int64, between *carriedLock) {
	if m.opts.Progress == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.prog.Files += files
	m.prog.Records += records
	m.prog.Bytes += bytes
	now := time.Now()
	if m.prog.Files < m.prog.TotalFiles && !m.lastReport.IsZero() && now.Sub(m.lastReport) < m.reportEvery {
		return
	}
	m.lastReport = now
	m.prog.Elapsed = now.Sub(m.copyFrom)
	if between != nil {
		// Its record was checked when its copy ended.
		_ = between.release()
	}
	m.opts.Progress(m.prog)
}

// skip records something left out.
func (m *migration) skip(s Skipped) {
	m.mu.Lock()
	m.rep.Skipped = append(m.rep.Skipped, s)
	m.mu.Unlock()
}

// reject leaves out a source entry or record when SkipUnreadable is set
// (returning nil), and otherwise returns err.
func (m *migration) reject(file, record string, err error) error {
	if !m.opts.SkipUnreadable {
		return err
	}
	m.skip(Skipped{File: file, Record: record, Reason: err.Error()})
	return nil
}

// problem records a verification failure.
func (m *migration) problem(file, record, msg string) {
	m.mu.Lock()
	m.rep.Problems = append(m.rep.Problems, Problem{File: file, Record: record, Message: msg})
	m.mu.Unlock()
}

// count adds one file's records to the report.
func (m *migration) count(kind storage.Kind, c Count) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if kind == "" {
		addCount(&m.rep.Config, c)
		return
	}
	cur := m.rep.Kinds[kind]
	addCount(&cur, c)
	m.rep.Kinds[kind] = cur
}

func addCount(dst *Count, c Count) {
	dst.Files += c.Files
	dst.Records += c.Records
	dst.Bytes += c.Bytes
	dst.SourceBytes += c.SourceBytes
	dst.DestinationBytes += c.DestinationBytes
}

// finishReport sorts the lists and sums the totals.
func (m *migration) finishReport() {
	r := &m.rep
	r.Records, r.Bytes = r.Config.Records, r.Config.Bytes
	for _, c := range r.Kinds {
		r.Records += c.Records
		r.Bytes += c.Bytes
	}
	slices.SortFunc(r.Skipped, func(a, b Skipped) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return compareRecords(a.Record, b.Record)
	})
	slices.SortFunc(r.Problems, func(a, b Problem) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return compareRecords(a.Record, b.Record)
	})
}

// compareRecords orders record ids numerically when both are numbers.
func compareRecords(a, b string) int {
	if len(a) != len(b) && isDigits(a) && isDigits(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// coldFlag is a flag that is set once.
type coldFlag struct {
	set atomic.Bool
}

// Load reports whether the flag is set.
func (f *coldFlag) Load() bool { return f.set.Load() }

// Store sets the flag.
func (f *coldFlag) Store() { f.set.Store(true) }
