package liteagent

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// A Store keeps what agents write as they work (session logs, task lists,
// context archives and spilled output) somewhere other than the data
// home's projects directory, such as a database that several hosts share.
// [Options.Store] selects one; nil keeps that data in the data home's
// files. Package store/postgres provides a Store on PostgreSQL.
//
// A task list the agent shares ([Options.TaskListID]) is marked shared
// through its MarkShared(ctx) method, when it has one, before first use.
// Every method takes the project's storage.Encoding: its Namespace and
// ProjectID say whose records are meant, and its Codec encodes every
// payload, bound to the same storage.Context as in the files. Session and
// task-list ids follow storage.ValidateID. The ctx of TaskList, Archive and
// MarkShared is that of the turn or the operation that first needs the list
// or archive, and bounds the opening only: the agent keeps what they
// return for later turns, so it must not hold on to that ctx. A list
// [Agent.TaskList] reads that the agent does not keep is opened for that
// read alone, and what TaskList returned for it is then dropped (nothing
// is closed): TaskList may be called any number of times for one list,
// and a read must create nothing.
// Implementations are safe for concurrent use by goroutines and by
// processes on any host. A Store with
// a method ImportIncomplete(ctx, enc) (bool, error) (store/postgres's) is
// asked by [New] whether an import into the project did not finish; such
// a project is refused with a *storage.Error. A Store with methods
// MarkForking and ClearForking(ctx, enc, sessionID) error (store/postgres's)
// has [Agent.Fork] mark the new session before it copies the session's
// data into it and clear the mark once its log is written, so that the
// store can tell what a fork killed part-way left from real data;
// ClearForking returns a *storage.ForkMarkLostError when the mark is gone
// (a sweep removed the copy), and the fork then fails. A Store with a
// method DeleteSessionUsing(ctx, enc, sessionID, taskListID string) error
// (store/postgres's) is what [Agent.DeleteSession] calls instead of
// DeleteSession, with the agent's TaskListID ("" for none): a session of an
// agent with a shared list had no private list, and no task list is deleted,
// as in the data home. Without the method, DeleteSession keeps the list
// named after the session only when it is marked shared.
type Store interface {
	// Checkpointer returns the session logs of the project.
	Checkpointer(ctx context.Context, enc storage.Encoding) (session.Checkpointer, error)
	// TaskList returns the task list listID of the project.
	TaskList(ctx context.Context, enc storage.Encoding, listID string) (task.Store, error)
	// Archive returns the context archive of session sessionID.
	Archive(ctx context.Context, enc storage.Encoding, sessionID string) (archive.Archive, error)
	// Spill returns the project's spilled output.
	Spill(ctx context.Context, enc storage.Encoding) (spill.Store, error)
	// DeleteSession removes session sessionID: its log, its context
	// archive and its private task list (the list named after the
	// session, unless it was marked shared). A session without a log is a
	// *session.NotFoundError, and nothing is removed.
	DeleteSession(ctx context.Context, enc storage.Encoding, sessionID string) error
}

// A SessionLeaser is a session.Checkpointer that lets one writer at a time
// work on a session, across processes and hosts: while one holds the
// lease, appends by others fail. An [Agent] whose checkpointer is a
// SessionLeaser takes the lease for each turn it runs (a prompt or the
// autonomous turn that delivers background work) before the turn writes
// anything, and releases it when the turn ends. A subagent writes a
// session of its own, so it never contends with its parent.
type SessionLeaser interface {
	// LeaseSession takes the lease of session sessionID and returns the
	// function that releases it. A session another holder leases is an
	// error naming the holder that matches session.ErrLeased
	// (store/postgres: a *postgres.BusyError): for a session the agent
	// started ([Agent.StartSession]) it is reported as a
	// *[SessionExistsError], and any other error as it is.
	LeaseSession(ctx context.Context, sessionID string) (release func(), err error)
}

// A listDeleter is a Store that is told, when it deletes a session, which
// task list the session's agent used ([Options.TaskListID]), as the data
// home's files are: with one, no task list is deleted, not even a list
// named after the session that nobody marked shared.
type listDeleter interface {
	DeleteSessionUsing(ctx context.Context, enc storage.Encoding, sessionID, taskListID string) error
}

// A leasedDeleter is a Store's checkpointer that deletes a session as
// the Store's DeleteSessionUsing does, under the lease taken through it
// (store/postgres's): [Agent.DeleteSession] deletes through it, holding
// the session's lease, which the Store's own delete would take for
// another holder's.
type leasedDeleter interface {
	DeleteSessionUsing(ctx context.Context, sessionID, taskListID string) error
}

