package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// An OutcomeUnknownError reports a write whose connection was lost once
// its request (a statement, or the COMMIT of its transaction) had gone out,
// and whose outcome could not be learnt: the check made on a new
// connection (see Checkpointer.Append) could not reach the server, or did
// not get an answer within the lease's TTL, or reached a server other than
// the one the write ran on (restarted, or failed over to) on which it did
// not find the write aborted. The write may
// have landed or not, unlike a *DatabaseError alone from the same write,
// after which it did not (see DatabaseError for the writes that are not
// asked after). Look before retrying: an append retried with its
// expectedHead fails with a *session.ConflictError if the first one
// landed. A write whose ctx ends while its request is out returns ctx's
// error, which says nothing of whether it landed.
type OutcomeUnknownError struct {
	// Op is the write: "append", "truncate", "task list write", "fork
	// mark removal", "session import", "archive import", "task list
	// import", "spilled body import" and its ref, or "lease acquisition"
	// (Project.Acquire: the lease, if taken, expires after its TTL).
	Op string
	// SessionID is the session written (for an append or truncation),
	// ListID the task list (for a task list write).
	SessionID string
	ListID    string
	// Seqs are the seqs an append sent the records at.
	Seqs []int64
	// Err is the write's error (a *DatabaseError); Check is why the check
	// could not tell: a *DatabaseError; context.DeadlineExceeded (the
	// lease's TTL passed), wrapping with it the last attempt's error when
	// the server could not be reached (the check asks again, with
	// backoff, while it cannot); an error saying the server answering
	// is not the one the write ran on; or one saying the Store was closed
	// meanwhile (Close ends the checks under way).
	Err   error
	Check error
}

// Error names the write, its session (or list) and seqs, and both causes.
func (e *OutcomeUnknownError) Error() string {
	var b strings.Builder
	b.WriteString("postgres: outcome unknown: ")
	b.WriteString(e.Op)
	if e.SessionID != "" {
		b.WriteString(" of session " + e.SessionID)
	}
	if e.ListID != "" {
		b.WriteString(" of task list " + e.ListID)
	}
	if n := len(e.Seqs); n > 0 {
		fmt.Fprintf(&b, " at seqs %d..%d", e.Seqs[0], e.Seqs[n-1])
	}
	fmt.Fprintf(&b, " may have landed: %v; the check failed: %v", e.Err, e.Check)
	return b.String()
}

// Unwrap returns Err, the write's error.
func (e *OutcomeUnknownError) Unwrap() error { return e.Err }

// txLanded runs fn in one transaction as tx does, and, should the
// connection be lost once the COMMIT may have gone out (see lostReply),
// asks the server on a new connection whether the transaction committed
// (txid_status of its id, read first in the transaction, with its BEGIN:
// see txNamed): committed is
// success, aborted keeps the error. A transaction still in progress (its
// backend has not yet found its client gone) is asked about again, for at
// most the lease's TTL; halfway through, its backend, if still in that
// transaction, is terminated (pg_terminate_backend): its COMMIT never came
// (a network partition leaves the server waiting for a client that is
// gone, holding the transaction's locks, until TCP gives up, for hours),
// so it aborts, unless it is committing right then, which the next look
// sees. A transaction id names a transaction only on the server, and in
// the run of it, that handed it out (a replica promoted after a failover,
// or a server restarted after a crash that lost the end of its log, hands
// out again the ids of transactions it never saw): the check asks only the
// server the transaction ran on, known by its start time
// (pg_postmaster_start_time, read in the transaction); any other can only
// tell that the write did not land (aborted: had it committed there, its
// id would not have been handed out again), and no backend of it is
// ended. A check that cannot reach the server (see checkAgain) asks
// again, with backoff, on a connection of its own (see checkConn), within
// the same bound. A check that cannot tell is an
// *OutcomeUnknownError made by unknown from the write's error and the
// check's. A connection lost before the COMMIT went out is the write's
// error at once (it cannot have committed), its backend ended first, one
// attempt, as above. For writes a retry of which is not harmless (a truncation with
// an expected head, a task created twice).
func (s *Store) txLanded(ctx context.Context, fn func(db) error, unknown func(err, check error) error) error {
	return s.txLandedAs(ctx, nil, fn, unknown)
}

