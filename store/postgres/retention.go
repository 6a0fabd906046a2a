package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/storage"
)

// SweepOptions configures [Store.Sweep]. Zero MaxAge and MaxBytes delete
// nothing, unless LimitBytes is set.
type SweepOptions struct {
	// Namespace selects the rows swept; "" means storage.DefaultNamespace.
	Namespace string
	// MaxAge deletes every session (log, archive, private task list) not
	// modified for longer, and spilled bodies older than it.
	MaxAge time.Duration
	// MaxBytes then deletes the least recently modified sessions until the
	// stored size of the namespace's sessions is at most MaxBytes.
	MaxBytes int64
	// LimitBytes applies MaxBytes even when it is zero, so that every
	// session not leased is deleted (as retention.Options.LimitBytes does
	// for files).
	LimitBytes bool
	// DryRun reports what would be deleted and deletes nothing.
	DryRun bool
}

// SweepReport is what [Store.Sweep] did (or, with DryRun, would do).
type SweepReport struct {
	// Deleted lists the sessions deleted, oldest first.
	Deleted []SweptSession
	// Spilled is how many spilled bodies were deleted.
	Spilled int64
	// Bytes is the stored size freed by the deleted sessions.
	Bytes int64
	// Leased counts sessions kept because a live lease holds them.
	Leased int
	// ImportIncomplete lists the projects left alone, sessions and
	// spilled bodies, because an import into them has not finished (see
	// [Project.ImportIncomplete]): they hold part of its copy.
	ImportIncomplete []string
	// ForkLeftovers lists what forks killed part-way left and MaxAge
	// deleted: the archive and private task list copied into a session
	// whose log was never written (see [Store.MarkForking]).
	ForkLeftovers []SweptLeftover
	// LeaseRows counts the lease rows MaxAge deleted: ended (released, or
	// expired unrenewed) rows of sessions without a log, such as a
	// crashed holder's of a session it never wrote. A release or delete
	// removes its own; these are what one that failed left.
	LeaseRows int64
}

// SweptSession is one session deleted by a sweep.
type SweptSession struct {
	// Project is the project id (hash), Session the session id.
	Project, Session string
	// Modified is when the session last changed, Bytes its stored size
	// (log and archive rows).
	Modified time.Time
	Bytes    int64
	// Reason is "age" or "size".
	Reason string
}

// notImporting is the condition on a spill row sp that its project holds
// no import marker ($3).
const notImporting = `
	AND NOT EXISTS (SELECT 1 FROM {leases} m WHERE m.namespace = sp.namespace AND m.project = sp.project AND m.session = $3)`

// errSweepChanged is how Sweep's transaction for one session says that the
// session changed since it was chosen, and stays.
var errSweepChanged = errors.New("postgres: the session changed since the sweep chose it")

