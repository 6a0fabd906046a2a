package liteagent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// The parts of a session a fork copies after its log, as
// [ForkError].Part names them.
const (
	ForkPartArchive  = "context archive"
	ForkPartTaskList = "task list"
	// ForkPartMark is the mark a fork keeps on what it copied until its
	// log is written: a sweep removed the copy while the fork was paused,
	// and Err is a *storage.ForkMarkLostError.
	ForkPartMark = "fork mark"
	// ForkPartSource is the session forked: it was deleted, or its
	// delete began, while the fork copied its data, so the copy may lack
	// what the delete had removed. Err matches session.ErrDeleting or
	// session.ErrNotFound.
	ForkPartSource = "session"
	// ForkPartNewSession is the new session: its lease or lock could not
	// be taken, or something of it already exists (Err matches
	// [ErrSessionExists]). Nothing was copied, and nothing removed.
	ForkPartNewSession = "new session"
)

// ErrSessionExists is matched by the Err of a *[ForkError] of Part
// [ForkPartNewSession] when the id the fork was to give its new session is
// taken: the session has a log, is being deleted, or, in the data home,
// has a context archive or a private task list. It is also matched by
// every *[SessionExistsError]: a session [Agent.StartSession] was to start
// empty was taken.
var ErrSessionExists = errors.New("the session already exists")

// A forkHold is what a fork holds of its new session: its lease and its
// lock. Each is released once.
type forkHold struct {
	unlease func()
	unhold  func() error
}

// release lets go of the lock and the lease.
func (h *forkHold) release() {
	if h.unhold != nil {
		// A lock found lost at release: every write of the fork was
		// checked against it while it was still held.
		_ = h.unhold()
		h.unhold = nil
	}
	h.dropLease()
}

// dropLease lets go of the lease alone: a Store's delete refuses a
// leased session, the fork's own lease included.
func (h *forkHold) dropLease() {
	if h != nil && h.unlease != nil {
		h.unlease()
		h.unlease = nil
	}
}

// holdNewSession takes, for a fork of session id, the lease (a
// SessionLeaser's) and the lock (a session.Holder's) of its new session
// newID, checks under them that nothing of newID exists yet, and returns
// them, for the fork to release when it is done. Its errors are *ForkError
// of Part ForkPartNewSession, with nothing done.
func (a *Agent) holdNewSession(ctx context.Context, id, newID string) (*forkHold, error) {
	fail := func(err error) error {
		return &ForkError{SessionID: id, NewID: newID, Part: ForkPartNewSession, Err: err}
	}
	unlease, err := a.leaseSession(ctx, newID)
	if err != nil {
		return nil, fail(err)
	}
	h := &forkHold{unlease: unlease}
	if holder, ok := a.cp.(session.Holder); ok {
		if h.unhold, err = holder.Hold(ctx, newID); err != nil {
			h.release()
			return nil, fail(err)
		}
	}
	if err := a.newSessionFree(ctx, newID); err != nil {
		h.release()
		return nil, fail(err)
	}
	return h, nil
}

