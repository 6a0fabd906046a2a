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
	if err := validID(id); err != nil {
		return err
	}
	return p.s.tx(ctx, func(tx db) error {
		if _, _, err := p.cp.lockSession(ctx, tx, id, true); err != nil { // see deleteLog
			return err
		}
		return p.deleteSession(ctx, tx, id)
	})
}

// deleteSession deletes the rows of session id; the caller holds the
// session's row lock and has checked its lease.
func (p *Project) deleteSession(ctx context.Context, tx db, id string) error {
	if err := p.deleteLog(ctx, tx, id); err != nil {
		return err
	}
	q := p.s.q
	for _, stmt := range []string{
		`DELETE FROM {archive_index} WHERE namespace = $1 AND project = $2 AND session = $3`,
		`DELETE FROM {archive_notes} WHERE namespace = $1 AND project = $2 AND session = $3`,
		`DELETE FROM {archives} WHERE namespace = $1 AND project = $2 AND session = $3`,
		`DELETE FROM {tasks} t USING {task_lists} l
			WHERE t.namespace = $1 AND t.project = $2 AND t.list = $3
			AND l.namespace = t.namespace AND l.project = t.project AND l.list = t.list AND NOT l.shared`,
		`DELETE FROM {task_lists} WHERE namespace = $1 AND project = $2 AND list = $3 AND NOT shared`,
		`DELETE FROM {leases} WHERE namespace = $1 AND project = $2 AND session = $3 AND expires < now()`,
	} {
		if _, err := tx.exec(ctx, q.sql(stmt), p.ns, p.project, id); err != nil {
			return err
		}
	}
	// The mark of a fork into the session (see Store.MarkForking).
	_, err := tx.exec(ctx, q.sql(`DELETE FROM {leases} WHERE namespace = $1 AND project = $2 AND session = $3`),
		p.ns, p.project, forkMarkerPrefix+id)
	return err
}
