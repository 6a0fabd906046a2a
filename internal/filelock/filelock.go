// Package filelock implements the cross-process lock the built-in stores use:
// a directory named <target>.lock, created with mkdir, whose modification
// time the holder refreshes while it holds the lock and which any process
// may take over once it has not been refreshed for the stale period.
//
// The scheme is the one used by the TypeScript SDK (the proper-lockfile
// convention), so Go processes and TypeScript SDK processes
// exclude each other, and the retention sweeper can see active locks.
package filelock

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
)

// Suffix is appended to a target's path to name its lock directory.
const Suffix = ".lock"

// IdleName names the directory, one per directory of targets, where a
// released lock directory is parked for the next lock of that directory,
// for locks taken with Options.Park:
// taking a lock then renames it into place (stamped fresh first) and
// releasing renames it back, both with no-replace renames, where creating
// and removing a directory would allocate and free an inode and a block.
// On some file systems (ext4 without a journal, or mounted with discard)
// that costs a tenth of a millisecond to milliseconds per lock, more than a
// small append. The lock itself is unchanged: the directory <target>.lock,
// which the TypeScript SDK's processes create with mkdir and see as usual.
// The parked directory is no lock of any target (no target is named
// ".idle"); its name ends in ".lock" so that every reader of these
// directories, in either implementation, skips it as it skips locks.
// Only one directory is parked at a time: a release that finds one there
// removes its own. Where no-replace renames are not available, nothing is
// ever parked. A process killed in the middle of taking the parked
// directory leaves it under a claim name (.claim-<hex>.lock), and one
// killed while making, releasing or taking over a lock leaves a lock
// directory under .stale-<hex>.lock (see place and Release): hidden names
// ending in ".lock" too, which no lock ever takes again and readers skip
// (empty directories, unless something was put in a lock directory).
const IdleName = ".idle" + Suffix

// DefaultStale is the age after which an unrefreshed lock may be taken over.
const DefaultStale = 10 * time.Second

// DefaultTimeout bounds the wait for a lock when Options.Timeout is zero.
const DefaultTimeout = 30 * time.Second

const lockDirMode = 0o700

// Options tunes a lock. The zero value follows the TypeScript SDK's lock
// directories (stale after 10 s, refreshed every 5 s, retries from 5 ms to
// 100 ms with factor 2) but waits longer: at most 30 s, where the
// TypeScript SDK gives up after 30 retries, about 2.6 s. A busy lock then costs
// a wait, not a failed write; both still exclude each other, as the names
// and the stale and refresh periods are the same.
type Options struct {
	// Stale is how old a lock's mtime must be before others take it over;
	// zero means DefaultStale.
	Stale time.Duration
	// Refresh is how often the holder refreshes the mtime; zero means Stale/2.
	Refresh time.Duration
	// MinWait and MaxWait bound the backoff between attempts; zero means
	// 5 ms and 100 ms.
	MinWait, MaxWait time.Duration
	// Factor is the backoff growth factor; zero means 2.
	Factor float64
	// Timeout bounds the total wait; zero means DefaultTimeout. The wait
	// also ends when the context is done.
	Timeout time.Duration
	// Park makes the lock take its directory's parked lock directory
	// (see IdleName) when there is one, and put it back at release. A
	// lock made by mkdir is parked at release only if its holder asks
	// (Lock.ParkOnRelease), so that a lock for reading leaves the
	// directory as it found it. Locks with and without Park exclude each
	// other all the same.
	Park bool

	hook *stepHook // tests only: see export_test.go
}

// A stepHook is called at named steps of taking, parking and releasing a
// lock, so that a test can stop a process between any two of its system
// calls. It is nil outside tests.
type stepHook struct{ at func(step string) }

func (h *stepHook) step(name string) {
	if h != nil {
		h.at(name)
	}
}

