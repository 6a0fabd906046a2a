package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/storage"
)

// forkMarkerPrefix starts the session column of the row (in the leases
// table, never a session id: ids do not start with a dot) that marks the
// data a fork is copying into a new session before the session's log is
// written; the new session's id follows. Its expires column holds the
// time the fork began, by the database's clock, which the sweep's cutoff
// is computed by too: hosts whose clocks disagree must not make a fresh
// leftover look old, or an old one fresh. A marked archive or task list whose session has
// no log is what a fork killed part-way left: the retention sweep removes
// it once old (see [Store.Sweep]), as the file sweeper removes a task list
// holding task.ForkMarker.
const forkMarkerPrefix = ".fork-incomplete:"

// MarkForking marks the session sessionID of the project enc names as the
// target of a fork that has not written its log yet: what the fork copies
// into it (its context archive, its private task list) is a fork's
// leftover, which [Store.Sweep] removes once old, until [Store.ClearForking]
// or the session's deletion removes the mark. liteagent's Fork calls it
// before it copies anything.
func (s *Store) MarkForking(ctx context.Context, enc storage.Encoding, sessionID string) error {
	p, err := s.Project(enc)
	if err != nil {
		return err
	}
	if err := validID(sessionID); err != nil {
		return err
	}
	return p.markForking(ctx, s.db(), sessionID, nil)
}

// markForking writes, in tx, the mark of a fork into session id that
// began at began, or now by the database's clock when began is nil.
func (p *Project) markForking(ctx context.Context, tx db, id string, began *time.Time) error {
	_, err := tx.exec(ctx, p.s.q.sql(`INSERT INTO {leases} (namespace, project, session, holder, token, expires)
		VALUES ($1, $2, $3, 'lite-agent fork', 0, coalesce($4::timestamptz, now()))
		ON CONFLICT (namespace, project, session) DO UPDATE SET expires = excluded.expires`), p.ns, p.project, forkMarkerPrefix+id, began)
	return err
}

// forkLeftover reports whether the data of session id is what a fork
// killed part-way left: it is marked (see markForking) and the session
// has no log. It returns when the fork began.
func (p *Project) forkLeftover(ctx context.Context, id string) (bool, time.Time, error) {
	var began time.Time
	err := p.s.db().scan(ctx, p.s.q.sql(`SELECT m.expires FROM {leases} m
		WHERE m.namespace = $1 AND m.project = $2 AND m.session = $3 || $4
		AND NOT EXISTS (SELECT 1 FROM {sessions} s WHERE s.namespace = m.namespace AND s.project = m.project AND s.session = $4)`),
		[]any{p.ns, p.project, forkMarkerPrefix, id}, &began)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, time.Time{}, nil
	}
	return err == nil, began, err
}

// ForkLeftover reports whether the data of session id (its context
// archive, its private task list) is what a fork killed part-way left: it
// is marked by [Store.MarkForking] and the session has no log. It is what
// the sweep removes once old, and what lite-agent verify warns of, as it
// warns of a file task list holding task.ForkMarker; a list without the
// mark and without a session (a shared list) is no leftover.
func (p *Project) ForkLeftover(ctx context.Context, id string) (bool, error) {
	if err := validID(id); err != nil {
		return false, err
	}
	left, _, err := p.forkLeftover(ctx, id)
	return left, err
}

// ClearForking removes the mark of [Store.MarkForking] once the fork's
// log is written. A mark that is gone is a *storage.ForkMarkLostError: a
// sweep took the fork's copy for a dead fork's (the fork was paused longer
// than its MaxAge before writing the log) and deleted it, mark and all, so
// the fork's copy is not whole. Once the log is written no sweep deletes
// the copy (see [Store.Sweep]), so a mark found and removed here means the
// copy is whole. A removal whose connection is lost once its COMMIT went
// out succeeds if it committed, and fails with an *OutcomeUnknownError if
// the database cannot tell (see [OutcomeUnknownError]).
func (s *Store) ClearForking(ctx context.Context, enc storage.Encoding, sessionID string) error {
	p, err := s.Project(enc)
	if err != nil {
		return err
	}
	if err := validID(sessionID); err != nil {
		return err
	}
	// Not retried harmlessly: a retry of a removal that landed finds no
	// mark, and would report the fork's copy lost; one whose reply is
	// lost asks whether it committed (see txLanded).
	return s.txLanded(ctx, func(tx db) error {
		n, err := tx.exec(ctx, s.q.sql(`DELETE FROM {leases} WHERE namespace = $1 AND project = $2 AND session = $3`),
			p.ns, p.project, forkMarkerPrefix+sessionID)
		if err == nil && n == 0 {
			return &storage.ForkMarkLostError{SessionID: sessionID, Where: "PostgreSQL (" + s.target.String() + ", schema " + s.schema + ")"}
		}
		return err
	}, func(err, check error) error {
		return &OutcomeUnknownError{Op: "fork mark removal", SessionID: sessionID, Err: err, Check: check}
	})
}

