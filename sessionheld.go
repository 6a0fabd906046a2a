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
// refuses as taken. The session found must also be the one the agent
// knows under the id (see sameSession): one deleted and
// started again by another writer fails the write with a
// *session.ReplacedError, and nothing goes into the other writer's list or
// archive (a background subagent finishing after the replacement, say).

// taskWriter returns the task list that the tools of session sessionID
// (its task tools, and the subagent tool recording its runs) write: the
// list of [Agent.taskStore], whose writes, for a session's private list,
// are checked (see heldList).
func (a *Agent) taskWriter(ctx context.Context, sessionID string) (task.Store, error) {
	st, err := a.taskStore(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	id := a.listID(sessionID)
	if !a.persistent() || id == a.lay.taskListID {
		// A shared list outlives its sessions and belongs to none.
		return st, nil
	}
	if h, ok := a.cp.(session.Holder); ok && a.store == nil {
		return &heldList{st: st, write: func(ctx context.Context, fn func() error) error {
			return a.whileStored(ctx, h, id, fn)
		}}, nil
	}
	return &heldList{st: st, write: a.storeWrite(id)}, nil
}

// storeWrite returns how a write beside session id's log (its private
// task list, its context archive) is made through a Store. A Store's
// delete refuses a session leased, so none goes while the write is
// checked and made under the session's lease: a turn's, shared, or taken
// for the write (one outside a turn, a background subagent's outcome). A
// session replaced before is told by its first record, read under the
// lease. Another holder's lease fails the write with its error
// (session.ErrLeased); a Store that leases nothing gets the check just
// before the write. The lease is shared by the agent's own users of the
// session: a DeleteSession of this process waits for the write, or the
// write for it, as in the data home (see sessionWrites).
func (a *Agent) storeWrite(id string) func(ctx context.Context, fn func() error) error {
	return func(ctx context.Context, fn func() error) error {
		defer a.heldWrites.write(id)()
		release, err := a.leaseSession(ctx, id)
		if err != nil {
			return err
		}
		defer release()
		if err := a.sameSession(ctx, id); err != nil {
			return err
		}
		if a.heldStored != nil {
			a.heldStored(id)
		}
		return fn()
	}
}

// A heldList is the private task list of a session (the list has the
// session's id), whose writes run through write: in the data home held
// and once the session is found stored, and the session's own (see
// whileStored); through a Store once it is found the session's own.
// Every method of [task.Store] is spelled out, so that one added to it
// does not pass through unchecked: those that write (Create, Update) run
// through write, the others (Get, List, Render) read and make nothing.
// It is no [task.Importer]: nothing imports into a session's own list
// through it.
type heldList struct {
	st    task.Store
	write func(ctx context.Context, fn func() error) error
}

var _ task.Store = (*heldList)(nil)

// Create creates the task through write.
func (l *heldList) Create(ctx context.Context, in task.CreateInput) (t task.Task, err error) {
	err = l.write(ctx, func() error {
		t, err = l.st.Create(ctx, in)
		return err
	})
	return t, err
}

// Update updates task id through write.
func (l *heldList) Update(ctx context.Context, id string, in task.UpdateInput) (t task.Task, err error) {
	err = l.write(ctx, func() error {
		t, err = l.st.Update(ctx, id, in)
		return err
	})
	return t, err
}

// Get reads task id.
func (l *heldList) Get(ctx context.Context, id string) (task.Task, bool, error) {
	return l.st.Get(ctx, id)
}

// List reads every task.
func (l *heldList) List(ctx context.Context) ([]task.Task, error) { return l.st.List(ctx) }

// Render renders the list.
func (l *heldList) Render(ctx context.Context, opts task.RenderOptions) (string, error) {
	return l.st.Render(ctx, opts)
}

// sessionArchive returns the context archive that session id's turns and
// tools use: the archive of [Agent.archiveFor], which in the data home is
// opened (and made) and used while held (see heldArchive).
func (a *Agent) sessionArchive(ctx context.Context, id string) (archive.Archive, error) {
	if a.store != nil && a.persistent() {
		ar, err := a.archiveFor(ctx, id)
		if err != nil || ar == nil {
			return ar, err
		}
		return &storeArchive{Archive: ar, write: a.storeWrite(id)}, nil
	}
	h, ok := a.cp.(session.Holder)
	if !ok || !a.persistent() || storage.ValidateID(id) != nil {
		return a.archiveFor(ctx, id)
	}
	return &heldArchive{a: a, h: h, id: id}, nil
}

// A storeArchive is the context archive of a session kept by a Store,
// whose notes are put through write (see storeWrite): once the session is
// found the agent's own, under its lease where the Store leases. Search
// and Read only read.
type storeArchive struct {
	archive.Archive
	write func(ctx context.Context, fn func() error) error
}

// Put archives content through write.
func (s *storeArchive) Put(ctx context.Context, content string, metadata map[string]any) (en archive.Entry, err error) {
	err = s.write(ctx, func() error {
		en, err = s.Archive.Put(ctx, content, metadata)
		return err
	})
	return en, err
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
// session's log there (logStored) and finds it the session the agent knows
// under id (a *session.ReplacedError otherwise: deleted and started again
// by another writer, whose session fn must not write into).
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
	if err := a.sameSession(ctx, id); err != nil {
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

// sessionWrites keeps held writes (see whileStored, and a Store's in
// taskWriter) and DeleteSession of one session apart within the process.
// The session's lock or lease keeps out other processes only: holds of
// one process are shared (a [session.FileCheckpointer]'s Hold nests, the
// agent's lease is shared by its users), so a DeleteSession ran to
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
