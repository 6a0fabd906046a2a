package migrate

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
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/filestamp"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/internal/strictjson"
	"github.com/lite-agent/lite-agent-go/storage"
)

// lockName is the lock directory that keeps two migrations out of one
// destination; it sits beside the marker.
const lockName = MarkerName + filelock.Suffix

// lockOptions is the destination lock's tuning: the stores' convention, so a
// killed migration blocks a rerun for ten seconds at most, and a rerun waits
// up to 30 s for a live one before it gives up.
var lockOptions = filelock.Options{}

// marker is the content of the marker file.
type marker struct {
	Version     int       `json:"liteAgentMigration"`
	Source      string    `json:"source"`
	Destination string    `json:"destination"`
	StartedAt   time.Time `json:"startedAt"`
}

// written returns the names a migration writes at the destination root.
func (m *migration) written() []string {
	if !m.all {
		return []string{MarkerName, sessionsName, tasksName, spillName}
	}
	return slices.Concat([]string{MarkerName, projectsName}, configFiles, configDirs)
}

// inspectDestination checks the destination root without changing it. It
// must be missing, an empty directory, or hold only an interrupted migration
// of this source, in which case it reports true and returns the state of
// every file found there (see copyOf): what a rerun may remove.
func (m *migration) inspectDestination(ctx context.Context) (bool, map[string]fileState, error) {
	if err := m.checkProjectsDir(m.dstRoot); err != nil {
		return false, nil, err
	}
	st, err := os.Lstat(m.dstRoot)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil, nil
	case err != nil:
		return false, nil, (&storage.Error{Op: "open", File: m.dstRoot, Message: "cannot inspect the destination"}).WithCause(err)
	case st.Mode()&fs.ModeSymlink != 0:
		return false, nil, fmt.Errorf("%w: the destination %s is a symlink", ErrSymlink, m.dstRoot)
	case !st.IsDir():
		return false, nil, fmt.Errorf("%w: %s is not a directory", ErrDestinationNotEmpty, m.dstRoot)
	}
	// What is in it is looked at through a proven handle (anchored from
	// the home down), never through a link swapped in on its path.
	dst, err := safefs.AnchorExisting(m.dstRoot)
	if err != nil {
		return false, nil, err
	}
	ents, err := dst.ReadDir("")
	if err != nil {
		return false, nil, (&storage.Error{Op: "list", File: m.dstRoot, Message: "cannot list the destination"}).WithCause(err)
	}
	var names []string
	for _, e := range ents {
		// The lock, what a migration killed while it took or released
		// the lock leaves (filelock.Leftover), and the temp file of a
		// marker a migration was killed while writing (markerTemp): no
		// data.
		if e.Name() != lockName && !filelock.Leftover(e.Name()) && !markerTemp(e) {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return false, nil, nil
	}
	if !slices.Contains(names, MarkerName) {
		return false, nil, fmt.Errorf("%w: %s", ErrDestinationNotEmpty, m.dstRoot)
	}
	data, err := readMarker(dst)
	var mk marker
	if err == nil && tornMarker(data) && len(names) == 1 {
		// A marker cut short, and nothing beside it: what an older
		// version killed while it wrote its marker left (see
		// tornMarker). It copied nothing, as the copy begins only once
		// the marker is whole and on disk; a rerun replaces the marker
		// and has nothing to clear.
		return true, map[string]fileState{}, nil
	}
	if err != nil || json.Unmarshal(data, &mk) != nil || mk.Version != 1 {
		return false, nil, fmt.Errorf("%w: %s holds a migration marker that cannot be read; remove the destination by hand", ErrDestinationNotEmpty, m.dstRoot)
	}
	if mk.Source != m.srcRoot {
		return false, nil, fmt.Errorf("%w: %s holds an interrupted migration from another source (%s); remove it by hand", ErrDestinationNotEmpty, m.dstRoot, mk.Source)
	}
	for _, n := range names {
		if !slices.Contains(m.written(), n) {
			return false, nil, fmt.Errorf("%w: %s holds an interrupted migration and %s, which no migration writes", ErrDestinationNotEmpty, m.dstRoot, n)
		}
	}
	checked := map[string]fileState{}
	var src *safefs.Dir // the source root, anchored when first needed
	for _, n := range names {
		if n == MarkerName {
			continue
		}
		if err := m.foreign(ctx, dst, &src, n, checked); err != nil {
			return false, nil, err
		}
	}
	return true, checked, nil
}