func (o Options) withDefaults() Options {
	if o.Stale <= 0 {
		o.Stale = DefaultStale
	}
	if o.Refresh <= 0 {
		o.Refresh = o.Stale / 2
	}
	if o.MinWait <= 0 {
		o.MinWait = 5 * time.Millisecond
	}
	if o.MaxWait <= 0 {
		o.MaxWait = 100 * time.Millisecond
	}
	if o.MaxWait < o.MinWait {
		o.MaxWait = o.MinWait
	}
	if o.Factor < 1 {
		o.Factor = 2
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return o
}

// A Lock is a held lock. Release it exactly once. On Unix systems a held
// lock keeps its directory open: one file descriptor per lock until
// Release (see heldDir); one taken with AcquireAt keeps the directory it
// is in open too, a second descriptor.
type Lock struct {
	refresh time.Duration
	stale   time.Duration // Options.Stale
	fresh   time.Duration // how old a stamp Move leaves as it is
	park    bool          // Options.Park
	hook    *stepHook
	at      entries // the directory the lock is in: by path, or held open (AcquireAt)

	mu          sync.Mutex  // guards the fields below
	dir         heldDir     // the lock directory, kept open until released
	path        string      // the lock directory's path; Move changes it
	timer       *time.Timer // fires the next refresh; nil once released
	mtime       time.Time   // the mtime this holder last set
	ino         uint64
	compromised error
	released    bool
	parked      bool // the lock directory was the parked one
	parkNew     bool // ParkOnRelease was called
	lookedAgain bool // verifyLocked looked again in vain (see there)
}

// Path returns the lock directory of target: target+".lock", or, when
// that name would not fit in a directory entry (storage.NameMax bytes),
// target with its last extension cut to its first letter and ".lock"
// added: the context archive <id>.context of an id longer than 242
// characters is locked by <id>.c.lock (which the TypeScript reference,
// whose <id>.context.lock cannot be made, never takes). No name a store
// makes in a directory has the stem and the extension's first letter of
// another target there, so the short form is no other target's lock; it
// ends in ".lock", so every reader of a data home skips it as it skips
// locks.
func Path(target string) string {
	dir, base := filepath.Split(target)
	return dir + Name(base)
}

// Name returns the name of the lock directory of the entry named name in
// its directory; see Path.
func Name(name string) string {
	if storage.FitName(name + Suffix) {
		return name + Suffix
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 && i+2 <= len(name) {
		if short := name[:i+2] + Suffix; storage.FitName(short) {
			return short
		}
	}
	return name + Suffix
}

// Acquire takes the lock of target (the directory Path(target), usually
// target+".lock"), by path: each step resolves the lock directory's whole
// path again (see AcquireAt for a lock that stays in the directory it was
// taken in). It waits
// with backoff while another live holder has it, takes over a stale lock, and
// gives up when ctx is done (returning ctx.Err()) or the timeout passes
// (returning a *storage.Error). The parent directory of target must exist.
func Acquire(ctx context.Context, target string, opts Options) (*Lock, error) {
	return acquire(ctx, byPath{}, Path(target), opts)
}

// acquire is Acquire of the lock directory path, looking at, making,
// renaming and removing the entries of its directory through at.
func acquire(ctx context.Context, at entries, path string, opts Options) (*Lock, error) {
	o := opts.withDefaults()
	deadline := time.Now().Add(o.Timeout)
	wait := o.MinWait
	waited := false
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// After a wait, a lock directory is made (or the parked one
		// taken) only once the lock looks gone: making one while the lock
		// is held costs a mkdir and an rmdir for nothing, and taking the
		// parked one takes it, stamps it and puts it back.
		var st entry
		var err error
		if waited {
			st, err = at.describe(path)
		}
		if !waited || err != nil {
			if o.Park {
				if d, st := unpark(at, path, o.hook); st != nil {
					if l := holdIfPlaced(at, path, o, d, st); l != nil {
						l.parked = true
						return l, nil
					}
					continue
				}
			}
			d, mine, err := place(at, path, o.hook)
			if err == nil {
				if l := holdIfPlaced(at, path, o, d, mine); l != nil {
					return l, nil
				}
				continue
			}
			if !errors.Is(err, fs.ErrExist) {
				return nil, lockError(path, "cannot create lock", err)
			}
			st, err = at.describe(path)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				continue // released between our attempt and lstat
			case err != nil:
				return nil, (&storage.Error{Op: "lock", File: path, Message: "cannot inspect lock"}).WithCause(err)
			}
		}
		switch {
		case !st.dir:
			return nil, &storage.Error{Op: "lock", File: path, Message: "lock path is not a directory"}
		case time.Since(st.mtime) > o.Stale:
			d, mine, err := takeOver(at, path, st, o.hook)
			if err != nil {
				return nil, err
			}
			if mine != nil {
				if l := holdIfPlaced(at, path, o, d, mine); l != nil {
					return l, nil
				}
			}
			continue
		}
		if time.Now().After(deadline) {
			return nil, &storage.Error{Op: "lock", File: path, Message: "lock is held by another process"}
		}
		waited = true
		t := time.NewTimer(jitter(wait))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		wait = time.Duration(math.Min(float64(o.MaxWait), float64(wait)*o.Factor))
	}
}

// jitter spreads d over [d/2, d) so that waiters do not retry in step.
func jitter(d time.Duration) time.Duration {
	var b [2]byte
	_, _ = rand.Read(b[:])
	frac := float64(uint16(b[0])<<8|uint16(b[1])) / 65536
	return d/2 + time.Duration(frac*float64(d/2))
}