// A lostCommit is a transaction of txLandedAs whose reply was lost and
// which the check found committed: fn's results read from that reply
// never came.
type lostCommit struct {
	// xid is the transaction's id, started its server's start.
	xid     int64
	started time.Time
	// err is the write's error, the reply lost.
	err error
}

// txLandedAs is txLanded, a transaction found committed by the check
// after its reply was lost described in *lost (when lost is not nil), so
// that a caller that needs what the reply held (an Acquire's token) can
// look for it. ctx is then insertLease's own bound (the lease's TTL, its
// caller's cancellation dropped), not the caller's: ended with the COMMIT
// out, the transaction may have committed, and the caller, its own ctx
// still running, gets an *OutcomeUnknownError (the check has no time
// left), not ctx's error, which it would take for its own.
func (s *Store) txLandedAs(ctx context.Context, lost *lostCommit, fn func(db) error, unknown func(err, check error) error) error {
	var (
		xid     int64     // 0 until the transaction's id is known
		pid     int32     // its backend's process id
		started time.Time // its server's start
	)
	var committing bool
	err := s.txNamed(ctx, &xid, &pid, &started, &committing, fn)
	if err != nil && lost != nil && committing && ctx.Err() != nil {
		return unknown(&DatabaseError{target: s.target, Err: fmt.Errorf("no reply to the COMMIT of transaction %d within the lease's TTL (%v)", xid, err)}, ctx.Err())
	}
	if err == nil || xid == 0 || ctx.Err() != nil || !lostReply(err) {
		return err
	}
	cc := &checkConn{s: s}
	defer cc.close()
	terminate := func(actx context.Context) {
		// Best effort: a backend gone, or in another transaction (a
		// pooler's), is left alone.
		_ = cc.run(actx, func(d db) error {
			_, err := d.exec(actx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE pid = $1 AND backend_xid::text = ($2::bigint % 4294967296)::text
			AND datname = current_database() AND usename = current_user
			AND pg_postmaster_start_time() = $3`, pid, xid, started)
			return err
		})
	}
	if !committing {
		// Lost before its COMMIT went out: it cannot have committed.
		// Its backend may be waiting, in the transaction, with its
		// locks, for a client that is gone (a network partition): it is
		// ended, one attempt, so that a retry does not wait for it.
		actx, acancel := context.WithTimeout(ctx, s.checkAttempt())
		defer acancel()
		terminate(actx)
		return err
	}
	cctx, cancel := s.checkBound(ctx)
	defer cancel()
	wait := 5 * time.Millisecond
	endAt, ended := time.Now().Add(s.ttl/2), false
	for {
		actx, acancel := context.WithTimeout(cctx, s.checkAttempt())
		if !ended && time.Now().After(endAt) {
			// The next look tells.
			ended = true
			terminate(actx)
		}
		var (
			status *string
			same   bool
		)
		cerr := cc.run(actx, func(d db) error {
			return d.scan(actx, `SELECT txid_status($1), pg_postmaster_start_time() = $2`, []any{xid, started}, &status, &same)
		})
		again := cerr != nil && checkAgain(cctx, actx, cerr)
		acancel()
		switch {
		case closedMeanwhile(cctx):
			return unknown(err, errChecksClosed)
		case again:
			// The server is out of reach for now (restarting, a network
			// blip): asked again, within the bound.
		case cerr != nil:
			return unknown(err, cerr)
		case !same && (status == nil || *status != "aborted"):
			// Aborted there is trusted: had the write committed on the
			// server that answers, its id would not have been handed
			// out again, and it would be committed there.
			return unknown(err, fmt.Errorf("transaction %d: the server answering is not the one (started %s) it ran on: restarted or failed over, it may have handed its id out again", xid, started.UTC().Format(time.RFC3339Nano)))
		case status == nil:
			// Too old to be known (wraparound): cannot be after a
			// bounded wait, but say so rather than guess.
			return unknown(err, fmt.Errorf("transaction %d: status no longer kept", xid))
		case *status == "committed":
			if lost != nil {
				*lost = lostCommit{xid: xid, started: started, err: err}
			}
			return nil
		case *status == "aborted":
			return err
		}
		select {
		case <-cctx.Done():
			if closedMeanwhile(cctx) {
				return unknown(err, errChecksClosed)
			}
			if cerr != nil {
				return unknown(err, fmt.Errorf("%w (the last attempt: %w)", cctx.Err(), cerr))
			}
			return unknown(err, cctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// txNamed runs fn in one transaction as tx does, the transaction's id,
// its backend's process id and its server's start read into xid, pid and
// started first (xid left 0 when they could not be read), *committing set
// once the COMMIT is about to go out (until then, the transaction cannot
// commit). The statement
// that reads them goes out with the BEGIN, pipelined: one round trip for
// both, where a transaction begun by pgx and then asked took two. The
// connection is the pool's, and goes back to it out of any transaction:
// one whose ROLLBACK failed (lost) is not kept (pgxpool drops a connection
// released inside a transaction).
func (s *Store) txNamed(ctx context.Context, xid *int64, pid *int32, started *time.Time, committing *bool, fn func(db) error) error {
	c, err := s.acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	conn := c.Conn()
	d := db{q: conn, s: s}
	rollback := func() {
		if conn.PgConn().TxStatus() != 'I' && !conn.IsClosed() {
			_, _ = conn.Exec(ctx, "rollback")
		}
	}
	fail := func(err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		return d.wrap(err)
	}
	var (
		x  int64
		p  int32
		st time.Time
	)
	b := &pgx.Batch{}
	b.Queue("begin")
	b.Queue(`SELECT txid_current(), pg_backend_pid(), pg_postmaster_start_time()`).QueryRow(func(r pgx.Row) error {
		return r.Scan(&x, &p, &st)
	})
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		rollback()
		return fail(err)
	}
	*xid, *pid, *started = x, p, st
	if ferr := fn(d); ferr != nil {
		rollback()
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		return ferr
	}
	*committing = true
	tag, err := conn.Exec(ctx, "commit") // spelt as pgx spells it
	if err != nil {
		return fail(err)
	}
	if tag.String() == "ROLLBACK" {
		// A statement of fn failed and fn went on: pgx's Commit says so.
		return fail(pgx.ErrTxCommitRollback)
	}
	return nil
}

// A checkConn is a check's use of the connection of the checks after a
// lost reply (see txLanded and landedAfterLostReply): the Store's own
// (see checkShared), dialled apart from the pool within the attempt's
// ctx, and shared by the checks that run at once, one attempt at a time:
// the Store holds one connection more than Options.MaxConns while checks
// run, however many writes lost their replies together. A pool's
// connection would not do: the pool goes on dialling for a connection
// whose Acquire gave up, and a dial that hangs (a server that accepts and
// does not answer) would keep the slot, and every later attempt, waiting
// for it. A connection that failed is closed and the next attempt dials
// again; the last check to end closes it.
type checkConn struct {
	s     *Store
	using bool // counted in the Store's checkShared.users
}

// A checkShared is the connection of a Store's checks after a lost
// reply (see checkConn).
type checkShared struct {
	// slot holds the connection (nil until dialled) while no attempt
	// uses it: an attempt takes it, and puts it back when done.
	slot chan *pgx.Conn
	// users counts the checks under way; guarded by mu.
	mu    sync.Mutex
	users int
}

// newCheckShared returns the checks' connection of a Store, not dialled.
func newCheckShared() *checkShared {
	c := &checkShared{slot: make(chan *pgx.Conn, 1)}
	c.slot <- nil
	return c
}

// run runs fn with a db on the connection (dialled first if there is
// none), once no other attempt uses it: a failure to dial is a
// *DatabaseError, or ctx's error once it ended (as is a wait for the
// connection that outlived ctx); on a Store not open, ErrNotOpen.
func (k *checkConn) run(ctx context.Context, fn func(db) error) error {
	if !k.s.open() {
		return ErrNotOpen
	}
	sh := k.s.checks
	if !k.using {
		k.using = true
		sh.mu.Lock()
		sh.users++
		sh.mu.Unlock()
	}
	var c *pgx.Conn
	select {
	case c = <-sh.slot:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { sh.slot <- c }()
	if c == nil {
		if k.s.conns.isClosed() {
			return errChecksClosed
		}
		var err error
		c, err = pgx.ConnectConfig(ctx, k.s.pool.Config().ConnConfig)
		if err != nil {
			c = nil
			if k.s.conns.isClosed() {
				return errChecksClosed
			}
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			return db{s: k.s}.wrap(err)
		}
	}
	err := fn(db{q: c, s: k.s})
	if err != nil {
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || ctx.Err() != nil {
			closeCheckConn(c) // lost, or cut under its statement: dial again
			c = nil
		}
	}
	return err
}

// errChecksClosed is the error of a check's attempt once Close has
// closed the Store's connections (on a database that stopped answering),
// and the Check of a check that Close ended (see checkBound): the Store
// dials no more, and the check, which cannot tell, is not made again
// (see checkAgain).
var errChecksClosed = errors.New("postgres: the store was closed while the check ran")

// checkBound returns the ctx of a check after a lost reply (see
// txLandedAs and landedAfterLostReply): ctx, for at most the lease's TTL,
// and no longer than the Store is open (see closedMeanwhile).
func (s *Store) checkBound(ctx context.Context) (context.Context, context.CancelFunc) {
	tctx, cancelT := context.WithTimeout(ctx, s.ttl)
	cctx, cancelC := context.WithCancelCause(tctx)
	stop := context.AfterFunc(s.life, func() { cancelC(errChecksClosed) })
	return cctx, func() {
		stop()
		cancelC(nil)
		cancelT()
	}
}

// closedMeanwhile reports whether the check whose ctx (from checkBound)
// is cctx was ended by Close.
func closedMeanwhile(cctx context.Context) bool {
	return errors.Is(context.Cause(cctx), errChecksClosed)
}

// tx runs fn in one transaction on the connection; see Store.tx.
func (k *checkConn) tx(ctx context.Context, fn func(db) error) error {
	return k.run(ctx, func(d db) error {
		var ferr error
		err := pgx.BeginFunc(ctx, d.q.(*pgx.Conn), func(tx pgx.Tx) error {
			ferr = fn(db{q: tx, s: k.s})
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
		return d.wrap(err)
	})
}

// close ends the check's use of the connection, which the last check
// under way closes.
func (k *checkConn) close() {
	if !k.using {
		return
	}
	k.using = false
	sh := k.s.checks
	sh.mu.Lock()
	sh.users--
	last := sh.users == 0
	sh.mu.Unlock()
	if !last {
		return
	}
	c := <-sh.slot // an attempt under way is short (see checkAttempt)
	sh.mu.Lock()
	if sh.users == 0 {
		closeCheckConn(c)
		c = nil
	}
	sh.mu.Unlock()
	sh.slot <- c
}

// closeCheckConn closes c, if not nil, giving it half of closeGrace.
func closeCheckConn(c *pgx.Conn) {
	if c == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeGrace/2)
	defer cancel()
	_ = c.Close(ctx)
}

// checkAttempt is how long one attempt of the check after a lost reply
// (see txLanded and landedAfterLostReply) may take before it is made
// again: a connection to a server that accepts and does not answer (yet)
// is given up and another dialled, within the check's bound, the lease's
// TTL.
func (s *Store) checkAttempt() time.Duration {
	return max(s.ttl/4, 100*time.Millisecond)
}

// checkAgain reports whether an attempt of the check after a lost reply,
// made with actx within the check's bound ctx, that failed with cerr
// may get an answer if made again: the connection could not be had, or
// was lost, or the attempt's own time ran out (a server restarting, a
// network blip), or the server said it cannot serve now (class 08, a
// shutdown or start-up of class 57P, too many connections). An answer
// of the server's otherwise (a permission refused, say) is not asked
// again, nor anything once ctx has ended.
func checkAgain(ctx, actx context.Context, cerr error) bool {
	if ctx.Err() != nil {
		return false
	}
	if actx.Err() != nil {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(cerr, &pe) {
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P") || pe.Code == "53300"
	}
	var de *DatabaseError
	return errors.As(cerr, &de)
}