// markerMax bounds the marker read: a marker is a few hundred bytes.
const markerMax = 1 << 16

// readMarker reads the marker of the destination d, at most markerMax+1
// bytes of it, through d's proven handle, never following a symlink or
// waiting on a FIFO: anything but a regular file there is an error.
func readMarker(d *safefs.Dir) ([]byte, error) {
	f, err := d.OpenFile(MarkerName, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", f.Name())
	}
	return io.ReadAll(io.LimitReader(f, markerMax+1))
}

// markerOpening is how every marker a migration writes begins (see
// marker): its fields in their order, the version first.
const markerOpening = `{"liteAgentMigration":1,"source":`

// tornMarker reports whether data, the content of a marker file, is a
// marker cut short: empty, zeros (a file whose size reached the disk
// before its data), or the opening of a marker that is not whole JSON,
// cut anywhere, followed by nothing or zeros. Versions before the marker was written
// atomically created the file and then wrote it, so a kill in between
// left it empty; the copy began only once the marker was whole and
// synced, so such a marker never has data beside it of the migration
// that wrote it. Which source that migration had cannot be told.
func tornMarker(data []byte) bool {
	if len(data) > markerMax {
		return false
	}
	return strictjson.CutShort(data, markerOpening)
}

// markerTemp reports whether e is a regular file named as the temp file
// of a marker (see IsMarkerTemp), which a migration killed while it wrote
// the marker leaves.
func markerTemp(e fs.DirEntry) bool {
	return e.Type().IsRegular() && IsMarkerTemp(e.Name())
}

// IsMarkerTemp reports whether name is that of a temp file a migration
// writes its marker (MarkerName) to and a kill can leave behind: the
// temp of safefs's atomic writes (.<marker>.<12 hex>.tmp, see
// safefs.IsTempOf), or that of earlier versions of migrate --from-store,
// which replaced its marker through os.CreateTemp
// (.<marker>.<decimal digits>.tmp). Such a file holds no data of the copy.
func IsMarkerTemp(name string) bool {
	if safefs.IsTempOf(name, MarkerName) {
		return true
	}
	rest, ok := strings.CutPrefix(name, "."+MarkerName+".")
	if !ok {
		return false
	}
	digits, ok := strings.CutSuffix(rest, ".tmp")
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// removeMarkerTemps removes, under the destination lock, the marker's
// temp files that a migration killed while it wrote its marker left in
// the root; none holds data.
func (d *destination) removeMarkerTemps() {
	ents, err := d.dir.ReadDir("")
	if err != nil {
		return
	}
	for _, e := range ents {
		if markerTemp(e) {
			_ = d.dir.Remove(e.Name())
		}
	}
}

// foreignError reports the entry rel of the destination root, which no
// migration of this source wrote: it has no counterpart in the source, or
// why says how it differs from what a migration writes there.
func foreignError(root, rel, why string) error {
	if why == "" {
		return fmt.Errorf("%w: %s holds an interrupted migration and %s, which has no counterpart in the source (a writer of the destination put it there, or the source's file is gone since); move it away by hand", ErrDestinationNotEmpty, root, filepath.Join(root, rel))
	}
	return fmt.Errorf("%w: %s holds an interrupted migration and %s, which %s: a writer of the destination wrote to it after the migration copied it, or the source's file changed since; move it away by hand", ErrDestinationNotEmpty, root, filepath.Join(root, rel), why)
}

// foreign walks the destination entry n (a name of m.written()) and
// returns an error (ErrDestinationNotEmpty) naming the first entry in it
// that is not a directory and that no migration of this source may have
// written: one without a counterpart at the same place in the source,
// which a migration copies to, or one that holds something else than a
// migration writes there (see copyOf). Such an entry belongs to a writer
// of the destination (an agent started before the marker was written, or
// a host using the file stores directly), or to an agent that wrote to
// the migration's copy since. The state of every other file is added to
// checked, under its path relative to the destination root.
func (m *migration) foreign(ctx context.Context, dst *safefs.Dir, src **safefs.Dir, n string, checked map[string]fileState) error {
	root := filepath.Join(m.dstRoot, n)
	st, err := dst.Lstat(n)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // nothing there
	}
	if err == nil && *src == nil {
		*src, err = safefs.AnchorExisting(m.srcRoot)
	}
	// The walk lists the destination, and looks at the source, through
	// their proven handles.
	file := func(rel string) error {
		if st, err := (*src).Lstat(rel); err != nil || st.IsDir() {
			return foreignError(m.dstRoot, rel, "")
		}
		why, state, err := m.copyOf(ctx, dst, *src, rel)
		if err != nil {
			return err
		}
		if why != "" {
			return foreignError(m.dstRoot, rel, why)
		}
		checked[rel] = state
		return nil
	}
	if err == nil {
		err = walkEntries(dst, n, st.IsDir(), nil, file)
	}
	switch {
	case errors.Is(err, ErrDestinationNotEmpty) || ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return err
	case err != nil:
		return (&storage.Error{Op: "list", File: root, Message: "cannot inspect the interrupted migration"}).WithCause(err)
	}
	return nil
}