// takeOver replaces the stale lock it saw (stale) with a lock of its own.
// It makes a fresh lock directory under a unique name and swaps it with
// the lock in one atomic exchange, so that the lock's place is never
// empty, then checks that what it swapped out is the stale lock and not a
// fresh one made in the meantime: the stale one is removed and the caller
// holds the lock (takeOver returns its directory's description); a fresh
// one is swapped back at once and takeOver returns nil, to wait on. Two
// processes taking over at once cannot both get the stale lock, and while
// a fresh lock is swapped out nobody can take its place, which is what
// moving it aside to look at it allowed: a third process locked while the
// fresh holder, which had checked its lock just before, went on writing.
// Its holder may see its lock compromised during the exchange, which is
// safe.
//
// The check compares the stamp too: a parked lock directory (see IdleName)
// keeps its inode from holder to holder, so the inode alone does not tell
// a stale lock from a fresh one made of the same directory.
//
// The unique name is hidden and ends in ".lock", like IdleName: a process
// killed before it removes the directory leaves it behind, and every reader
// of these directories skips such names (a name ending in ".stale-<hex>"
// stopped a migration and showed in listings). Only an empty directory is
// removed: a lock directory that something was put in stays under that
// name, with what it holds, as at Release.
//
// Where exchanges are not available, the lock is moved aside and looked at
// there, and a fresh one given back.
//
// When it holds the lock, takeOver returns its directory open (see
// heldDir) with its description; otherwise no description.
func takeOver(at entries, path string, stale entry, hook *stepHook) (_ heldDir, _ fs.FileInfo, err error) {
	aside := asideName(path)
	if err := at.mkdir(aside); err != nil {
		return heldDir{}, nil, lockError(path, "cannot take over stale lock", err)
	}
	d, mine, err := openDescribedAt(at, aside)
	if err != nil {
		_ = at.removeDir(aside)
		return heldDir{}, nil, lockError(path, "cannot take over stale lock", err)
	}
	held := false
	defer func() {
		if !held {
			d.close()
		}
	}()
	// Waiters that saw the same stale lock all come here at about the
	// same time; the first to swap wins. Looking again just before
	// swapping keeps the others from swapping with the winner's lock:
	// exchanges of several takers that interleave can leave the winner's
	// lock swapped out (lost, which is safe) and a lock nobody holds in
	// place until it is stale.
	if !isStale(at, path, stale) {
		_ = at.removeDir(aside)
		return heldDir{}, nil, nil
	}
	hook.step("takeover:seen")
	err = at.exchange(aside, path)
	if errors.Is(err, errors.ErrUnsupported) {
		_ = at.removeDir(aside)
		return heldDir{}, nil, moveAsideAt(at, path, aside, stale, hook)
	}
	if err != nil {
		_ = at.removeDir(aside)
		if errors.Is(err, fs.ErrNotExist) {
			return heldDir{}, nil, nil // someone else took it over
		}
		return heldDir{}, nil, lockError(path, "cannot take over stale lock", err)
	}
	hook.step("takeover:aside")
	if isStale(at, aside, stale) {
		_ = at.removeDir(aside)
		// Ours is in place, unless another taker's exchange has it out
		// for a moment (and puts it back): hold it as it was made (the
		// exchange keeps its stamp).
		held = true
		return d, mine, nil
	}
	hook.step("takeover:giveback")
	if at.exchange(aside, path) != nil {
		// Our lock is no longer there to swap with (someone removed
		// it): give the fresh lock back if its place is still free;
		// if it is taken, the fresh lock's holder has lost it already.
		if at.renameNoReplace(aside, path) != nil {
			_ = at.removeDir(aside)
		}
		return heldDir{}, nil, nil
	}
	_ = at.removeDir(aside) // ours, empty (or, if others' exchanges interleaved, a lock lost already)
	return heldDir{}, nil, nil
}

// isStale reports whether the lock directory at path is still the stale
// lock it was: the same directory with the same stamp.
func isStale(at entries, path string, stale entry) bool {
	st, err := at.describe(path)
	return err == nil && st.dir && st.same(stale) && st.mtime.Equal(stale.mtime)
}

// moveAside takes over the stale lock at path where exchanges are not
// available: it renames the lock to aside, removes it if it is the stale
// one and gives it back otherwise, unless a new lock took its place.
func moveAside(path, aside string, stale fs.FileInfo, hook *stepHook) error {
	return moveAsideAt(byPath{}, path, aside, entryOf(stale), hook)
}

// moveAsideAt is moveAside, through at.
func moveAsideAt(at entries, path, aside string, stale entry, hook *stepHook) error {
	if err := at.rename(path, aside); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // someone else took it over
		}
		return lockError(path, "cannot take over stale lock", err)
	}
	if isStale(at, aside, stale) {
		_ = at.removeDir(aside)
		return nil
	}
	// The rename must not replace: os.Rename refuses an existing directory
	// only after its own lstat, and a lock made by mkdir between that
	// lstat and the rename would be replaced by the one given back.
	hook.step("takeover:giveback")
	err := at.renameNoReplace(aside, path)
	if errors.Is(err, errors.ErrUnsupported) {
		if _, lerr := at.describe(path); errors.Is(lerr, fs.ErrNotExist) {
			err = at.rename(aside, path)
		}
	}
	if err != nil {
		_ = at.removeDir(aside)
	}
	return nil
}