// Sweep applies retention by age and size to the sessions of one namespace,
// in SQL on sizes and times only: it never decodes a record, so it works
// whatever codec wrote them, and it skips sessions under a live lease. Each
// session is deleted as by [Project.DeleteSession], in its own
// transaction. A project an import has not finished copying into (see
// [Project.ImportIncomplete]) is left alone, as the file sweeper leaves a
// directory a migration has not finished: its records carry the times of
// the files they were copied from, and deleting them would break the
// import, or its rerun. With MaxAge, what forks killed part-way left (see
// [Store.MarkForking]) goes too once older than MaxAge, and so do the
// ended lease rows of sessions without a log that a release or delete did
// not remove (see [SweepReport].LeaseRows).
func (s *Store) Sweep(ctx context.Context, opts SweepOptions) (SweepReport, error) {
	var rep SweepReport
	if !s.open() {
		return rep, ErrNotOpen
	}
	ns := opts.Namespace
	if ns == "" {
		ns = storage.DefaultNamespace
	}
	if err := storage.ValidateNamespace(ns); err != nil {
		return rep, err
	}
	limit := opts.MaxBytes > 0 || opts.LimitBytes && opts.MaxBytes == 0
	if opts.MaxAge <= 0 && !limit {
		return rep, nil
	}
	type cand struct {
		SweptSession
		leased bool
		old    bool // older than MaxAge by the database's clock
	}
	var cands []cand
	var total int64
	err := s.db().each(ctx, s.q.sql(`SELECT DISTINCT project FROM {leases} WHERE namespace = $1 AND session = $2 ORDER BY 1`),
		[]any{ns, importMarker}, func(r pgx.Rows) error {
			var project string
			if err := r.Scan(&project); err != nil {
				return err
			}
			rep.ImportIncomplete = append(rep.ImportIncomplete, project)
			return nil
		})
	if err != nil {
		return rep, err
	}
	err = s.db().each(ctx, s.q.sql(`SELECT s.project, s.session,
			greatest(s.modified, coalesce(a.modified, s.modified)),
			s.bytes + coalesce(a.bytes, 0),
			EXISTS (SELECT 1 FROM {leases} l WHERE l.namespace = s.namespace AND l.project = s.project
				AND l.session = s.session AND l.expires > now()),
			$3::float8 > 0 AND greatest(s.modified, coalesce(a.modified, s.modified)) < now() - $3::float8 * interval '1 millisecond'
		FROM {sessions} s LEFT JOIN {archives} a USING (namespace, project, session)
		WHERE s.namespace = $1 AND NOT EXISTS (SELECT 1 FROM {leases} m WHERE m.namespace = s.namespace
			AND m.project = s.project AND m.session = $2)
		ORDER BY 3, 1, 2`), []any{ns, importMarker, opts.MaxAge.Milliseconds()}, func(r pgx.Rows) error {
		var c cand
		if err := r.Scan(&c.Project, &c.Session, &c.Modified, &c.Bytes, &c.leased, &c.old); err != nil {
			return err
		}
		if !c.leased {
			// A session in use does not count against MaxBytes (as a
			// locked file does not for the file sweeper): it cannot be
			// deleted, and counting it would delete newer sessions instead.
			total += c.Bytes
		}
		cands = append(cands, c)
		return nil
	})
	if err != nil {
		return rep, err
	}
	if s.sweepChose != nil {
		s.sweepChose()
	}
	for _, c := range cands {
		switch {
		case c.old:
			c.Reason = "age"
		case limit && total > opts.MaxBytes:
			c.Reason = "size"
		default:
			continue
		}
		if c.leased {
			rep.Leased++
			continue
		}
		if !opts.DryRun {
			p := &Project{s: s, ns: ns, project: c.Project, leases: map[string]*Lease{}}
			p.cp = &Checkpointer{p: p}
			err := s.tx(ctx, func(tx db) error {
				_, exists, err := p.cp.lockSession(ctx, tx, c.Session, false)
				if err != nil {
					return err
				}
				// Under the row's lock, the session must still be as it
				// was chosen: an append since (a session resumed) made it
				// new again, and a delete since left nothing to do. An
				// archive write locks only the archive's row: that is
				// locked too, so that one in flight is waited for and seen.
				var modified time.Time
				if exists {
					if _, err := tx.exec(ctx, s.q.sql(`SELECT 1 FROM {archives} WHERE namespace = $1 AND project = $2 AND session = $3 FOR UPDATE`),
						ns, c.Project, c.Session); err != nil {
						return err
					}
					err = tx.scan(ctx, s.q.sql(`SELECT greatest(s.modified, coalesce(a.modified, s.modified))
						FROM {sessions} s LEFT JOIN {archives} a USING (namespace, project, session)
						WHERE s.namespace = $1 AND s.project = $2 AND s.session = $3`), []any{ns, c.Project, c.Session}, &modified)
					if err != nil {
						return err
					}
				}
				if !exists || !modified.Equal(c.Modified) {
					return errSweepChanged
				}
				// An import that began since: its project is left alone.
				if incomplete, err := p.importIncomplete(ctx, tx); err != nil {
					return err
				} else if incomplete {
					return errSweepChanged
				}
				return p.deleteSession(ctx, tx, c.Session, true)
			})
			if err != nil {
				if _, busy := err.(*BusyError); busy {
					rep.Leased++ // leased since the scan: it no longer counts
					total -= c.Bytes
					continue
				}
				if errors.Is(err, errSweepChanged) {
					continue // kept; an appended session still counts against MaxBytes
				}
				return rep, err
			}
			// The session's lease row, ended (see forgetLease); best
			// effort, as in DeleteSession.
			_ = p.forgetLease(ctx, c.Session)
		}
		total -= c.Bytes
		rep.Bytes += c.Bytes
		rep.Deleted = append(rep.Deleted, c.SweptSession)
	}
	if opts.MaxAge > 0 {
		if err := s.sweepForkLeftovers(ctx, ns, opts.MaxAge, opts.DryRun, &rep); err != nil {
			return rep, err
		}
		if err := s.sweepLeaseRows(ctx, ns, opts.DryRun, &rep); err != nil {
			return rep, err
		}
		if opts.DryRun {
			err = s.db().scan(ctx, s.q.sql(`SELECT count(*) FROM {spill} sp WHERE namespace = $1 AND created < now() - $2 * interval '1 millisecond'`+notImporting),
				[]any{ns, opts.MaxAge.Milliseconds(), importMarker}, &rep.Spilled)
		} else {
			rep.Spilled, err = s.db().exec(ctx, s.q.sql(`DELETE FROM {spill} sp WHERE namespace = $1 AND created < now() - $2 * interval '1 millisecond'`+notImporting),
				ns, opts.MaxAge.Milliseconds(), importMarker)
		}
	}
	return rep, err
}