// SweptLeftover is the data of a fork that died part-way, deleted by a
// sweep: the context archive and private task list copied into a session
// whose log was never written.
type SweptLeftover struct {
	// Project is the project id (hash), Session the session id.
	Project, Session string
	// Modified is when the data last changed, Bytes its stored size.
	Modified time.Time
	Bytes    int64
}

// sweepForkLeftovers deletes, in namespace ns, what forks killed part-way
// left (see forkMarkerPrefix): each marked session that has no log, whose
// project holds no import marker, and whose mark, archive and task list
// are all older than maxAge by the database's clock (the clock their
// times were written by); the list only if not marked shared. Each
// goes in its own transaction, under its session's row lock, as
// Project.DeleteSession deletes; anything changed since it was chosen
// stays.
func (s *Store) sweepForkLeftovers(ctx context.Context, ns string, maxAge time.Duration, dryRun bool, rep *SweepReport) error {
	type cand struct {
		SweptLeftover
		mark time.Time
	}
	var cands []cand
	newest := `greatest(m.expires,
			(SELECT a.modified FROM {archives} a WHERE a.namespace = m.namespace AND a.project = m.project AND a.session = substr(m.session, $3)),
			(SELECT l.modified FROM {task_lists} l WHERE l.namespace = m.namespace AND l.project = m.project AND l.list = substr(m.session, $3)))`
	err := s.db().each(ctx, s.q.sql(`SELECT m.project, substr(m.session, $3), m.expires, `+newest+`,
			coalesce((SELECT a.bytes FROM {archives} a WHERE a.namespace = m.namespace AND a.project = m.project AND a.session = substr(m.session, $3)), 0)
			+ coalesce((SELECT sum(length(t.data)) FROM {tasks} t WHERE t.namespace = m.namespace AND t.project = m.project AND t.list = substr(m.session, $3)), 0)
		FROM {leases} m
		WHERE m.namespace = $1 AND starts_with(m.session, $2)
			AND NOT EXISTS (SELECT 1 FROM {sessions} s WHERE s.namespace = m.namespace AND s.project = m.project AND s.session = substr(m.session, $3))
			AND NOT EXISTS (SELECT 1 FROM {leases} i WHERE i.namespace = m.namespace AND i.project = m.project AND i.session = $4)
			AND `+newest+` < now() - $5::float8 * interval '1 millisecond'
		ORDER BY 4, 1, 2`), []any{ns, forkMarkerPrefix, len(forkMarkerPrefix) + 1, importMarker, maxAge.Milliseconds()}, func(r pgx.Rows) error {
		var c cand
		if err := r.Scan(&c.Project, &c.Session, &c.mark, &c.Modified, &c.Bytes); err != nil {
			return err
		}
		cands = append(cands, c)
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range cands {
		if dryRun {
			rep.ForkLeftovers = append(rep.ForkLeftovers, c.SweptLeftover)
			continue
		}
		p := &Project{s: s, ns: ns, project: c.Project, leases: map[string]*Lease{}}
		p.cp = &Checkpointer{p: p}
		err := s.tx(ctx, func(tx db) error {
			// The session's row, made and locked as DeleteSession does: a
			// fork finishing now waits, and a log written since is seen.
			head, _, err := p.cp.lockSession(ctx, tx, c.Session, true)
			if err != nil {
				return err
			}
			var mark, modified time.Time
			err = tx.scan(ctx, s.q.sql(`SELECT m.expires, `+newest+` FROM {leases} m
				WHERE m.namespace = $1 AND m.project = $2 AND m.session = $4 || $5 FOR UPDATE`),
				[]any{ns, c.Project, len(forkMarkerPrefix) + 1, forkMarkerPrefix, c.Session}, &mark, &modified)
			switch {
			case errors.Is(err, pgx.ErrNoRows):
				return errSweepChanged // the fork finished, or the session was deleted
			case err != nil:
				return err
			case head != 0 || !mark.Equal(c.mark) || !modified.Equal(c.Modified):
				return errSweepChanged
			}
			if incomplete, err := p.importIncomplete(ctx, tx); err != nil || incomplete {
				if err == nil {
					err = errSweepChanged
				}
				return err
			}
			return p.deleteSession(ctx, tx, c.Session, true) // the mark with the rest
		})
		if err != nil {
			var busy *BusyError
			if errors.As(err, &busy) || errors.Is(err, errSweepChanged) {
				continue
			}
			return err
		}
		_ = p.forgetLease(ctx, c.Session) // best effort, as in DeleteSession
		rep.ForkLeftovers = append(rep.ForkLeftovers, c.SweptLeftover)
	}
	return nil
}