// place makes a new lock directory at path unless something is there (an
// error matching fs.ErrExist), and returns it open (see openDir) with its
// description, which the holder checks its lock against from then on.
//
// The directory is made under a unique hidden name (see asideName), opened
// there and renamed into place without replacing. Making it at path and
// opening it there would leave a window between the two: a process
// stalled in it for the stale period finds its new lock taken over, and
// would take the taker's directory for its own, so that two processes hold
// the lock and either one's release removes the other's. mkdir sets the
// directory's mtime to now: no need to stamp it again.
//
// Where no-replace renames are not available, the directory is made at
// path, and that window remains.
func place(at entries, path string, hook *stepHook) (heldDir, fs.FileInfo, error) {
	aside := asideName(path)
	if err := at.mkdir(aside); err != nil {
		return heldDir{}, nil, err
	}
	d, st, err := openDescribedAt(at, aside)
	if err != nil {
		_ = at.removeDir(aside)
		return heldDir{}, nil, err
	}
	hook.step("acquire:made")
	err = at.renameNoReplace(aside, path)
	if err == nil {
		hook.step("acquire:placed")
		return d, st, nil
	}
	d.close()
	_ = at.removeDir(aside)
	if !errors.Is(err, errors.ErrUnsupported) {
		return heldDir{}, nil, err
	}
	if err := at.mkdir(path); err != nil {
		return heldDir{}, nil, err
	}
	hook.step("acquire:placed")
	if d, st, err = openDescribedAt(at, path); err != nil {
		_ = at.removeDir(path)
		return heldDir{}, nil, err
	}
	return d, st, nil
}

// openDescribed opens the directory at path to keep (see heldDir) and
// describes it.
func openDescribed(path string) (heldDir, fs.FileInfo, error) {
	return openDescribedAt(byPath{}, path)
}

// openDescribedAt is openDescribed, opening the directory through at.
func openDescribedAt(at entries, path string) (heldDir, fs.FileInfo, error) {
	d, err := at.openDir(path)
	if err != nil {
		return heldDir{}, nil, err
	}
	st, err := d.describe(path)
	if err != nil {
		d.close()
		return heldDir{}, nil, err
	}
	return d, st, nil
}

// holdIfPlaced returns the lock held in the directory this process has
// just placed at path, kept open as d and described by st, or nil (having
// closed d) if the lock is not held: the caller waits for it again.
//
// A directory whose stamp is no longer recent (its process stalled after
// making or stamping it and before placing it) is stamped fresh first: as
// it is, it looks stale to others at once, and would be taken over while
// its holder, which refreshes it only after the refresh period, goes on as
// if it held the lock. The stamp lands on this process's directory, in
// place or not; the lock is held if that directory is in place afterwards,
// as stamped. If it was taken over meanwhile (as stale) or removed, the
// lock is not held.
//
// The directory is not looked at before it is stamped: a late taker of
// the lock it replaced may have it swapped out for a moment, and a process
// that gave up on seeing that left it to be swapped back with nobody
// holding it, blocking the lock until it was stale. Where a stamp lands on
// whatever is at path (see stampsHeld), it is aimed only at the directory
// placed, as placed.
func holdIfPlaced(at entries, path string, o Options, d heldDir, st fs.FileInfo) *Lock {
	if time.Since(st.ModTime()) < min(o.Stale/4, o.Refresh/2) {
		return holdAsAt(at, path, o, d, st)
	}
	if !stampsHeld && !isStale(at, path, entryOf(st)) { // not the directory placed, as placed
		d.close()
		return nil
	}
	cur, err := d.stamp(path)
	if err != nil {
		d.close()
		return nil
	}
	// A taker that saw the old stamp may have this directory swapped out
	// for a moment: seeing the new stamp, it swaps it back, and the look
	// below waits for that (see verifyLocked).
	l := holdAsAt(at, path, o, d, cur)
	l.mu.Lock()
	err = l.verifyLocked()
	l.mu.Unlock()
	if err != nil {
		l.stop()
		return nil
	}
	return l
}

// holdAs returns the lock held in the directory path, kept open as d and
// described by st.
func holdAs(path string, o Options, d heldDir, st fs.FileInfo) *Lock {
	return holdAsAt(byPath{}, path, o, d, st)
}

// holdAsAt is holdAs, for a lock whose directory's entries are looked at
// through at.
func holdAsAt(at entries, path string, o Options, d heldDir, st fs.FileInfo) *Lock {
	l := &Lock{
		at:      at,
		dir:     d,
		park:    o.Park,
		hook:    o.hook,
		path:    path,
		refresh: o.Refresh,
		stale:   o.Stale,
		fresh:   min(o.Stale/4, o.Refresh/2),
		mtime:   st.ModTime(),
		ino:     inode(st),
	}
	// Set the timer under mu: with a short refresh period the first
	// refresh may fire before AfterFunc has even returned.
	l.mu.Lock()
	l.timer = time.AfterFunc(l.refresh, l.keepFresh)
	l.mu.Unlock()
	return l
}