// A sharer is a task list that can be marked as shared by several
// sessions, so that deleting the session named like it keeps it.
type sharer interface {
	MarkShared(ctx context.Context) error
}

// errNoStore reports a Store that returned no value and no error.
var errNoStore = errors.New("liteagent: the Store returned nil")

// storeValue checks what a Store method returned: a nil value without an
// error is errNoStore.
func storeValue[T comparable](v T, err error) (T, error) {
	var zero T
	switch {
	case err != nil:
		return zero, err
	case v == zero:
		return zero, errNoStore
	}
	return v, nil
}

// leaseSession takes the lease of session id for a turn when the agent's
// checkpointer leases sessions, and returns the function that releases it;
// it does nothing otherwise. Turns of the agent on one session share one
// lease, released when the last ends: the agent orders its own turns.
// a.leaseMu is not held while the Store is asked for the lease (through
// PostgreSQL, a database that does not answer takes up to the lease's TTL,
// and every lease of the agent waited as long): a turn that needs the
// lease another turn is taking waits for that one's answer, or for its own
// ctx.
func (a *Agent) leaseSession(ctx context.Context, id string) (func(), error) {
	l, ok := a.cp.(SessionLeaser)
	if !ok {
		return func() {}, nil
	}
	for {
		a.leaseMu.Lock()
		h := a.leases[id]
		if h == nil {
			h = &heldLease{ready: make(chan struct{}), turns: 1}
			if a.leases == nil {
				a.leases = map[string]*heldLease{}
			}
			a.leases[id] = h
			a.leaseMu.Unlock()
			release, err := a.takeLease(ctx, l, id, h)
			a.leaseMu.Lock()
			if err != nil {
				if a.leases[id] == h {
					delete(a.leases, id)
				}
			} else {
				if release == nil {
					release = func() {}
				}
				h.release = release
			}
			close(h.ready)
			a.leaseMu.Unlock()
			if err != nil {
				return nil, fmt.Errorf("liteagent: session %s: %w", id, err)
			}
			return a.unlease(id, h), nil
		}
		wait := h.released
		select {
		case <-h.ready:
		default:
			wait = h.ready
		}
		if wait != nil {
			// Another turn is taking the lease, or the last turn
			// releasing it (the next is taken after): wait for that.
			a.leaseMu.Unlock()
			select {
			case <-wait:
			case <-ctx.Done():
				return nil, fmt.Errorf("liteagent: session %s: %w", id, ctx.Err())
			}
			continue
		}
		h.turns++
		a.leaseMu.Unlock()
		return a.unlease(id, h), nil
	}
}

// unlease returns the function that ends a turn's share of lease h of
// session id, releasing the lease after the last.
func (a *Agent) unlease(id string, h *heldLease) func() {
	return sync.OnceFunc(func() {
		a.leaseMu.Lock()
		h.turns--
		if h.turns > 0 {
			a.leaseMu.Unlock()
			return
		}
		h.released = make(chan struct{})
		a.leaseMu.Unlock()
		// Deferred, so that a release that panics still lets the next
		// turn take the lease.
		defer func() {
			a.leaseMu.Lock()
			if a.leases[id] == h {
				delete(a.leases, id)
			}
			close(h.released)
			a.leaseMu.Unlock()
		}()
		h.release()
	})
}

// takeLease asks l for the lease of session id that h, in a.leases and
// not ready yet, stands for. Should LeaseSession panic, h is withdrawn
// and made ready before the panic goes on, so that the turns waiting for
// it (and later ones) take the lease themselves rather than wait forever.
func (a *Agent) takeLease(ctx context.Context, l SessionLeaser, id string, h *heldLease) (release func(), err error) {
	answered := false
	defer func() {
		if answered {
			return
		}
		a.leaseMu.Lock()
		if a.leases[id] == h {
			delete(a.leases, id)
		}
		close(h.ready)
		a.leaseMu.Unlock()
	}()
	release, err = l.LeaseSession(ctx, id)
	answered = true
	return release, err
}

// heldLease is a session lease the agent holds, shared by its turns.
type heldLease struct {
	turns int
	// ready is closed once the Store answered: release is set then, or
	// the lease failed and is no longer in a.leases (a turn waiting for
	// it asks the Store itself).
	ready   chan struct{}
	release func()
	// released is made when the last turn starts releasing the lease,
	// and closed once it has (the lease is no longer in a.leases then).
	released chan struct{}
}
