package liteagent

import (
	"context"
	"sync"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// What a turn writes beside a session's log in the data home (its private
// task list, its context archive) it writes while holding the session's
// lock, once it finds the session's log still there. A delete of the
// session in another process (lite-agent sessions delete) holds that lock
// from its first look to its end and sets the log aside before it removes
// anything else, so such a write either lands before the delete, which
// removes it with the rest, or finds the log gone and fails with the
// session's *session.NotFoundError (or *session.DeletingError), writing
// nothing: a write after the delete never makes the deleted session's
// list or archive again, data no session owns whose id StartSession then
// refuses as taken.

// taskWriter returns the task list that the tools of session sessionID
// (its task tools, and the subagent tool recording its runs) write: the
// list of [Agent.taskStore], whose writes, for a session's private list in
// the data home, are held (see heldList).
func (a *Agent) taskWriter(ctx context.Context, sessionID string) (task.Store, error) {
	st, err := a.taskStore(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	h, ok := a.cp.(session.Holder)
	id := a.listID(sessionID)
	if !ok || a.store != nil || id == a.lay.taskListID {
		// A shared list outlives its sessions. A Store's delete refuses
		// a session leased for a turn, so none goes while its tools run;
		// what is written outside a turn (a background subagent's
		// outcome) is an update, which finds a removed list's task gone.
		return st, nil
	}
	return &heldList{Store: st, a: a, h: h, id: id}, nil
}

// A heldList is the private task list of session id in the data home
// (the list has the session's id), whose writes are held (see above).
type heldList struct {
	task.Store
	a  *Agent
	h  session.Holder
	id string
}

// Create creates the task while the session is held and stored.
func (l *heldList) Create(ctx context.Context, in task.CreateInput) (t task.Task, err error) {
	err = l.held(ctx, func() error {
		t, err = l.Store.Create(ctx, in)
		return err
	})
	return t, err
}

// Update updates task id while the session is held and stored.
func (l *heldList) Update(ctx context.Context, id string, in task.UpdateInput) (t task.Task, err error) {
	err = l.held(ctx, func() error {
		t, err = l.Store.Update(ctx, id, in)
		return err
	})
	return t, err
}

// held runs write with the session held, once it is found stored.
func (l *heldList) held(ctx context.Context, write func() error) error {
	return l.a.whileStored(ctx, l.h, l.id, write)
}

// sessionArchive returns the context archive that session id's turns and
// tools use: the archive of [Agent.archiveFor], which in the data home is
// opened (and made) and used while held (see heldArchive).
func (a *Agent) sessionArchive(ctx context.Context, id string) (archive.Archive, error) {
	h, ok := a.cp.(session.Holder)
	if !ok || a.store != nil || !a.persistent() || storage.ValidateID(id) != nil {
		return a.archiveFor(ctx, id)
	}
	return &heldArchive{a: a, h: h, id: id}, nil
}

// A heldArchive is the context archive of session id in the data home,
// opened at its first use: every use, the opening that makes its
// directory included, is held (see above). Reads are held too, since
// opening makes the directory.
type heldArchive struct {
	a  *Agent
	h  session.Holder
	id string
}

// Put archives content while the session is held and stored.
func (h *heldArchive) Put(ctx context.Context, content string, metadata map[string]any) (en archive.Entry, err error) {
	err = h.held(ctx, func(ar archive.Archive) error {
		en, err = ar.Put(ctx, content, metadata)
		return err
	})
	return en, err
}

// Search searches the archive while the session is held and stored.
func (h *heldArchive) Search(ctx context.Context, q archive.Query) (out string, err error) {
	err = h.held(ctx, func(ar archive.Archive) error {
		out, err = ar.Search(ctx, q)
		return err
	})
	return out, err
}

// Read reads from the archive while the session is held and stored.
func (h *heldArchive) Read(ctx context.Context, req archive.ReadRequest) (out string, err error) {
	err = h.held(ctx, func(ar archive.Archive) error {
		out, err = ar.Read(ctx, req)
		return err
	})
	return out, err
}

// held runs use on the archive, opened, with the session held, once it is
// found stored.
func (h *heldArchive) held(ctx context.Context, use func(archive.Archive) error) error {
	return h.a.whileStored(ctx, h.h, h.id, func() error {
		ar, err := h.a.archiveFor(ctx, h.id)
		if err != nil {
			return err
		}
		return use(ar)
	})
}

// whileStored runs fn holding session id through h, once it finds the
// session's log there (logStored).
func (a *Agent) whileStored(ctx context.Context, h session.Holder, id string, fn func() error) (err error) {
	// A DeleteSession of this process waits for the write, or the write
	// for it (see sessionWrites); another process's waits for the hold.
	defer a.heldWrites.write(id)()
	release, err := h.Hold(ctx, id)
	if err != nil {
		return err
	}
	defer func() {
		// A lock found taken over while held: a delete may have run
		// meanwhile, which the write must not pass for a success beside.
		if rerr := release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	if err := a.logStored(ctx, id); err != nil {
		return err
	}
	// The log found must be of the session the agent knows under id: one
	// deleted and started again by others is not (see
	// [engine.Engine.CheckStored]).
	if err := a.eng.CheckStored(ctx, id); err != nil {
		return err
	}
	if a.heldStored != nil {
		a.heldStored(id)
	}
	return fn()
}

// logStored returns nil when session id has a log: records, or in the data
// home an emptied log file; a *session.NotFoundError when it has none,
// and the store's error (a *session.DeletingError for a delete begun)
// otherwise.
func (a *Agent) logStored(ctx context.Context, id string) error {
	head, err := a.cp.Head(ctx, id)
	switch {
	case err != nil:
		return err
	case head == 0 && !a.emptyLogKept(id):
		return &session.NotFoundError{SessionID: id}
	}
	return nil
}

// sessionWrites keeps held writes (see whileStored) and DeleteSession of
// one session apart within the process. The session's lock keeps out
// other processes only: holds of one process are shared (a
// [session.FileCheckpointer]'s Hold nests), so a DeleteSession ran to
// its end between a write's look at the log and the write, which then
// made the deleted session's data again. Writes of a session share its
// entry; a delete takes it alone, waiting for the writes under way. The
// zero value is ready for use.
type sessionWrites struct {
	mu   sync.Mutex
	byID map[string]*sessionWriteLock
}

// A sessionWriteLock is one session's entry, kept while used.
type sessionWriteLock struct {
	sync.RWMutex
	refs int
}

// write marks a held write of session id under way until the returned
// function is called; it waits while a delete of the session runs.
func (w *sessionWrites) write(id string) (done func()) {
	l := w.ref(id)
	l.RLock()
	return func() {
		l.RUnlock()
		w.unref(id, l)
	}
}

// delete runs a delete of session id alone, once the writes under way
// are done, until the returned function is called.
func (w *sessionWrites) delete(id string) (done func()) {
	l := w.ref(id)
	l.Lock()
	return func() {
		l.Unlock()
		w.unref(id, l)
	}
}

func (w *sessionWrites) ref(id string) *sessionWriteLock {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.byID == nil {
		w.byID = make(map[string]*sessionWriteLock)
	}
	l := w.byID[id]
	if l == nil {
		l = &sessionWriteLock{}
		w.byID[id] = l
	}
	l.refs++
	return l
}

func (w *sessionWrites) unref(id string, l *sessionWriteLock) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if l.refs--; l.refs == 0 {
		delete(w.byID, id)
	}
}