// keepFresh refreshes the lock's mtime and schedules the next refresh, or
// records the lock as compromised if another process removed or replaced
// it. It runs on the timer's goroutine, so a short critical section costs
// no goroutine at all.
func (l *Lock) keepFresh() {
	err := l.touch()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.released {
		return
	}
	if err != nil {
		l.compromised = err
		return
	}
	l.timer.Reset(l.refresh)
}

// touch verifies that the lock is still ours and moves its mtime to now.
func (l *Lock) touch() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.released {
		return nil
	}
	// Where the stamp lands on this holder's directory wherever it is
	// (see stampsHeld), a lock found missing or replaced first is stamped
	// all the same: taken over and replaced (this process stalled past the
	// stale period), the lock in its place keeps its stamp and its holder,
	// and the look after the stamp finds this one's lost. That look comes
	// with a fresh stamp, so it waits out a late taker's look (see
	// verifyLocked), which a look first, with the stamp as old as a
	// refresh finds it, took for a loss.
	//
	// This holder's directory in place with a stamp it did not set is
	// lost at once, as before: another process holds it as its own. One
	// that stamps by path (a TypeScript SDK process, or a Go process where
	// stamps go by path) and stalled between its look and its stamp
	// stamped this lock, and holds it until its own next look; a process
	// that made its lock by mkdir at its path and opened it there (see
	// place) may have opened this one. Stamped over, that stamp no longer
	// shows: both would hold the lock until the other looks, or, two
	// holders of one directory both stamping before they look, for as
	// long as they run.
	if !stampsHeld {
		if err := l.verifyLocked(); err != nil {
			return err
		}
	} else if l.stampedByAnother() {
		return &storage.Error{Op: "lock", File: l.path, Message: "lock was compromised"}
	}
	l.hook.step("touch:due")
	st, err := l.dir.stamp(l.path)
	if err != nil {
		return (&storage.Error{Op: "lock", File: l.path, Message: "lock was compromised"}).WithCause(err)
	}
	l.mtime = st.ModTime()
	return l.verifyLocked()
}

// stampedByAnother reports whether this holder's directory is at the lock
// path with a stamp this holder did not set. l.mu must be held.
func (l *Lock) stampedByAnother() bool {
	st, err := l.at.describe(l.path)
	return err == nil && st.dir && st.ino == l.ino && !st.mtime.Equal(l.mtime)
}

// verifyLocked checks that the lock directory is the one we made and that
// nobody else has stamped it. l.mu must be held.
//
// While this holder's stamp is younger than half the stale period, a lock
// found missing or replaced is looked at again, a few times over about
// 20 ms, before it counts as compromised: nobody takes over a lock that
// recent, but a process that saw the lock before it stale, just before
// this one replaced it, swaps this lock out for a moment to look at it
// and swaps it back (see takeOver). Counted as compromised, that look
// failed the holder's work, and a refresh meeting it left the lock held by
// nobody until it went stale.
func (l *Lock) verifyLocked() error { return l.verifyLockedAt(l.at) }

// verifyLockedAt is verifyLocked, looking at the lock directory through
// at. l.mu must be held.
func (l *Lock) verifyLockedAt(at entries) error {
	for wait := time.Millisecond; ; wait *= 4 {
		if l.mineAt(at, l.path) {
			return nil
		}
		if wait > 16*time.Millisecond || l.lookedAgain || time.Since(l.mtime) >= l.stale/2 {
			// Looked at again once in vain, the lock is not looked at
			// again on later calls: each would hold l.mu for 20 ms.
			l.lookedAgain = l.lookedAgain || wait > time.Millisecond
			return &storage.Error{Op: "lock", File: l.path, Message: "lock was compromised"}
		}
		l.hook.step("verify:again")
		time.Sleep(wait)
	}
}

// Check reports whether the lock is still held: nil, or a *storage.Error
// saying that it was compromised (taken over or removed by someone else).
func (l *Lock) Check() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.compromised != nil {
		return l.compromised
	}
	return l.verifyLocked()
}

// Path returns the lock directory's path.
func (l *Lock) Path() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.path
}

