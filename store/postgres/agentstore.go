package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// The methods in this file make a *Store a liteagent.Store, so that
// liteagent.Options{Store: st} keeps an agent's sessions, task lists,
// archives and spilled output in the database. Each takes the project's
// storage.Encoding, as [Store.Project] does.

// Checkpointer returns the session logs of the project enc names: the
// [Project.Checkpointer] of Project(enc). Its LeaseSession leases sessions
// for the appends made through it.
//
// Each call makes a Project of its own, with leases of its own: an
// agent's leases are those of its checkpointer, which no other agent of
// the process shares. A Project shared per (namespace, project) across
// the Store would make another agent's appends pass under this one's
// lease (checkLease takes the Project's lease as the writer's) and its
// [Checkpointer.Leased] report leases it never took, which lets an engine
// skip its re-check. Task lists and archives are not fenced by leases
// (their writer checks the session under the lease), so the Project they
// come from changes nothing; the delete is, and an agent deletes through
// its checkpointer ([Checkpointer.DeleteSessionUsing]).
func (s *Store) Checkpointer(ctx context.Context, enc storage.Encoding) (session.Checkpointer, error) {
	p, err := s.Project(enc)
	if err != nil {
		return nil, err
	}
	return p.Checkpointer(), nil
}

// TaskList returns the task list listID of the project enc names; see
// [Project.TaskList].
func (s *Store) TaskList(ctx context.Context, enc storage.Encoding, listID string) (task.Store, error) {
	p, err := s.Project(enc)
	if err != nil {
		return nil, err
	}
	return p.TaskList(listID)
}

// Archive returns the context archive of session sessionID of the project
// enc names, with the default read budget; see [Project.Archive].
func (s *Store) Archive(ctx context.Context, enc storage.Encoding, sessionID string) (archive.Archive, error) {
	p, err := s.Project(enc)
	if err != nil {
		return nil, err
	}
	return p.Archive(sessionID, 0)
}

// Spill returns the spilled output of the project enc names.
func (s *Store) Spill(ctx context.Context, enc storage.Encoding) (spill.Store, error) {
	p, err := s.Project(enc)
	if err != nil {
		return nil, err
	}
	return p.Spill(), nil
}

// DeleteSession removes session sessionID of the project enc names, as
// [Project.DeleteSession] does, except that a session without a log is a
// *session.NotFoundError and nothing is removed.
func (s *Store) DeleteSession(ctx context.Context, enc storage.Encoding, sessionID string) error {
	return s.DeleteSessionWith(ctx, enc, sessionID, DeleteOptions{})
}

// DeleteSessionWith removes session sessionID of the project enc names as
// [Store.DeleteSession] does, keeping every task list when opts names the
// shared list the session used (see [Project.DeleteSessionWith]).
func (s *Store) DeleteSessionWith(ctx context.Context, enc storage.Encoding, sessionID string, opts DeleteOptions) error {
	p, err := s.Project(enc)
	if err != nil {
		return err
	}
	head, err := p.Checkpointer().Head(ctx, sessionID)
	if err != nil {
		return err
	}
	if head == 0 {
		return &session.NotFoundError{SessionID: sessionID}
	}
	return p.DeleteSessionWith(ctx, sessionID, opts)
}

// DeleteSessionUsing removes session sessionID of the project enc names as
// [Store.DeleteSession] does, for an agent whose explicit task list was
// taskListID: when it is not "", the session had no private list and every
// task list stays (DeleteOptions.SharedTaskList). It is what
// liteagent.Agent.DeleteSession calls, with the agent's TaskListID.
func (s *Store) DeleteSessionUsing(ctx context.Context, enc storage.Encoding, sessionID, taskListID string) error {
	return s.DeleteSessionWith(ctx, enc, sessionID, DeleteOptions{SharedTaskList: taskListID})
}

// DeleteSessionUsing removes session sessionID of c's project as
// [Store.DeleteSessionUsing] does, through c's Project: a lease taken
// through c ([Checkpointer.LeaseSession]) is this writer's, and allows the
// delete, where through another Project (the Store's methods make one per
// call) it is another holder's and refuses it with a *BusyError. It is
// what liteagent.Agent.DeleteSession calls, under the session's lease, so
// that no other process deletes the session and starts it again between
// the agent's check of the session and the delete.
func (c *Checkpointer) DeleteSessionUsing(ctx context.Context, sessionID, taskListID string) error {
	head, err := c.Head(ctx, sessionID)
	if err != nil {
		return err
	}
	if head == 0 {
		return &session.NotFoundError{SessionID: sessionID}
	}
	return c.p.DeleteSessionWith(ctx, sessionID, DeleteOptions{SharedTaskList: taskListID})
}

// TaskListIDs returns the ids of the task lists of the project enc names,
// sorted: every list that has a row in task_lists (made by its first
// write, by [TaskList.MarkShared] or by an import), whether or not it
// holds a task, as the file store's list is its directory, tasks or not.
func (s *Store) TaskListIDs(ctx context.Context, enc storage.Encoding) ([]string, error) {
	p, err := s.Project(enc)
	if err != nil {
		return nil, err
	}
	var ids []string
	err = s.db().each(ctx, s.q.sql(`SELECT list FROM {task_lists} WHERE namespace = $1 AND project = $2
		UNION SELECT list FROM {tasks} WHERE namespace = $1 AND project = $2 ORDER BY list`), []any{p.ns, p.project}, func(r pgx.Rows) error {
		var id string
		if err := r.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
		return nil
	})
	return ids, err
}

// releaseTimeout bounds the release of a lease at the end of a turn.
const releaseTimeout = 10 * time.Second

// LeaseSession takes the lease of session id through c's Project, so that
// appends through c carry its token and nobody else writes the session
// until the returned function releases it; see [Project.Acquire]. A
// session another process leases is a *BusyError naming the holder. This
// makes c a liteagent.SessionLeaser: an agent takes the lease for each
// turn.
func (c *Checkpointer) LeaseSession(ctx context.Context, id string) (func(), error) {
	l, err := c.p.Acquire(ctx, id, LeaseOptions{})
	if err != nil {
		return nil, err
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
		defer cancel()
		_ = l.Release(ctx) // a lease not released expires after its TTL
	}, nil
}

// Leased reports whether a lease of session id taken through c's Project
// ([Checkpointer.LeaseSession], [Project.Acquire]) is held now: not yet
// released (one that has passed to another holder still counts, and
// fails the appends through c). The engine skips its re-check of a
// session's first record before each append while it is held, since no
// other process deletes the session then; an engine whose caller took no
// lease re-checks.
func (c *Checkpointer) Leased(id string) bool {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	_, ok := c.p.leases[id]
	return ok
}

// ImportIncomplete reports whether the project enc names holds the
// partial copy of an import that did not finish (see
// [Project.ImportIncomplete]). liteagent.New refuses such a project: the
// rerun that completes the import replaces the sessions it copied.
func (s *Store) ImportIncomplete(ctx context.Context, enc storage.Encoding) (bool, error) {
	p, err := s.Project(enc)
	if err != nil {
		return false, err
	}
	return p.ImportIncomplete(ctx)
}
