package postgres

import (
	"context"
)

// DeleteSession removes session id as a whole, in one transaction: its log,
// its archive and its private task list (the list of the same id, unless it
// was marked shared); shared task lists always stay. Deleting an unknown
// session is not an error. A session leased by another process is a
// *BusyError and nothing is deleted.
func (p *Project) DeleteSession(ctx context.Context, id string) error {
	return p.DeleteSessionWith(ctx, id, DeleteOptions{})
}

// DeleteOptions says what belongs to the session [Project.DeleteSessionWith]
// deletes.
type DeleteOptions struct {
	// SharedTaskList is the explicit task-list id the session used (its
	// agent's TaskListID); when set, the session had no private list and
	// no task list is deleted, not even one named after the session, as
	// liteagent.DeleteSessionData does in a data home. "" means the
	// session's tasks were in its private list, named after the session,
	// which is deleted unless it is marked shared.
	SharedTaskList string
}

// DeleteSessionWith removes session id as [Project.DeleteSession] does,
// keeping every task list when opts names the shared list the session used.
func (p *Project) DeleteSessionWith(ctx context.Context, id string, opts DeleteOptions) error {
	if err := validID(id); err != nil {
		return err
	}
	if opts.SharedTaskList != "" {
		if err := validID(opts.SharedTaskList); err != nil {
			return err
		}
	}
	err := p.s.tx(ctx, func(tx db) error {
		if _, _, err := p.cp.lockSession(ctx, tx, id, true); err != nil { // see deleteLog
			return err
		}
		return p.deleteSession(ctx, tx, id, opts.SharedTaskList == "")
	})
	if err != nil {
		return err
	}
	// Best effort: the session is deleted, and a row left is swept.
	_ = p.forgetLease(ctx, id)
	return nil
}

// deleteSession deletes the rows of session id, and its private task list
// with privateList; the caller holds the session's row lock and has
// checked its lease.
func (p *Project) deleteSession(ctx context.Context, tx db, id string, privateList bool) error {
	if err := p.deleteLog(ctx, tx, id); err != nil {
		return err
	}
	q := p.s.q
	// The archive's row and the private list's, before their other rows,
	// as their writers lock them (see leaseTokensRow): a task write holds
	// its list's row and updates the list's tasks, and deleting the tasks
	// first deadlocked with it.
	locks := []string{`SELECT 1 FROM {archives} WHERE namespace = $1 AND project = $2 AND session = $3 FOR UPDATE`}
	if privateList {
		locks = append(locks, `SELECT 1 FROM {task_lists} WHERE namespace = $1 AND project = $2 AND list = $3 FOR UPDATE`)
	}
	for _, stmt := range locks {
		if _, err := tx.exec(ctx, q.sql(stmt), p.ns, p.project, id); err != nil {
			return err
		}
	}
	stmts := []string{
		`DELETE FROM {archive_index} WHERE namespace = $1 AND project = $2 AND session = $3`,
		`DELETE FROM {archive_notes} WHERE namespace = $1 AND project = $2 AND session = $3`,
		`DELETE FROM {archives} WHERE namespace = $1 AND project = $2 AND session = $3`,
	}
	if privateList {
		stmts = append(stmts, `DELETE FROM {tasks} t USING {task_lists} l
			WHERE t.namespace = $1 AND t.project = $2 AND t.list = $3
			AND l.namespace = t.namespace AND l.project = t.project AND l.list = t.list AND NOT l.shared`,
			`DELETE FROM {task_lists} WHERE namespace = $1 AND project = $2 AND list = $3 AND NOT shared`)
	}
	// The session's lease row is not deleted here: only under the
	// project's high-water row (see leaseTokensRow), which an Acquire
	// locks before the lease row, so in a transaction of its own after
	// this one (forgetLease), or by the release of a lease held now.
	for _, stmt := range stmts {
		if _, err := tx.exec(ctx, q.sql(stmt), p.ns, p.project, id); err != nil {
			return err
		}
	}
	// The mark of a fork into the session (see Store.MarkForking).
	_, err := tx.exec(ctx, q.sql(`DELETE FROM {leases} WHERE namespace = $1 AND project = $2 AND session = $3`),
		p.ns, p.project, forkMarkerPrefix+id)
	return err
}