// walkEntries walks the destination entry rel (a directory when dir)
// through dst's proven handle, depth first: dirFn, when not nil, for each
// directory before what is in it, and fileFn for every other entry. It
// stops at the first error.
func walkEntries(dst *safefs.Dir, rel string, dir bool, dirFn func(rel string), fileFn func(rel string) error) error {
	if !dir {
		return fileFn(rel)
	}
	if dirFn != nil {
		dirFn(rel)
	}
	ents, err := dst.ReadDir(rel)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if err := walkEntries(dst, filepath.Join(rel, e.Name()), e.IsDir(), dirFn, fileFn); err != nil {
			return err
		}
	}
	return nil
}

// clear removes, through dst (never through a symbolic link), the files of
// the destination entry n that inspectDestination found in checked and
// that are still as it found them, then the directories, innermost first,
// each only if empty, so that an interrupted migration of this source is
// cleared and what else is there stays. It returns an error
// (ErrDestinationNotEmpty) naming a file that was not checked or changed
// since, which it leaves; n is then not gone.
func (m *migration) clear(n string, dst *safefs.Dir, checked map[string]fileState) error {
	root := filepath.Join(m.dstRoot, n)
	var dirs []string
	found := ""
	// The walk lists and looks through dst's proven handle, as the
	// removals go: a directory of the copy swapped for a link meanwhile
	// fails the walk instead of leading it elsewhere.
	file := func(rel string) error {
		want, ok := checked[rel]
		var now fileState
		if st, err := dst.Lstat(rel); err == nil {
			now, _ = stateOf(st)
		}
		if !ok || now != want {
			if found == "" {
				found = rel
			}
			return nil
		}
		return dst.Remove(rel)
	}
	st, err := dst.Lstat(n)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // nothing there
	}
	if err == nil {
		err = walkEntries(dst, n, st.IsDir(), func(rel string) { dirs = append(dirs, rel) }, file)
	}
	if err != nil {
		return (&storage.Error{Op: "remove", File: root, Message: "cannot clear the interrupted migration"}).WithCause(err)
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = dst.RemoveEmptyDir(dirs[i]) // only if empty
	}
	if found != "" {
		return foreignError(m.dstRoot, found, "appeared or changed while the interrupted migration was cleared")
	}
	if _, err := dst.Lstat(n); err == nil {
		// Something appeared while it was cleared.
		return foreignError(m.dstRoot, n, "appeared or changed while the interrupted migration was cleared")
	}
	return nil
}

// destination is the destination of a running migration, locked and
// marked incomplete.
type destination struct {
	m       *migration
	dir     *safefs.Dir
	lock    *filelock.Lock
	created []string // directories this run created, outermost first
	removed bool     // abandon removed everything this run wrote
	// parents is the result of the syncs that make the entries of the
	// directories in created durable (see openDestination), sent once
	// they are done; parentsErr keeps it once received.
	parents    chan error
	parentsIn  bool
	parentsErr error
	// marker is the marker file as this run wrote it; ok is false if its
	// state could not be read, and then abandon leaves it.
	marker   fileState
	markerOK bool
}