// Move hands the held lock over to target, whose lock directory must be in
// the same directory as this lock's: the lock directory is renamed to
// target's lock path, if no lock is there, and stamped fresh unless its
// last stamp is recent (younger than a quarter of the stale period and half
// the refresh period). The lock then guards target and no longer the old
// one; refreshing, Check and Release follow it. Moving costs a rename
// where releasing one lock and taking the next costs creating and removing
// a directory, which some file systems make expensive.
//
// If target is locked, Move returns a *storage.Error matching fs.ErrExist
// and the lock stays where it was. Where no-replace renames are not
// available (other systems than Linux, or a file system without them) it
// returns one matching errors.ErrUnsupported: release the lock and acquire
// target's instead. A lock found compromised yields a *storage.Error, as
// from Check; the lock is then no longer held anywhere.
func (l *Lock) Move(target string) error {
	return l.move(target, l.at)
}

// entries looks at and renames the entries of a lock's directory: by their
// whole paths (byPath), or relative to an open descriptor of the directory
// (see Lock.MoveAt).
//
// Every path given to its methods is the whole path of an entry of that
// directory (the lock directory, its target, or a hidden name beside it),
// which names it in errors; relative to a descriptor only its last
// component is used.
type entries interface {
	// describe describes the entry path as lstat does, without following
	// a symlink.
	describe(path string) (entry, error)
	// renameNoReplace renames the entry from to to, in the same
	// directory, as renameNoReplace does.
	renameNoReplace(from, to string) error
	// exchange swaps the entries a and b, as exchange does.
	exchange(a, b string) error
	// rename renames the entry from to to, replacing an empty directory
	// there, for systems without no-replace renames.
	rename(from, to string) error
	// mkdir makes the directory path (lockDirMode).
	mkdir(path string) error
	// removeDir removes the empty directory path.
	removeDir(path string) error
	// openDir opens the directory path, not a symlink, to keep (see
	// heldDir).
	openDir(path string) (heldDir, error)
	// close lets go of the directory, once its lock is released.
	close()
}

// entry is what a lock holder looks at in the description of an entry.
type entry struct {
	dir      bool
	dev, ino uint64
	mtime    time.Time
	fi       fs.FileInfo // by path: what sameFile compares
}

// entryOf is the entry fi describes.
func entryOf(fi fs.FileInfo) entry {
	return entry{dir: fi.IsDir(), dev: device(fi), ino: inode(fi), mtime: fi.ModTime(), fi: fi}
}

// same reports whether e and o describe the same file: the same device
// and inode (sameFile's test, where both came from a path).
func (e entry) same(o entry) bool {
	if e.fi != nil && o.fi != nil {
		return sameFile(e.fi, o.fi)
	}
	return e.dev == o.dev && e.ino == o.ino
}

// byPath resolves every entry's whole path.
type byPath struct{}

func (byPath) describe(path string) (entry, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return entry{}, err
	}
	return entryOf(st), nil
}

func (byPath) renameNoReplace(from, to string) error { return renameNoReplace(from, to) }
func (byPath) exchange(a, b string) error            { return exchange(a, b) }
func (byPath) rename(from, to string) error          { return os.Rename(from, to) }
func (byPath) mkdir(path string) error               { return os.Mkdir(path, lockDirMode) }
func (byPath) removeDir(path string) error           { return removeDir(path) }
func (byPath) openDir(path string) (heldDir, error)  { return openDir(path) }
func (byPath) close()                                {}

// mineAt is mine, looking through at.
func (l *Lock) mineAt(at entries, path string) bool {
	e, err := at.describe(path)
	return err == nil && e.dir && e.ino == l.ino && e.mtime.Equal(l.mtime)
}

// move is Move, looking at and renaming the entries of the lock's
// directory through at.
func (l *Lock) move(target string, at entries) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	path := Path(target)
	if l.released {
		return &storage.Error{Op: "lock", File: l.path, Message: "lock was released"}
	}
	if filepath.Dir(path) != filepath.Dir(l.path) {
		return &storage.Error{Op: "lock", File: path, Message: "a lock moves only within its directory"}
	}
	if l.compromised != nil {
		return l.compromised
	}
	if err := l.verifyLockedAt(at); err != nil {
		return err
	}
	l.hook.step("move:verified")
	if err := at.renameNoReplace(l.path, path); err != nil {
		switch {
		case errors.Is(err, fs.ErrExist):
			return (&storage.Error{Op: "lock", File: path, Message: "lock is held by another process"}).WithCause(fs.ErrExist)
		case errors.Is(err, errors.ErrUnsupported):
			return (&storage.Error{Op: "lock", File: path, Message: "cannot move locks here"}).WithCause(errors.ErrUnsupported)
		}
		return (&storage.Error{Op: "lock", File: path, Message: "cannot move lock"}).WithCause(err)
	}
	// What was renamed must be our directory: if another process took
	// over and replaced the lock after verifyLocked looked, the rename
	// moved theirs. Give it back, unstamped, and report ours lost.
	e, err := at.describe(path)
	if err != nil || !e.dir || e.ino != l.ino || !e.mtime.Equal(l.mtime) {
		if err == nil {
			_ = at.renameNoReplace(path, l.path)
		}
		l.compromised = &storage.Error{Op: "lock", File: l.path, Message: "lock was compromised"}
		return l.compromised
	}
	l.path = path
	// The rename kept the mtime of the last stamp. A recent one is left
	// as it is, saving two system calls a move; an older one, which the
	// next refresh might come too late for, is stamped fresh so that
	// nobody takes the moved lock over as stale.
	if time.Since(l.mtime) < l.fresh {
		return nil
	}
	st, err := l.dir.stamp(path)
	if err != nil {
		// Unstamped, the moved lock goes stale at its old stamp's time:
		// it is lost from now on, as a failed refresh counts it.
		l.compromised = (&storage.Error{Op: "lock", File: path, Message: "lock was compromised"}).WithCause(err)
		return l.compromised
	}
	l.mtime = st.ModTime()
	if err := l.verifyLockedAt(at); err != nil {
		return err
	}
	l.timer.Reset(l.refresh)
	return nil
}

