package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A DatabaseError reports a failed statement or a lost connection. Its
// message names host and database, never the password. A statement the
// server failed (Err a *pgconn.PgError) leaves its transaction rolled
// back, and the next call runs on a fresh connection. A connection lost
// once a write's statement or COMMIT went out may have let it commit: the
// writes a retry of which is not harmless (Append, Truncate, task list
// writes, ClearForking, the imports, Acquire) ask the database then, and return
// this error only when it did not commit (an *OutcomeUnknownError, which
// wraps it, when the database cannot tell); the others (Delete,
// DeleteSession, Clear, MarkShared, archive and spilled body Puts) return
// it as is, whether or not they landed: retry them.
type DatabaseError struct {
	target target
	// Err is the driver's error (a *pgconn.PgError for an error the server
	// reported).
	Err error
}

// Error names host and database, then gives the driver's error.
func (e *DatabaseError) Error() string {
	return "postgres: " + e.target.host + " database " + e.target.database + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *DatabaseError) Unwrap() error { return e.Err }

// querier is what pgxpool.Pool and pgx.Tx have in common that we use.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// db runs statements and wraps the driver's errors in *DatabaseError, so
// that they are told apart from the typed errors of the store's rules.
type db struct {
	q querier
	s *Store
}

func (d db) wrap(err error) error {
	if err == nil || errors.Is(err, pgx.ErrNoRows) || errors.Is(err, ErrNotOpen) {
		return err
	}
	var de *DatabaseError
	if errors.As(err, &de) {
		return err
	}
	return &DatabaseError{target: d.s.target, Err: err}
}

func (d db) exec(ctx context.Context, sql string, args ...any) (int64, error) {
	tag, err := d.q.Exec(ctx, sql, args...)
	return tag.RowsAffected(), d.wrap(err)
}

func (d db) scan(ctx context.Context, sql string, args []any, dest ...any) error {
	return d.wrap(d.q.QueryRow(ctx, sql, args...).Scan(dest...))
}

// each runs fn for every row of the query's result.
func (d db) each(ctx context.Context, sql string, args []any, fn func(pgx.Rows) error) error {
	rows, err := d.q.Query(ctx, sql, args...)
	if err != nil {
		return d.wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return d.wrap(err)
		}
	}
	return d.wrap(rows.Err())
}

// ErrNotOpen is the error of every method of a Store not made by [Open]
// (the zero Store, a nil *Store) that would reach the database, and of the
// Projects, Checkpointers and stores it hands out.
var ErrNotOpen = errors.New("postgres: store not open (make it with Open)")

// open reports whether s was made by Open: the zero Store and a nil
// *Store have no pool, and their statements fail with ErrNotOpen.
func (s *Store) open() bool { return s != nil && s.pool != nil }

// db returns the db that runs statements on the pool (on a Store not
// open, one whose statements fail with ErrNotOpen).
func (s *Store) db() db {
	if !s.open() {
		return db{q: notOpen{}, s: s}
	}
	return db{q: s.pool, s: s}
}

// onConn runs fn with a db on one connection of the pool and the identity
// of that connection's backend on the server (see landedAfterLostReply,
// which waits for it). A connection that cannot be had is a
// *DatabaseError, or ctx.Err() when ctx ended; on a Store not open,
// ErrNotOpen.
func (s *Store) onConn(ctx context.Context, fn func(d db, b backendID) error) error {
	c, err := s.acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	d := db{q: c, s: s}
	b, err := s.backendOf(ctx, d, c.Conn().PgConn())
	if err != nil {
		return err
	}
	return fn(d, b)
}

// acquire takes a connection of the pool, to be released: one that
// cannot be had is a *DatabaseError, or ctx.Err() when ctx ended; on a
// Store not open, ErrNotOpen.
func (s *Store) acquire(ctx context.Context) (*pgxpool.Conn, error) {
	if !s.open() {
		return nil, ErrNotOpen
	}
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, db{s: s}.wrap(err)
	}
	return c, nil
}

// A backendID names one server process: its process id, which the server
// (or, after a failover or a restart, another one) hands out again once
// the process is gone, when it started (pg_stat_activity's backend_start;
// zero when the server does not show it, as behind a pooler, whose made-up
// process id names no backend of ours), and when its server started.
type backendID struct {
	pid             uint32
	started, server time.Time
}

// startedArg is the backend's start as a statement's argument: NULL when
// unknown, which no backend_start equals.
func (b backendID) startedArg() *time.Time {
	if b.started.IsZero() {
		return nil
	}
	return &b.started
}

// backendKey is the key of a connection's backendID in its CustomData.
const backendKey = "lite-agent/postgres backend"

// backendOf returns the identity of the backend of pc, on which d runs: it
// is read on the connection's first use, and kept with it.
func (s *Store) backendOf(ctx context.Context, d db, pc *pgconn.PgConn) (backendID, error) {
	if b, ok := pc.CustomData()[backendKey].(backendID); ok {
		return b, nil
	}
	b := backendID{pid: pc.PID()}
	var started *time.Time
	if err := d.scan(ctx, `SELECT pg_postmaster_start_time(), (SELECT backend_start FROM pg_stat_activity WHERE pid = $1)`,
		[]any{int64(b.pid)}, &b.server, &started); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return backendID{}, cerr
		}
		return backendID{}, err
	}
	if started != nil {
		b.started = *started
	}
	if s.backendPID != nil {
		b.pid = s.backendPID(b.pid)
	}
	pc.CustomData()[backendKey] = b
	return b, nil
}

// notOpen is the querier of a Store not made by Open: every statement
// fails with ErrNotOpen.
type notOpen struct{}

func (notOpen) Exec(context.Context, string, ...any) (pgconn.CommandTag, error) {
	return pgconn.CommandTag{}, ErrNotOpen
}

func (notOpen) Query(context.Context, string, ...any) (pgx.Rows, error) { return nil, ErrNotOpen }

func (notOpen) QueryRow(context.Context, string, ...any) pgx.Row { return notOpenRow{} }

// notOpenRow is the row of a statement on a Store not open.
type notOpenRow struct{}

func (notOpenRow) Scan(...any) error { return ErrNotOpen }

// tx runs fn in one transaction, committing if fn returns nil and rolling
// back otherwise. A driver failure is a *DatabaseError, or ctx.Err() when
// ctx ended; fn's own errors are returned as they are.
func (s *Store) tx(ctx context.Context, fn func(db) error) error {
	return s.txWith(ctx, pgx.TxOptions{}, fn)
}

// txWith runs fn in one transaction with the given options; see tx.
func (s *Store) txWith(ctx context.Context, opts pgx.TxOptions, fn func(db) error) error {
	if !s.open() {
		return ErrNotOpen
	}
	var ferr error
	err := pgx.BeginTxFunc(ctx, s.pool, opts, func(tx pgx.Tx) error {
		ferr = fn(db{q: tx, s: s})
		return ferr
	})
	if err == nil {
		return nil
	}
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if ferr != nil {
		return ferr
	}
	return db{s: s}.wrap(err)
}