// openDestination creates the destination root, locks it, clears an
// interrupted migration of the same source and writes the marker. It
// returns once the marker is durable: its contents, and its name in the
// root (both synced by WriteFileExclusive, or by WriteFile's rename over
// the marker an interrupted run left durable). The entries of the directories it created on
// the way to the root (the root's own among them) are synced in the
// background meanwhile; finish waits for them before the marker goes.
//
// The order is what a crash of the machine at any moment needs: nothing
// of the copy may reach the disk without the marker, and the copy creates
// nothing in the root before openDestination returns, so the marker is on
// disk first. A root whose own entry is not durable yet may be lost by a
// crash, with everything in it: that leaves no destination at all, never
// one without its marker. The root's entry must be durable only before
// the marker goes, when the migration says it is done.
func (m *migration) openDestination(ctx context.Context) (_ *destination, err error) {
	d, err := m.lockDestination(ctx)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = d.lock.Release()
			d.waitParents()
			d.removeCreated()
		}
	}()
	m.step("locked")
	// Check again under the lock: another migration may have come and gone.
	incomplete, checked, err := m.inspectDestination(ctx)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(marker{Version: 1, Source: m.srcRoot, Destination: m.dstRoot, StartedAt: time.Now().UTC()})
	if err != nil {
		return nil, err
	}
	if incomplete {
		// The marker stays in place (replaced atomically) while the rest of
		// the interrupted migration is removed, so a crash now still leaves
		// an incomplete destination.
		if err := d.dir.WriteFile(MarkerName, data); err != nil {
			return nil, err
		}
		// Only what a migration of this source may have written goes,
		// as the check above found it: a file that appeared or changed
		// since stays, and the run stops.
		for _, n := range m.written() {
			if n == MarkerName {
				continue
			}
			if err := m.clear(n, d.dir, checked); err != nil {
				return nil, err
			}
		}
	} else if err := d.dir.WriteFileExclusiveSteps(MarkerName, data, func(s string) { m.step("marker " + s) }); err != nil {
		return nil, err
	}
	// What a migration killed while writing its marker left beside it.
	d.removeMarkerTemps()
	if st, err := d.dir.Lstat(MarkerName); err == nil {
		d.marker, d.markerOK = stateOf(st)
	}
	m.step("marked")
	m.dst, m.dstLock = d.dir, d.lock
	m.flush = newFlusher(d.dir.Real(), m.opts)
	return d, nil
}

// lockDestination creates the destination root and locks it. Another
// migration to the same destination that made the root may remove it
// while this one waits for its lock: its source was refused (the plan
// runs while the destination is opened) or its copy failed, and it
// removes the directories it made once it released the lock. The lock
// then cannot be made in the anchored root, or the root's parents go
// while they are made again, and the root is anchored again (up to
// lockAttempts times) instead of failing as if the destination were
// still being written.
func (m *migration) lockDestination(ctx context.Context) (*destination, error) {
	for attempt := 1; ; attempt++ {
		d := &destination{m: m, created: safefs.MissingDirs(m.dstRoot), parents: make(chan error, 1)}
		dir, syncParents, err := safefs.AnchorUnsynced(m.dstRoot)
		if err != nil {
			d.parents <- nil
			d.removeCreated()
			if attempt < lockAttempts && ctx.Err() == nil && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, err
		}
		d.dir = dir
		go func() { d.parents <- syncParents() }()
		m.step("anchored")
		if d.lock, err = d.dir.Lock(ctx, MarkerName, lockOptions); err == nil {
			return d, nil
		}
		gone := ctx.Err() == nil && d.dir.Check() != nil
		_ = d.waitParents()
		d.removeCreated()
		if gone && attempt < lockAttempts {
			continue
		}
		var se *storage.Error
		if errors.As(err, &se) && se.Op == "lock" {
			return nil, fmt.Errorf("another migration is writing %s: %w", m.dstRoot, err)
		}
		return nil, err
	}
}

// lockAttempts bounds how many times lockDestination anchors the root.
const lockAttempts = 5

// waitParents waits for the syncs of the created directories' entries
// that openDestination started and returns their error.
func (d *destination) waitParents() error {
	if !d.parentsIn {
		d.parentsErr, d.parentsIn = <-d.parents, true
		d.m.step("parents synced")
	}
	return d.parentsErr
}

// finish makes the destination durable and, when it verified, removes the
// marker; a destination that failed verification stays marked incomplete.
func (d *destination) finish(ctx context.Context, verified bool) error {
	if err := ctx.Err(); err != nil {
		d.m.flush.abort()
		d.abandon()
		return err
	}
	var err error
	if d.m.flush != nil {
		err = d.m.flush.final()
		d.m.flush = nil
	} else {
		err = syncTree(d.dir.Real())
	}
	if err == nil {
		// The root's entry, and those of the directories above it that
		// this run created: without them the copy may be lost whole.
		err = d.waitParents()
	}
	if err != nil {
		d.abandon()
		return err
	}
	if !verified {
		return nil
	}
	if err := d.lock.Check(); err != nil {
		return fmt.Errorf("the destination lock was lost; %s stays marked incomplete: %w", d.m.dstRoot, err)
	}
	d.m.step("unmarking")
	if err := d.dir.Remove(MarkerName); err != nil {
		return err
	}
	return syncDir(d.dir.Real())
}