// Release stops refreshing and removes the lock directory if it is still
// ours. It returns a *storage.Error if the lock was compromised while held.
// With Options.Park, where it can, Release parks the directory under
// IdleName for the next lock of the same directory instead of removing it.
func (l *Lock) Release() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.released {
		return nil
	}
	l.released = true
	l.timer.Stop() // a refresh already running finds released set
	defer l.closeDir()
	if l.compromised != nil {
		return l.compromised
	}
	if err := l.verifyLocked(); err != nil {
		return err
	}
	l.hook.step("release:verified")
	// The directory leaves the lock's place by a rename to a name only
	// this call knows, and is checked to be ours there before it is
	// parked or removed: a holder stalled for the stale period after the
	// check above finds its lock taken over, and parking or removing by
	// path would take the taker's lock from under it.
	aside := asideName(l.path)
	err := l.at.renameNoReplace(l.path, aside)
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		return l.removeInPlace()
	case errors.Is(err, fs.ErrNotExist):
		return &storage.Error{Op: "lock", File: l.path, Message: "lock was compromised"}
	case err != nil:
		return (&storage.Error{Op: "lock", File: l.path, Message: "cannot release lock"}).WithCause(err)
	}
	l.hook.step("release:aside")
	if !l.mineAt(l.at, aside) {
		return l.giveBack(aside)
	}
	if l.park && (l.parked || l.parkNew && exists(l.at, strings.TrimSuffix(l.path, Suffix))) && park(l.at, aside) {
		l.hook.step("release:parked")
		return nil
	}
	// Not empty (something was put in it, or a directory planted under
	// IdleName was taken as the parked one): it stays set aside under a
	// hidden name that every reader skips, so that the lock is free and
	// nothing in it is lost.
	_ = l.at.removeDir(aside)
	return nil
}

// closeDir closes the lock directory this holder kept open, and lets go
// of the directory it is in (see AcquireAt). l.mu must be held.
func (l *Lock) closeDir() {
	l.dir.close()
	l.at.close()
}

// stop gives up a lock that was never returned to a caller: it stops
// refreshing and closes the directory, leaving it where it is.
func (l *Lock) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.released = true
	l.timer.Stop()
	l.dir.close() // the directory it is in stays: acquire goes on with it
}

// giveBack returns a lock directory that Release moved from the lock's
// place to from, and found not to be its own, to the lock's place: it is
// the lock of a process that took this one over. If the place was taken
// meanwhile, that lock is lost (its holder finds it compromised) and its
// directory, if empty, is removed. It returns the error Release reports.
func (l *Lock) giveBack(from string) error {
	if l.at.renameNoReplace(from, l.path) != nil {
		_ = l.at.removeDir(from)
	}
	return &storage.Error{Op: "lock", File: l.path, Message: "lock was compromised"}
}

// removeInPlace removes the lock directory at its path, where no-replace
// renames are not available: a lock taken over between the check and the
// removal is removed with it.
func (l *Lock) removeInPlace() error {
	err := l.at.removeDir(l.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// Not empty: see Release.
		if l.at.rename(l.path, asideName(l.path)) == nil {
			return nil
		}
		return (&storage.Error{Op: "lock", File: l.path, Message: "cannot release lock"}).WithCause(err)
	}
	return nil
}

// asideName returns a new unique name, hidden and ending in Suffix, in the
// directory of the lock directory path, for a lock directory out of its
// place: a new one before it is placed (see place), a released one before
// it is removed or parked (see Release), a stale one being taken over (see
// takeOver), or one that cannot be removed.
func asideName(path string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return filepath.Join(filepath.Dir(path), ".stale-"+hex.EncodeToString(b[:])+Suffix)
}

// ParkOnRelease asks Release to park the lock directory (see IdleName)
// even if it was made by mkdir, when the lock was taken with Options.Park
// and its target exists at release: a writer calls it, so that the
// directory gains the parked directory its next locks take.
func (l *Lock) ParkOnRelease() {
	l.mu.Lock()
	l.parkNew = true
	l.mu.Unlock()
}