// newSessionFree returns nil when nothing of session newID exists: no log
// and no delete of it begun, and in the data home no context archive and
// (unless the agent uses a shared list) no task list named after it.
func (a *Agent) newSessionFree(ctx context.Context, newID string) error {
	if err := a.newLogFree(ctx, newID); err != nil {
		return err
	}
	if a.store != nil {
		return nil
	}
	paths := []string{a.lay.paths.ArchiveDir(newID)}
	if a.lay.taskListID == "" {
		paths = append(paths, a.lay.paths.TaskListDir(newID))
	}
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			return fmt.Errorf("%w: %s exists", ErrSessionExists, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// newLogFree returns nil when session newID has no log and no delete of
// it begun.
func (a *Agent) newLogFree(ctx context.Context, newID string) error {
	head, err := a.cp.Head(ctx, newID)
	switch {
	case errors.Is(err, session.ErrDeleting):
		return fmt.Errorf("%w: %w", ErrSessionExists, err)
	case err != nil:
		return err
	case head > 0:
		return fmt.Errorf("%w: session %s has a log of %d records", ErrSessionExists, newID, head)
	}
	return nil
}

// A ForkError reports a fork that failed to copy Part ([ForkPartArchive]
// or [ForkPartTaskList]) of session SessionID into the new session NewID,
// with Err, or ([ForkPartMark]) whose copy a sweep removed before its log
// was written, or ([ForkPartSource]) whose session was deleted while it
// copied the session's data. What the fork copied into NewID was then removed, so that no
// half-made fork is left, unless CleanupErr says that this failed. With
// [ForkPartNewSession] the new session could not be held or was taken
// (see [ErrSessionExists]): nothing was copied, and nothing removed.
type ForkError struct {
	// SessionID is the session forked.
	SessionID string
	// NewID is the id the fork would have had.
	NewID string
	// Part is what could not be copied: ForkPartArchive or
	// ForkPartTaskList; or ForkPartMark, ForkPartSource or
	// ForkPartNewSession.
	Part string
	// Err is the copy's error.
	Err error
	// CleanupErr is the error removing the partial fork, or nil when it
	// was removed.
	CleanupErr error
}

// Error says what could not be copied and whether the partial fork is
// left.
func (e *ForkError) Error() string {
	msg := "liteagent: fork of session " + e.SessionID + ": copy of its " + e.Part + ": " + e.Err.Error()
	switch e.Part {
	case ForkPartMark:
		msg = "liteagent: fork of session " + e.SessionID + ": its copy was swept before its log was written: " + e.Err.Error()
	case ForkPartSource:
		msg = "liteagent: fork of session " + e.SessionID + ": the session was deleted while its data was copied: " + e.Err.Error()
	case ForkPartNewSession:
		msg = "liteagent: fork of session " + e.SessionID + ": new session " + e.NewID + ": " + e.Err.Error()
	}
	if e.CleanupErr != nil {
		return msg + "; the partial fork " + e.NewID + " could not be removed: " + e.CleanupErr.Error()
	}
	return msg + " (nothing was forked)"
}

// Unwrap returns Err and, when removing the partial fork failed,
// CleanupErr.
func (e *ForkError) Unwrap() []error {
	if e.CleanupErr != nil {
		return []error{e.Err, e.CleanupErr}
	}
	return []error{e.Err}
}

// forkCleanupTimeout bounds the removal of a partial fork.
const forkCleanupTimeout = 30 * time.Second

// forkCopy is what forkData copied, for forkDone to check.
type forkCopy struct {
	// notes is the number of archive notes copied.
	notes int
	// listMarked says that the copied task list holds task.ForkMarker.
	listMarked bool
}

// forkData copies what session id keeps beside its log into session
// newID: its context archive and, when the session has a private task
// list, that list. On failure it removes newID's data (see dropFork; log
// is the fork's log, not yet written) and returns a *ForkError.
func (a *Agent) forkData(ctx context.Context, id, newID string, log []session.Event, h *forkHold) (forkCopy, error) {
	var c forkCopy
	part := ForkPartArchive
	if fm, ok := a.store.(forkMarker); ok && a.mode == externalStore {
		// Until the log is written (forkDone), what the fork copies is
		// marked as a fork's, as a file task list is (forkTasks): a fork
		// killed part-way leaves data the store's sweep can tell apart
		// from a real session's, and remove once old. Nothing is copied
		// yet when the mark fails.
		if err := fm.MarkForking(ctx, a.lay.enc, newID); err != nil {
			return c, &ForkError{SessionID: id, NewID: newID, Part: part, Err: err}
		}
	}
	var err error
	c.notes, err = a.forkArchive(ctx, id, newID)
	if err == nil {
		part = ForkPartTaskList
		c.listMarked, err = a.forkTasks(ctx, id, newID)
	}
	if err == nil {
		return c, nil
	}
	return c, &ForkError{SessionID: id, NewID: newID, Part: part, Err: err, CleanupErr: a.dropFork(ctx, newID, log, h)}
}

// forkSourceKept returns nil when session id, whose data a fork has just
// copied, still has its log: a *session.DeletingError when its delete
// began meanwhile, a *session.NotFoundError when it ended.
func (a *Agent) forkSourceKept(ctx context.Context, id string) error {
	head, err := a.cp.Head(ctx, id)
	if err != nil {
		return err
	}
	if head == 0 {
		return &session.NotFoundError{SessionID: id}
	}
	return nil
}

// dropFork removes what a fork that did not finish copied into session
// newID, and forgets the session. An external Store removes a session's
// data only with its log ([Store].DeleteSession), so when newID has none,
// log (the fork's events) is written first and removed with the rest.
func (a *Agent) dropFork(ctx context.Context, newID string, log []session.Event, h *forkHold) error {
	// A Store's delete refuses a leased session: the fork's lease goes
	// first. The lock of a data home stays until the fork ends: its
	// delete takes it again in this process.
	h.dropLease()
	// The failure may be ctx's: the removal must still run.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), forkCleanupTimeout)
	defer cancel()
	if a.mode == externalStore {
		head, err := a.cp.Head(cctx, newID)
		if err == nil && head == 0 {
			_, err = a.cp.Append(cctx, newID, log, 0)
		}
		if err != nil {
			return fmt.Errorf("the fork's log, needed to remove its copied data, could not be written: %w", err)
		}
	}
	_, remove := a.sessionDeleter(newID)
	err := remove(cctx)
	if errors.Is(err, session.ErrNotFound) && a.mode != externalStore {
		// No log and no archive: the data home's delete then finds no
		// session and removes nothing, but the fork may have copied the
		// task list alone, and newID is the fork's own.
		err = nil
		if a.lay.taskListID == "" {
			_, err = task.DeletePrivateList(cctx, a.lay.paths.TasksDir, newID)
		}
	}
	a.eng.Forget(newID)
	a.mu.Lock()
	delete(a.archives, newID)
	delete(a.tasks, newID)
	a.mu.Unlock()
	return err
}

// forkArchive puts every note of session id's context archive into
// newID's: each is decoded in id's codec context and encoded again in
// newID's, and keeps its ref.
// It returns the number of notes copied.
func (a *Agent) forkArchive(ctx context.Context, id, newID string) (int, error) {
	if a.store == nil && !existsNoFollow(a.lay.paths.ArchiveDir(id)) {
		return 0, nil // nothing archived; opening the archive would create it
	}
	if a.forkArchiveSeen != nil {
		a.forkArchiveSeen()
	}
	src, err := a.sourceArchive(ctx, id)
	if err != nil || src == nil {
		return 0, err
	}
	l, ok := src.(archive.Lister)
	if !ok {
		return 0, fmt.Errorf("the archive (%T) cannot list its entries (it is no archive.Lister)", src)
	}
	dst, err := a.archiveFor(ctx, newID)
	if err != nil {
		return 0, err
	}
	if dst == nil {
		return 0, errors.New("no archive for the new session")
	}
	return archive.Copy(ctx, dst, l)
}

// sourceArchive returns the context archive of session id for a fork to
// copy, or nil when it has none. In the data home the archive is opened
// without being created: one removed since forkArchive saw it (a delete of
// the session ran meanwhile, which forkSourceKept then reports) is no
// archive to copy, and must not come back as an empty directory that no
// session owns.
func (a *Agent) sourceArchive(ctx context.Context, id string) (archive.Archive, error) {
	if a.store != nil || !a.persistent() || storage.ValidateID(id) != nil {
		return a.archiveFor(ctx, id)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if ar, ok := a.archives[id]; ok {
		return ar, nil
	}
	ar, err := archive.OpenFileArchive(a.lay.paths.ArchiveDir(id), archive.Options{Encoding: a.lay.enc, SessionID: id})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	a.archives[id] = ar
	return ar, nil
}

// forkTasks copies session id's private task list into newID's, ids and
// records unchanged. A session that uses a shared list (the agent's
// TaskListID, a subagent's parent's list, or a list marked shared) has no
// private list: nothing is copied and the shared list is not touched. It
// reports whether it marked the copy (a file list) with task.ForkMarker.
func (a *Agent) forkTasks(ctx context.Context, id, newID string) (marked bool, err error) {
	if a.lay.taskListID != "" || a.listID(id) != id || a.listID(newID) != newID {
		return false, nil
	}
	if a.store == nil && task.IsShared(a.lay.paths.TasksDir, id) {
		return false, nil
	}
	src, err := a.taskStore(ctx, id)
	if err != nil {
		return false, err
	}
	dst, err := a.taskStore(ctx, newID)
	if err != nil {
		return false, err
	}
	if fs, ok := dst.(*task.FileStore); ok {
		// Until the log is written (forkDone), the copy is marked as a
		// fork's: one killed part-way leaves a list that verify reports
		// and the cleanup sweep removes, told apart from a real list.
		tasks, err := src.List(ctx)
		if err != nil || len(tasks) == 0 {
			return false, err
		}
		if err := fs.MarkForkingContext(ctx); err != nil {
			return false, err
		}
		marked = true
	}
	_, err = task.Copy(ctx, dst, src)
	return marked, err
}

// forkDone removes the marks of a fork (see forkData and forkTasks) once
// its log is written, and checks that what the fork copied (c) is still
// there. A fork paused, between its copy and its log, for longer than a
// sweep's MaxAge may have had its copy removed as a dead fork's leftover:
// the mark is then gone, or (an archive in the data home, which carries no
// mark) the copied notes are, and forkDone returns the part lost with a
// *storage.ForkMarkLostError. Once the log is written no sweep removes the
// copy, so the checks hold for good. Any other failure to remove a mark is
// returned too: the fork cannot tell that its copy is whole.
func (a *Agent) forkDone(ctx context.Context, newID string, c forkCopy) (string, error) {
	// The fork's ctx may be done by now: the check must still run.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), forkCleanupTimeout)
	defer cancel()
	if fm, ok := a.store.(forkMarker); ok && a.mode == externalStore {
		if err := fm.ClearForking(ctx, a.lay.enc, newID); err != nil {
			return ForkPartMark, err
		}
	}
	if c.listMarked {
		a.mu.Lock()
		st := a.tasks[a.listID(newID)]
		a.mu.Unlock()
		fs, ok := st.(*task.FileStore)
		if !ok {
			return ForkPartTaskList, fmt.Errorf("the copied task list (%T) is no longer the one marked", st)
		}
		if err := fs.ClearForking(ctx); err != nil {
			return ForkPartMark, err
		}
	}
	if a.store == nil && c.notes > 0 {
		if err := a.forkArchiveKept(ctx, newID, c.notes); err != nil {
			return ForkPartMark, err
		}
	}
	return "", nil
}

// forkArchiveKept checks that the context archive a fork copied into the
// data home for session newID still holds the notes notes it copied, under
// the archive's lock, which a sweep removing it holds until it is gone.
func (a *Agent) forkArchiveKept(ctx context.Context, newID string, notes int) error {
	lost := &storage.ForkMarkLostError{SessionID: newID, Where: a.lay.paths.ArchiveDir(newID)}
	if !existsNoFollow(a.lay.paths.ArchiveDir(newID)) {
		return lost
	}
	dst, err := a.archiveFor(ctx, newID)
	if err != nil {
		return err
	}
	l, ok := dst.(archive.Lister)
	if !ok {
		return fmt.Errorf("the archive (%T) cannot list its entries (it is no archive.Lister)", dst)
	}
	got, err := l.Notes(ctx)
	switch {
	case err != nil && !existsNoFollow(a.lay.paths.ArchiveDir(newID)):
		return lost
	case err != nil:
		return err
	case len(got) != notes:
		return lost
	}
	return nil
}

// A forkMarker is a Store that marks the data a fork copies into a new
// session until the session's log is written (store/postgres's; see
// [Store]).
type forkMarker interface {
	MarkForking(ctx context.Context, enc storage.Encoding, sessionID string) error
	ClearForking(ctx context.Context, enc storage.Encoding, sessionID string) error
}