// flushEvery is how many bytes are written to the destination between two
// syncs in the background. Each sync costs more than its own work: the
// goroutine blocked in it keeps its Go processor until the runtime's
// monitor takes it back, up to 10 ms later, while workers wait to run.
// Each byte left for the final sync costs both processors waiting. With
// 8 MiB, a traced 45 MiB migration lost about 110 ms of processor time to
// the first; with 16 and 24 MiB, 80-95 and 45 ms, with 5-25 ms more at the
// end; without background syncs, 90 ms at the end. 16 MiB suits both
// slower disks and larger migrations.
const flushEvery = 16 << 20

// flusher syncs the destination's file system in the background while the
// copy writes it, one sync at a time, each after another flushEvery bytes
// were written, so that the sync that must come before the marker is removed
// finds little left to write and the disk works while the processors do.
//
// Every sync, the final one included, goes through one descriptor of the
// destination root opened before the first write: Linux reports a
// writeback error to a descriptor only if it was opened before the error,
// and only once, so the flusher keeps the first error any sync saw and
// the final sync returns it. A nil *flusher does nothing.
type flusher struct {
	root    *os.File
	every   int64                        // flushEvery, or a test's interval
	hook    func(n int, err error) error // Options.syncHook
	calls   int                          // syncs so far, under mu
	written atomic.Int64
	busy    atomic.Bool
	wg      sync.WaitGroup
	last    chan struct{} // closed when the sync begin started is over; nil before

	mu  sync.Mutex
	err error // the first error a sync reported
}

// newFlusher returns the flusher of the destination root, or nil where a
// sync is not cheap to repeat or the root cannot be opened (the final
// sync then reports the problem).
func newFlusher(root string, o Options) *flusher {
	if !syncsInBackground {
		return nil
	}
	f, err := os.Open(root)
	if err != nil {
		return nil
	}
	fl := &flusher{root: f, every: flushEvery, hook: o.syncHook}
	if o.flushEvery > 0 {
		fl.every = o.flushEvery
	}
	return fl
}

// wrote counts n bytes written and starts a sync when another flushEvery
// bytes were written and no sync is running.
func (f *flusher) wrote(n int64) {
	if f == nil {
		return
	}
	after := f.written.Add(n)
	if after/f.every != (after-n)/f.every && f.busy.CompareAndSwap(false, true) {
		f.wg.Go(func() {
			defer f.busy.Store(false)
			f.sync()
		})
	}
}

// sync syncs the file system through the root's descriptor and keeps the
// first error.
func (f *flusher) sync() {
	err := syncFile(f.root)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.hook != nil {
		err = f.hook(f.calls, err)
	}
	if f.err == nil {
		f.err = err
	}
}

// wait waits for a sync that is running.
func (f *flusher) wait() {
	if f != nil {
		f.wg.Wait()
	}
}

// begin starts the last sync in the background, once the copy has
// written everything it writes before the marker goes: the disk then
// writes back while the last checks read the source (see sessionsKept),
// instead of after them. final waits for it. Nothing may be written to the
// destination between begin and final.
func (f *flusher) begin() {
	if f == nil || f.last != nil {
		return
	}
	f.last = make(chan struct{})
	go func() {
		defer close(f.last)
		f.wait()
		f.sync()
	}()
}

// abort waits for a running sync and closes the descriptor, for a copy
// that failed.
func (f *flusher) abort() {
	if f != nil {
		f.wait()
		if f.last != nil {
			<-f.last
		}
		_ = f.root.Close()
	}
}