// sweepLeaseRows deletes, in namespace ns, the lease rows that are not
// live of sessions without a log, in projects no import is copying into:
// each project's in one transaction that raises the project's high-water
// mark to their tokens first (see leaseTokensRow), so that no token comes
// back. Their age does not matter: a holder stopped past its TTL holds a
// token at most the mark, below every later one, and its writes find no
// row with its token. A row another transaction holds locked is left
// (see forgetLease).
func (s *Store) sweepLeaseRows(ctx context.Context, ns string, dryRun bool, rep *SweepReport) error {
	const ended = `l.namespace = $1 AND NOT starts_with(l.session, '.') AND l.expires < now()
		AND NOT EXISTS (SELECT 1 FROM {sessions} x WHERE x.namespace = l.namespace AND x.project = l.project AND x.session = l.session)
		AND NOT EXISTS (SELECT 1 FROM {leases} m WHERE m.namespace = l.namespace AND m.project = l.project AND m.session = $2)`
	var projects []string
	err := s.db().each(ctx, s.q.sql(`SELECT l.project, count(*) FROM {leases} l WHERE `+ended+` GROUP BY 1 ORDER BY 1`),
		[]any{ns, importMarker}, func(r pgx.Rows) error {
			var project string
			var n int64
			if err := r.Scan(&project, &n); err != nil {
				return err
			}
			projects = append(projects, project)
			if dryRun {
				rep.LeaseRows += n
			}
			return nil
		})
	if err != nil || dryRun {
		return err
	}
	for _, project := range projects {
		p := &Project{s: s, ns: ns, project: project, leases: map[string]*Lease{}}
		var n int64
		err := s.tx(ctx, func(tx db) error {
			if err := p.lockTokens(ctx, tx); err != nil {
				return err
			}
			return tx.scan(ctx, s.q.sql(`WITH d AS (
					DELETE FROM {leases} l WHERE `+ended+` AND l.project = $3
					AND l.session IN (SELECT l.session FROM {leases} l WHERE `+ended+` AND l.project = $3 FOR UPDATE SKIP LOCKED)
					RETURNING l.token
				), u AS (
					UPDATE {leases} SET token = greatest(token, (SELECT max(token) FROM d))
					WHERE namespace = $1 AND project = $3 AND session = $4 AND EXISTS (SELECT 1 FROM d)
				)
				SELECT count(*) FROM d`), []any{ns, importMarker, project, leaseTokensRow}, &n)
		})
		if err != nil {
			return err
		}
		rep.LeaseRows += n
	}
	return nil
}