// unpark takes the parked lock directory of path's directory (see
// IdleName) as the lock path, and returns it open (see heldDir) with its
// description as stamped before it was placed (described at path, it could
// be a taker's, as in place). It returns no description when there is none,
// another process takes it at the same moment, path is locked, or renames
// cannot be made without replacing.
//
// The directory is stamped fresh before it appears under path, so that it
// is never seen stale there, but not under IdleName, where another process
// may take it at any moment. It is first claimed under a name only this
// call knows (hidden, ending in ".lock" like IdleName, left behind only by
// a crash at that moment), opened and stamped there, and renamed into
// place.
func unpark(at entries, path string, hook *stepHook) (heldDir, fs.FileInfo) {
	dir := filepath.Dir(path)
	var b [6]byte
	_, _ = rand.Read(b[:])
	claim := filepath.Join(dir, ".claim-"+hex.EncodeToString(b[:])+Suffix)
	if at.renameNoReplace(filepath.Join(dir, IdleName), claim) != nil {
		return heldDir{}, nil
	}
	hook.step("unpark:claimed")
	d, err := at.openDir(claim)
	if err == nil {
		var st fs.FileInfo
		if st, err = d.stamp(claim); err == nil {
			hook.step("unpark:stamped")
			if at.renameNoReplace(claim, path) == nil {
				hook.step("unpark:placed")
				return d, st
			}
		}
		d.close()
	}
	hook.step("unpark:putback")
	// Locked, or not a directory: park it again, or remove it if another
	// was parked meanwhile (only an empty directory goes).
	if park(at, claim) {
		return heldDir{}, nil
	}
	_ = at.removeDir(claim)
	return heldDir{}, nil
}

// exists reports whether something is at path, looking through at.
func exists(at entries, path string) bool {
	_, err := at.describe(path)
	return err == nil
}

// park moves the released lock directory path to its directory's parked
// one (see IdleName), unless one is parked there already. It reports
// whether it did.
func park(at entries, path string) bool {
	return at.renameNoReplace(path, filepath.Join(filepath.Dir(path), IdleName)) == nil
}

// Leftover reports whether name is what an interrupted lock operation
// leaves behind in a directory of targets: a parked directory being
// claimed (".claim-<hex>.lock") or a lock directory set aside
// (".stale-<hex>.lock": one being made, released or taken over), which a
// process killed at that moment never removes. Neither is ever a live lock, so a sweep may remove one once it
// is old; IdleName is not a leftover.
func Leftover(name string) bool {
	for _, prefix := range []string{".claim-", ".stale-"} {
		if hexPart, ok := strings.CutPrefix(name, prefix); ok {
			hexPart, ok = strings.CutSuffix(hexPart, Suffix)
			if !ok || len(hexPart) != 12 {
				return false
			}
			_, err := hex.DecodeString(hexPart)
			return err == nil
		}
	}
	return false
}

// A lockFailure is the cause of a lock that could not be made or taken
// over: the file-system error (errors.As finds its *fs.PathError,
// errors.Is its errno) shown without the system call and the path it
// names, which may be the hidden directory a lock is made under first
// (see asideName), and with what to do about it, when known. The
// *storage.Error it is the cause of names the lock.
type lockFailure struct{ err error }

// Error is the errno's text and what to do about it.
func (e *lockFailure) Error() string {
	msg := e.err.Error()
	var (
		pe *fs.PathError
		le *os.LinkError
		se *os.SyscallError
	)
	switch {
	case errors.As(e.err, &pe):
		msg = pe.Err.Error()
	case errors.As(e.err, &le):
		msg = le.Err.Error()
	case errors.As(e.err, &se):
		msg = se.Err.Error()
	}
	var hint string
	switch {
	case errors.Is(e.err, fs.ErrNotExist):
		hint = "its directory does not exist: create it, or check the path"
	case errors.Is(e.err, syscall.ENOTDIR):
		hint = "a part of its directory's path is not a directory: check the path"
	case errors.Is(e.err, syscall.EROFS):
		hint = "its directory is on a read-only file system: writes need it mounted writable"
	case errors.Is(e.err, fs.ErrPermission):
		hint = "this user may not create entries in its directory: check the directory's owner and mode"
	case errors.Is(e.err, syscall.ENOSPC):
		hint = "the file system is full: free some space"
	}
	if hint != "" {
		msg += " (" + hint + ")"
	}
	return msg
}

// Unwrap returns the file-system error.
func (e *lockFailure) Unwrap() error { return e.err }

// lockError is the *storage.Error of a lock at path that could not be
// made or taken over (message) for err, a file-system error.
func lockError(path, message string, err error) error {
	return (&storage.Error{Op: "lock", File: path, Message: message}).WithCause(&lockFailure{err: err})
}