// final syncs once more after any running sync (the one begin started, if
// it was called) and returns the first error any sync reported; it closes
// the descriptor.
func (f *flusher) final() error {
	f.begin()
	<-f.last
	_ = f.root.Close()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// syncDir makes the entries of dir durable.
func syncDir(dir string) error {
	if err := safefs.SyncDir(dir); err != nil {
		return (&storage.Error{Op: "sync", File: dir, Message: "cannot sync destination"}).WithCause(err)
	}
	return nil
}

// abandon removes what this run wrote after a failure, the marker last,
// and nothing else (see removeMade). If anything of it cannot be removed,
// the marker stays. The removals are made durable (a sync of the
// destination's file system) before the marker goes, and the marker's
// removal after: a crash that kept the marker's removal but lost some of
// the others (nothing orders their writeback otherwise, as on ext4
// without a journal) would leave a destination without its marker holding
// part of a copy, which CheckComplete takes for a complete one. If that
// sync fails, the marker stays. A run that lost the destination lock (it was paused
// past the stale period, say, and a rerun took the lock over) removes
// nothing: the destination is the rerun's, which cleared what this run
// wrote, made its directories again and replaced the marker, and removing
// the marker or an empty directory the rerun is about to fill would pass
// its unfinished copy off as a finished one, or break it. The marker goes
// only if it is still the one this run wrote.
func (d *destination) abandon() {
	if d.lock.Check() != nil {
		return
	}
	ok, made := d.m.removeMade()
	if !ok || !d.markerOK || d.lock.Check() != nil {
		return
	}
	// The sync may take long: a rerun that took the lock over meanwhile
	// owns the destination, and its marker stays.
	if made && (d.m.syncRemovals(d.dir.Real()) != nil || d.lock.Check() != nil) {
		return
	}
	if st, err := d.dir.Lstat(MarkerName); err != nil {
		return
	} else if now, _ := stateOf(st); now.Dev != d.marker.Dev || now.Ino != d.marker.Ino {
		return
	}
	if d.dir.Remove(MarkerName) == nil {
		d.removed = true
		// Not durable, the removal may be undone by a crash, which leaves
		// the marker on an emptied destination: incomplete, as it is.
		_ = syncDir(d.dir.Real())
	}
}

// syncRemovals makes what removeMade removed under the destination root
// durable (see abandon).
func (m *migration) syncRemovals(root string) error {
	if m.opts.removalsSynced != nil {
		m.opts.removalsSynced()
	}
	return syncTree(root)
}

// release releases the lock and, after abandon removed everything, the
// directories this run created.
func (d *destination) release() error {
	_ = d.waitParents() // a failure was reported by finish, or no longer matters
	err := d.lock.Release()
	if d.removed {
		d.removeCreated()
	}
	return err
}

// removeCreated removes the directories this run created, innermost first,
// as long as they are empty, each through a handle on its parent (see
// safefs.RemoveEmptyDirs), never by its path.
func (d *destination) removeCreated() { safefs.RemoveEmptyDirs(d.created) }

// destFile is a file being written to the destination. A nil *destFile (in
// a dry run) accepts and discards everything.
type destFile struct {
	m    *migration
	f    *fdFile
	path string // for errors: under the destination root as given
	rel  string
	// kept is set once the file's state is recorded for removeMade (see
	// remember): when it is finished, or else when it is closed.
	kept bool
	// byName is set when the file, once closed, is to be stamped by its
	// name (see setTime) before it is settled: the state close records
	// is then not the one this run leaves, should the settling fail.
	byName bool
}

// stillHeld returns an error if the destination lock was lost: a rerun
// took it over (this run was paused past the stale period, say), and the
// destination, cleared and being written again, is the rerun's. Nothing is
// created in it after that.
func (m *migration) stillHeld(path string) error {
	if m.dstLock == nil {
		return nil
	}
	if err := m.dstLock.Check(); err != nil {
		return fmt.Errorf("the destination lock was lost, %s is not written: %w", path, err)
	}
	return nil
}

// dstDir opens the destination directory rel (relative to the
// destination root) through the anchored root's proven handle.
func (m *migration) dstDir(rel string) (*dirHandle, error) {
	return openDirHandle(m.dst, rel, filepath.Join(m.dstRoot, rel))
}

// createAt creates the destination file rel, named name in the open
// directory dir, like create. In a dry run (dir nil) it returns nil.
func (m *migration) createAt(dir *dirHandle, rel, name string) (*destFile, error) {
	if m.dst == nil || dir == nil {
		return nil, nil
	}
	path := filepath.Join(m.dstRoot, rel)
	if err := m.stillHeld(path); err != nil {
		return nil, err
	}
	f, err := dir.create(name)
	if err != nil {
		return nil, writeError(path, err)
	}
	return &destFile{m: m, f: f, path: path, rel: rel}, nil
}

// migration returns the migration of d, or nil for a nil d.
func (d *destFile) migration() *migration {
	if d == nil {
		return nil
	}
	return d.m
}

// write appends b to the file.
func (d *destFile) write(b []byte) error {
	if d == nil {
		return nil
	}
	if d.m.opts.failWrite != nil {
		if err := d.m.opts.failWrite(d.rel); err != nil {
			return writeError(d.path, err)
		}
	}
	if d.m.opts.tamperWrite != nil {
		b = d.m.opts.tamperWrite(d.rel, bytes.Clone(b))
	}
	if _, err := d.f.Write(b); err != nil {
		return writeError(d.path, err)
	}
	d.m.flush.wrote(int64(len(b)))
	return nil
}

// readAll returns the whole file, for verification.
func (d *destFile) readAll() ([]byte, error) {
	b, err := d.f.readAll()
	if err != nil {
		return nil, readError(d.path, err)
	}
	return b, nil
}

// close closes the file. A file not finished (see finishAt) is recorded
// for removeMade first, as it is: the copy failed, and removeMade removes
// it if it is still that file.
func (d *destFile) close() error {
	if d == nil || d.f == nil {
		return nil
	}
	f := d.f
	d.f = nil
	if !d.kept {
		d.kept = true
		if st, err := f.stamp(); err == nil {
			d.m.remember(d.rel, st, false, !d.byName)
		} // else abandon leaves it: never remove what is not known to be ours
	}
	if err := f.Close(); err != nil {
		return writeError(d.path, err)
	}
	return nil
}

// finishAt ends the file, named name in the open directory dir, once
// everything is written and read back: it gives the file the modification
// (and access) time mtime, the source's, records the file as finished for
// removeMade (see settleAt) and closes it. Where the system sets the times
// of an open file (Linux), both go through the descriptor: one futimens
// and one fstat, where stamping and settling by name (see settleAt) cost a
// lookup of the name each, and the state recorded when the file was
// created (its device and inode) comes from the same fstat, so that the
// creation costs none. The file is this run's whatever happens to its
// name meanwhile; removeMade looks at the name, and removes only the file
// recorded. In a dry run (d nil) it does nothing.
func (d *destFile) finishAt(dir *dirHandle, name string, mtime time.Time) error {
	if d == nil {
		return nil
	}
	if stampsOpenFiles {
		st, err := d.f.touch(mtime)
		if err != nil {
			return timeError(d.path, err)
		}
		d.kept = true
		d.m.remember(d.rel, st, true, true)
		return d.close()
	}
	d.byName = true
	if err := d.close(); err != nil {
		return err
	}
	if err := dir.setTime(name, d.path, mtime); err != nil {
		return err
	}
	d.m.settleAt(dir, d.rel, name)
	return nil
}

// writeFile creates rel holding data, with the modification time mtime
// (the source's), and returns what reading it back gives (nil in a dry
// run). The file is created, stamped and settled relative to its
// directory, opened through the destination's proven handle (see
// writeFileAt), never by its path.
func (m *migration) writeFile(rel string, data []byte, mtime time.Time) ([]byte, error) {
	if m.dst == nil {
		return nil, nil
	}
	dir, err := m.dstDir(filepath.Dir(rel))
	if err != nil {
		return nil, err
	}
	defer dir.close()
	return m.writeFileAt(dir, rel, filepath.Base(rel), data, mtime)
}

// writeFileAt is writeFile for the file rel named name in the open
// directory dir (nil in a dry run).
func (m *migration) writeFileAt(dir *dirHandle, rel, name string, data []byte, mtime time.Time) ([]byte, error) {
	f, err := m.createAt(dir, rel, name)
	if err != nil || f == nil {
		return nil, err
	}
	defer f.close()
	if err := f.write(data); err != nil {
		return nil, err
	}
	back, err := f.readAll()
	if err != nil {
		return nil, err
	}
	return back, f.finishAt(dir, name, mtime)
}

// setTime gives the destination file or directory rel the modification
// (and access) time mtime, as a copy keeps its source's: listing sessions
// by time, resuming the latest and cleanup by age see the data's times, not
// the migration's. It does not follow a symlink. In a dry run it does
// nothing.
func (m *migration) setTime(rel string, mtime time.Time) error {
	if m.dst == nil {
		return nil
	}
	dir, err := m.dstDir(filepath.Dir(rel))
	if err != nil {
		return err
	}
	defer dir.close()
	return dir.setTime(filepath.Base(rel), filepath.Join(m.dstRoot, rel), mtime)
}

func timeError(path string, err error) error {
	if err == nil {
		return nil
	}
	return (&storage.Error{Op: "write", File: path, Message: "cannot set the modification time"}).WithCause(err)
}

func writeError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("%w: %s", ErrSymlink, path)
	}
	return (&storage.Error{Op: "write", File: path, Message: "cannot write file"}).WithCause(err)
}

// mkdir creates the directory rel of the destination, and its missing
// parents, through the destination's proven handle (see
// safefs.Dir.MkdirAll), never through a link.
func (m *migration) mkdir(rel string) error {
	if m.dst == nil {
		return nil
	}
	p := filepath.Join(m.dst.Real(), rel)
	if err := m.stillHeld(p); err != nil {
		return err
	}
	made, err := m.dst.MkdirAll(rel)
	m.mu.Lock()
	m.madeDirs = append(m.madeDirs, made...)
	m.mu.Unlock()
	var se *storage.Error
	switch {
	case errors.As(err, &se):
		return err
	case err != nil:
		return (&storage.Error{Op: "write", File: p, Message: "cannot create directory"}).WithCause(err)
	}
	return nil
}

// madeFile is a file a migration created at its destination: rel, which
// was the file dev/ino, and once the migration finished it (settled), had
// the size, modification and change times recorded.
type madeFile struct {
	rel     string
	made    filestamp.Stamp // as created: its device and inode
	settled bool
	final   filestamp.Stamp // as finished, once settled
	// exact says that made is the whole state (size, modification and
	// change times) this run left the file in: closed unfinished, it is
	// this run's only while it is still in that state, as a settled file
	// is only while it is in its final one.
	exact bool
}

// settleAt records the file rel, named name in the open directory dir,
// that this run created, and has finished writing and stamping, as it is
// now: removeMade then removes it only if it is still that file with
// those times. An inode number alone does not tell: once an agent renames
// a file of its own over rel, the number is free, and the next file made
// (the agent's next replacement) may get it. The change time moves with
// every write, rename onto the inode and stamp, so a reused number or an
// agent's append shows there. It costs one stat of name relative to the
// directory, the one the file was created in.
func (m *migration) settleAt(dir *dirHandle, rel, name string) {
	if m.dst == nil || dir == nil {
		return
	}
	now, err := dir.stamp(name)
	if err != nil {
		return // then removeMade goes by the inode alone
	}
	m.settled(rel, now)
}

// settled records now, the state of the file at rel (its device and
// inode, size, modification and change times), for the file this run
// created there, if it is that file (see settleAt).
func (m *migration) settled(rel string, now filestamp.Stamp) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.made) - 1; i >= 0; i-- {
		f := &m.made[i]
		if f.rel != rel {
			continue
		}
		if f.made.Dev == now.Dev && f.made.Ino == now.Ino {
			f.settled, f.final = true, now
		}
		return
	}
}

// remember records that this run created the destination file rel, whose
// state (its device and inode at least) is st, for abandon; finished says
// that the file is finished, st its state then (see settleAt), and exact
// that st is the whole state this run leaves the file in even if it is
// never settled (a file closed unfinished, or finished and stamped through
// its descriptor).
func (m *migration) remember(rel string, st filestamp.Stamp, finished, exact bool) {
	f := madeFile{rel: rel, made: st, exact: exact}
	if finished {
		f.settled, f.final = true, st
	}
	m.mu.Lock()
	m.made = append(m.made, f)
	m.mu.Unlock()
}

// removeMade removes the files this run created that are still there as
// it left them (the same file, not written, replaced or stamped since it
// was finished: see settleAt), then the directories it made, innermost
// first, each only if empty: an agent of the destination started before
// the marker was written may have put files there, and they stay. It
// reports whether every file of this run went, and whether this run made
// anything (what it removed then needs a sync to be durable).
func (m *migration) removeMade() (ok, anything bool) {
	m.mu.Lock()
	made, dirs := slices.Clone(m.made), slices.Clone(m.madeDirs)
	m.mu.Unlock()
	ok, anything = true, len(made) > 0 || len(dirs) > 0
	for i := len(made) - 1; i >= 0; i-- {
		f := made[i]
		st, err := m.dst.Lstat(f.rel)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			ok = false
			continue
		}
		// Where the system tells no identity (Windows: device and inode
		// are zero), only a settled file still as it was finished is
		// known to be this run's.
		now := filestamp.Of(st)
		known := f.made.Dev != 0 || f.made.Ino != 0 || f.settled
		if !known || now.Dev != f.made.Dev || now.Ino != f.made.Ino || f.settled && now != f.final ||
			!f.settled && f.exact && now != f.made {
			continue // replaced or written since: not this run's file any more
		}
		if m.dst.Remove(f.rel) != nil {
			ok = false
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = m.dst.RemoveEmptyDir(dirs[i]) // only if empty, and never a file put there since
	}
	return ok, anything
}
