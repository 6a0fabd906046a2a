package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/session"
)

// ErrBusy is matched by every *[BusyError]: errors.Is(err, ErrBusy).
var ErrBusy = errors.New("session busy")

// A BusyError reports that another process holds a live lease on a session,
// so that this one may not write it.
type BusyError struct {
	// SessionID is the busy session.
	SessionID string
	// Holder names the process holding the lease (Options.Holder of its
	// Store), Expires is when its lease ends unless renewed.
	Holder  string
	Expires time.Time
}

// Error names the session, the holder and when its lease ends.
func (e *BusyError) Error() string {
	return fmt.Sprintf("session %s is busy: leased by %s until %s", e.SessionID, e.Holder, e.Expires.UTC().Format(time.RFC3339))
}

// Is reports whether target is [ErrBusy] or [session.ErrLeased].
func (e *BusyError) Is(target error) bool { return target == ErrBusy || target == session.ErrLeased }

// A LeaseLostError reports that a lease this process held has passed to
// another holder (it expired unrenewed, and someone acquired it), so the
// write was refused.
type LeaseLostError struct {
	// SessionID is the session whose lease was lost.
	SessionID string
	// Token is the fencing token this process held.
	Token int64
}

// Error names the session and the lost lease's token.
func (e *LeaseLostError) Error() string {
	return fmt.Sprintf("session %s: lease %d was lost to another holder", e.SessionID, e.Token)
}

// LeaseOptions configures [Project.Acquire].
type LeaseOptions struct {
	// Wait makes Acquire wait for a busy session's lease to be released or
	// to expire, until ctx ends; without it a busy session fails at once
	// with a *BusyError.
	Wait bool
}

// A Lease is one process's right to write one session: a row holding the
// holder's name, a fencing token that grows with every acquisition (never
// given twice for a session of a project: see leaseTokensRow), and an
// expiry that a goroutine renews while the lease is held. Every append and
// truncation through the Project that acquired it carries the token, so a
// holder whose lease expired and passed on can no longer write.
type Lease struct {
	p       *Project
	session string
	token   int64

	stop chan struct{}
	done chan struct{}
	once sync.Once

	mu  sync.Mutex
	err error // set when a renewal finds the lease gone
}

// Acquire takes the lease on session id for this Project, so that other
// processes (and other Projects) cannot write the session until Release or
// until the lease expires unrenewed. A session leased by someone else is a
// *BusyError naming the holder, or, with opts.Wait, waited for until ctx
// ends. A Project holds at most one lease per session: acquiring a session
// it already holds is a *BusyError naming this holder. Subagents write their
// own sessions and take their own leases. An Acquire whose connection is
// lost once its request went out asks the database whether it took the
// lease (see insertLease): a *DatabaseError then means it did not, and an
// *OutcomeUnknownError that the database could not tell (a lease taken
// stays, under this Store's name, until its TTL).
func (p *Project) Acquire(ctx context.Context, id string, opts LeaseOptions) (*Lease, error) {
	if err := validID(id); err != nil {
		return nil, err
	}
	p.mu.Lock()
	if _, held := p.leases[id]; held {
		p.mu.Unlock()
		return nil, &BusyError{SessionID: id, Holder: p.s.holder + " (this process)"}
	}
	p.mu.Unlock()
	key := leaseKey{p.ns, p.project, id}
	p.s.settleMu.Lock()
	settling := p.s.settling[key]
	p.s.settleMu.Unlock()
	if settling != nil {
		// An Acquire of this Store (through any of its Projects) that
		// gave up may have taken the lease: it is being released.
		select {
		case <-settling:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	p.endUnreleased(ctx, key)
	delay := 20 * time.Millisecond
	var last error // the *BusyError of the last attempt
	for {
		l, err := p.tryAcquire(ctx, id)
		if err == nil {
			return l, nil
		}
		if last != nil && ctx.Err() != nil {
			// The deadline came during an attempt, not between two:
			// still a wait for a busy session.
			return nil, fmt.Errorf("waiting for the lease: %w (%w)", ctx.Err(), last)
		}
		var busy *BusyError
		if !opts.Wait || !errors.As(err, &busy) {
			return nil, err
		}
		last = err
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("waiting for the lease: %w (%w)", ctx.Err(), err)
		case <-t.C:
		}
		delay = min(delay*2, 500*time.Millisecond)
	}
}

func (p *Project) tryAcquire(ctx context.Context, id string) (*Lease, error) {
	q := p.s.q
	token, late, err := p.insertLease(ctx, id)
	if errors.Is(err, pgx.ErrNoRows) {
		busy := &BusyError{SessionID: id}
		err = p.s.db().scan(ctx, q.sql(`SELECT holder, expires FROM {leases} WHERE namespace = $1 AND project = $2 AND session = $3 AND expires >= now()`),
			[]any{p.ns, p.project, id}, &busy.Holder, &busy.Expires)
		if errors.Is(err, pgx.ErrNoRows) {
			// Released (or expired) between the two statements: try again.
			return p.tryAcquire(ctx, id)
		}
		if err == nil {
			err = busy
		}
	}
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, err
	}
	l := &Lease{p: p, session: id, token: token, stop: make(chan struct{}), done: make(chan struct{})}
	p.mu.Lock()
	p.leases[id] = l
	p.mu.Unlock()
	go l.renew(late)
	return l, nil
}

// insertLease takes the lease row of session id in one statement, in a
// transaction of its own whose id is read with its BEGIN (see txLanded:
// three round trips), returning its token, or pgx.ErrNoRows when someone
// holds a live lease. Should the reply to the statement or to the COMMIT
// be lost, the server is asked whether the transaction committed: one
// that did not is the *DatabaseError (nothing taken), one that did is
// the lease, its token read back from the row it wrote (see
// leaseLanded), and one the server cannot tell of, or whose COMMIT's
// reply did not come within the TTL (the bound below), is an
// *OutcomeUnknownError (the lease, if taken, expires after its TTL).
// late reports a lease found by such a check: its row, written when the
// transaction began, may have little of its TTL left.
//
// The statement is not cut short by ctx: cancelled while at the server, it
// may commit the lease and still report ctx's error, which left a lease
// nobody held (the session busy until it expired). It runs to its end in a
// goroutine of its own, bounded by the lease's TTL, and a lease it took for
// a caller that left meanwhile is released there. The caller does not wait
// for it once ctx ends: it returned only after the statement, up to the
// TTL on a database that does not answer, and liteagent holds its lock of
// the agent's leases around the call.
func (p *Project) insertLease(ctx context.Context, id string) (token int64, late bool, err error) {
	type result struct {
		token int64
		late  bool
		err   error
	}
	var (
		mu   sync.Mutex
		left bool // the caller returned ctx's error
	)
	res := make(chan result, 1)
	settled := make(chan struct{}) // closed once a lease taken for a caller that left is released
	p.s.bg.Go(func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.s.ttl)
		defer cancel()
		var r result
		p.mu.Lock()
		ready := p.tokensReady
		p.mu.Unlock()
		if !ready {
			r.err = p.ensureTokensRow(sctx)
		}
		// A new row starts above the project's high-water mark, read
		// under a key-share lock that waits for a deletion of a row
		// raising it (see leaseTokensRow); a kept row goes on from its
		// own token.
		if r.err == nil {
			var lc lostCommit
			r.err = p.s.txLandedAs(sctx, &lc, func(d db) error {
				return d.scan(sctx, p.s.q.sql(`WITH h AS MATERIALIZED (
				SELECT token FROM {leases} WHERE namespace = $1 AND project = $2 AND session = $6 FOR KEY SHARE
			)
			INSERT INTO {leases} AS l (namespace, project, session, holder, token, expires)
			VALUES ($1, $2, $3, $4, coalesce((SELECT token FROM h), 0) + 1, now() + $5 * interval '1 millisecond')
			ON CONFLICT (namespace, project, session) DO UPDATE
				SET holder = excluded.holder, token = l.token + 1, expires = excluded.expires
				WHERE l.expires < now()
			RETURNING token`), []any{p.ns, p.project, id, p.s.holder, p.s.ttl.Milliseconds(), leaseTokensRow}, &r.token)
			}, func(err, check error) error {
				return &OutcomeUnknownError{Op: "lease acquisition", SessionID: id, Err: err, Check: check}
			})
			if r.err == nil && lc.err != nil {
				r.token, r.err = p.leaseLanded(sctx, id, lc)
				r.late = true
			}
		}
		mu.Lock()
		gone := left
		if !gone {
			res <- r
		}
		mu.Unlock()
		if gone {
			if r.err == nil {
				p.dropLease(sctx, id, r.token)
			}
			p.s.settle(leaseKey{p.ns, p.project, id}, settled)
		}
	})
	var r result
	select {
	case r = <-res:
	case <-ctx.Done():
		mu.Lock()
		left = true
		select {
		case r = <-res:
			left = false // delivered: dropped below
		default:
			key := leaseKey{p.ns, p.project, id}
			p.s.settleMu.Lock()
			if p.s.settling == nil {
				p.s.settling = map[leaseKey]chan struct{}{}
			}
			p.s.settling[key] = settled
			p.s.settleMu.Unlock()
		}
		mu.Unlock()
		if left {
			return 0, false, ctx.Err()
		}
	}
	if cerr := ctx.Err(); cerr != nil {
		if r.err == nil {
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.s.ttl)
			defer cancel()
			p.dropLease(dctx, id, r.token)
		}
		return 0, false, cerr
	}
	return r.token, r.late, r.err
}

// leaseLanded returns the token of the lease of session id that
// insertLease's transaction lc took, its reply lost (the check found it
// committed): the row that transaction wrote, known by its xmin (the
// transaction's id, modulo 2^32) on the server it ran on. A row written
// since (removed by a Clear of the project, say) is not this Acquire's:
// the error is the write's, nothing held. A row that could not be read,
// or was read from another server run (restarted since the check, or
// failed over to, which may have handed the id out again), is an
// *OutcomeUnknownError: the lease may stay until its TTL. (Filtered out
// by the server's start, a row read back after a restart was the write's
// error, which says the lease was not taken, the session then busy under
// this Store's own name.)
//
// The row is not found expired: the check and this read run within the
// TTL from before the transaction began (insertLease's bound), and the
// row expires the TTL after its transaction's start on the server. Only
// a server clock stepped forward meanwhile could make it so, and the row,
// unwritten since, is this Acquire's all the same, as a holder's whose
// renewal came late: its renewals extend it, and should another holder
// take it first, they fail and so do its writes (see checkLease).
// Passing another holder's row off as the caller's is what must not
// happen, and the xmin rules it out; an expired row of the caller's own
// is not another's. (A branch that ended it was never reached.)
func (p *Project) leaseLanded(ctx context.Context, id string, lc lostCommit) (int64, error) {
	var (
		token int64
		same  bool
	)
	err := p.s.db().scan(ctx, p.s.q.sql(`SELECT token, pg_postmaster_start_time() = $6 FROM {leases}
		WHERE namespace = $1 AND project = $2 AND session = $3 AND holder = $4
		AND xmin::text = ($5::bigint % 4294967296)::text`),
		[]any{p.ns, p.project, id, p.s.holder, lc.xid, lc.started}, &token, &same)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return 0, lc.err
	case err != nil:
		return 0, &OutcomeUnknownError{Op: "lease acquisition", SessionID: id, Err: lc.err, Check: err}
	case !same:
		// Restarted, or failed over, since the check: the row is
		// likely the Acquire's (a clean restart keeps it), but an id
		// is known only on the server run that handed it out.
		return 0, &OutcomeUnknownError{Op: "lease acquisition", SessionID: id, Err: lc.err,
			Check: fmt.Errorf("transaction %d: its lease row was read back from a server other than the one (started %s) it committed on: restarted or failed over, it may have handed its id out again",
				lc.xid, lc.started.UTC().Format(time.RFC3339Nano))}
	}
	return token, nil
}

// A leaseKey names a session of a namespace and project of a Store.
type leaseKey struct{ ns, project, session string }

// settle ends the wait of Acquires of session key for the release of a
// lease an abandoned Acquire took (settled, made by insertLease).
func (s *Store) settle(key leaseKey, settled chan struct{}) {
	s.settleMu.Lock()
	if s.settling[key] == settled {
		delete(s.settling, key)
	}
	s.settleMu.Unlock()
	close(settled)
}

// dropLease releases the lease of session id with token that
// insertLease took for a caller that left, as Release does. A lease not
// released expires after its TTL.
func (p *Project) dropLease(ctx context.Context, id string, token int64) {
	_ = p.endLease(ctx, id, token)
}

// endLease ends the lease of session id with token (see Release): the row
// stays, ended, while the session has a log, so that the next acquisition
// goes on from its token; a session without one (deleted, or never
// written) has its row removed (see forgetLease).
func (p *Project) endLease(ctx context.Context, id string, token int64) error {
	// The release does not wait for the disk (synchronous_commit off for
	// its transaction alone): it is visible to every other session at
	// once, and a database crash that loses it leaves the lease to expire
	// as a crashed holder's does. Safety never rests on it.
	var logged bool
	err := p.s.db().scan(ctx, p.s.q.sql(`WITH c AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true))
		UPDATE {leases} SET expires = 'epoch'
		WHERE namespace = $1 AND project = $2 AND session = $3 AND token = $4 AND EXISTS (SELECT 1 FROM c)
		RETURNING EXISTS (SELECT 1 FROM {sessions} WHERE namespace = $1 AND project = $2 AND session = $3)`),
		[]any{p.ns, p.project, id, token}, &logged)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // passed on, or removed by a Clear
	}
	if err != nil || logged {
		return err
	}
	// Best effort: the lease is released, and a row left is swept
	// (Store.Sweep).
	_ = p.forgetLease(ctx, id)
	return nil
}

// leaseTokensRow is the session column of a project's high-water row in
// the leases table (never a session id: ids do not start with a dot): its
// token is at least the token of every lease row of the project ever
// deleted, and a session's new row starts above it, so that a token is
// never given twice for a session while its rows come and go. A row
// (ended, of a session without a log) is deleted only in a transaction
// that holds this row locked FOR UPDATE and raises its token to the
// deleted row's; an Acquire reads it FOR KEY SHARE, so it either reads it
// before such a deletion (which then waits for the Acquire's transaction:
// the Acquire found the row, and went on from its token) or after (and
// starts above the deleted token). It never expires and is never
// deleted, and every Project makes sure it exists before its first
// Acquire (ensureTokensRow): an Acquire whose snapshot missed a row
// created in the deletion's own transaction would start at 1. A holder
// stopped past its TTL whose row was deleted meanwhile holds a token at
// most the mark, below every later one: its appends and renewals find no
// row with its token and fail, as they do once its lease passed on.
//
// The rows of a project are locked in one order, so that no two
// transactions wait for each other (PostgreSQL broke such a cycle by
// failing one of them with a deadlock error): this row first (an Acquire,
// a removal of lease rows, a Clear), then a session's lease row (FOR
// SHARE by a write: appendAt, lockSession), then the session's row, then
// its archive's row and the rest of its rows, the marks of forks last. A
// Clear takes every row of a class before the next class, each in key
// order.
const leaseTokensRow = ".lease-tokens"

// ensureTokensRow makes sure p's project has its high-water row (see
// leaseTokensRow), committed before p's first Acquire reads it.
func (p *Project) ensureTokensRow(ctx context.Context) error {
	if err := p.insertTokensRow(ctx, p.s.db()); err != nil {
		return err
	}
	p.mu.Lock()
	p.tokensReady = true
	p.mu.Unlock()
	return nil
}

// insertTokensRow inserts p's high-water row in tx unless it exists.
func (p *Project) insertTokensRow(ctx context.Context, tx db) error {
	_, err := tx.exec(ctx, p.s.q.sql(`INSERT INTO {leases} (namespace, project, session, holder, token, expires)
		VALUES ($1, $2, $3, 'lite-agent lease tokens', 0, 'epoch') ON CONFLICT DO NOTHING`), p.ns, p.project, leaseTokensRow)
	return err
}

// lockTokens locks p's high-water row FOR UPDATE in tx, creating it
// first if needed, before any lease row is deleted (see leaseTokensRow).
// It is taken before any lease row of the project in tx, as an Acquire
// takes it before its row.
func (p *Project) lockTokens(ctx context.Context, tx db) error {
	if err := p.insertTokensRow(ctx, tx); err != nil {
		return err
	}
	_, err := tx.exec(ctx, p.s.q.sql(`SELECT 1 FROM {leases} WHERE namespace = $1 AND project = $2 AND session = $3 FOR UPDATE`),
		p.ns, p.project, leaseTokensRow)
	return err
}

// forgetLease deletes the lease row of session id if it is not live and
// the session has no log (it was deleted, or never written), raising the
// project's high-water mark to its token first (see leaseTokensRow), so
// that the leases table holds rows of sessions that exist, and of live
// leases. Its own transaction, short: an Acquire of the project waits for
// it. A row another transaction holds locked (a write under way, or a
// holder stopped in the middle of one) is left, for a later removal or a
// sweep: waited for with the mark held, every Acquire of the project
// waited as long.
func (p *Project) forgetLease(ctx context.Context, id string) error {
	return p.s.tx(ctx, func(tx db) error {
		if err := p.lockTokens(ctx, tx); err != nil {
			return err
		}
		var n int
		if err := tx.scan(ctx, p.s.q.sql(`SELECT count(*) FROM (SELECT 1 FROM {leases}
			WHERE namespace = $1 AND project = $2 AND session = $3 FOR UPDATE SKIP LOCKED) r`),
			[]any{p.ns, p.project, id}, &n); err != nil || n == 0 {
			return err
		}
		_, err := tx.exec(ctx, p.s.q.sql(`WITH d AS (
				DELETE FROM {leases} l WHERE l.namespace = $1 AND l.project = $2 AND l.session = $3 AND l.expires < now()
				AND NOT EXISTS (SELECT 1 FROM {sessions} s WHERE s.namespace = $1 AND s.project = $2 AND s.session = $3)
				RETURNING l.token
			)
			UPDATE {leases} SET token = greatest(token, (SELECT max(token) FROM d))
			WHERE namespace = $1 AND project = $2 AND session = $4 AND EXISTS (SELECT 1 FROM d)`),
			p.ns, p.project, id, leaseTokensRow)
		return err
	})
}

// Token returns the lease's fencing token.
func (l *Lease) Token() int64 { return l.token }

// SessionID returns the leased session's id.
func (l *Lease) SessionID() string { return l.session }

// Err returns a *LeaseLostError once a renewal has found the lease taken by
// another holder, and nil while it is held.
func (l *Lease) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// renew extends the lease every third of its TTL until Release, or
// until the Store is closed (the lease then expires after its TTL: see
// Store.Close); a late lease (found by the check after a lost reply, its
// row written a check's time ago) is extended at once first, or its row
// could expire before the first tick and pass to another holder.
func (l *Lease) renew(late bool) {
	defer close(l.done)
	// A renewal under way when Release (or Close) comes is cancelled, so
	// that Release waits for no statement of a database that stopped
	// answering.
	stopped, stop := context.WithCancel(l.p.s.life)
	defer stop()
	go func() {
		select {
		case <-l.stop:
			stop()
		case <-stopped.Done():
		}
	}()
	tick := time.NewTicker(l.p.s.ttl / 3)
	defer tick.Stop()
	for first := late; ; first = false {
		if !first {
			select {
			case <-l.stop:
				return
			case <-stopped.Done():
				return
			case <-tick.C:
			}
		}
		// Both may be ready (a tick came while the last renewal waited):
		// a Release (or Close) wins.
		select {
		case <-l.stop:
			return
		case <-stopped.Done():
			return
		default:
		}
		// Only a lease not ended is extended: a renewal cancelled by
		// Release whose request reached the server after Release's
		// endLease (a network that delivered it late) would otherwise
		// revive the released lease, the session busy for a TTL with
		// nobody holding it. Ended is expires = 'epoch' (endLease); an
		// expired lease nobody took is still renewed, as its writes
		// still pass checkLease.
		ctx, cancel := context.WithTimeout(stopped, l.p.s.ttl/3)
		n, err := l.p.s.db().exec(ctx, l.p.s.q.sql(`UPDATE {leases} SET expires = now() + $5 * interval '1 millisecond'
			WHERE namespace = $1 AND project = $2 AND session = $3 AND token = $4 AND expires > 'epoch'`),
			l.p.ns, l.p.project, l.session, l.token, l.p.s.ttl.Milliseconds())
		cancel()
		if err == nil && n == 0 {
			l.mu.Lock()
			l.err = &LeaseLostError{SessionID: l.session, Token: l.token}
			l.mu.Unlock()
			return
		}
		// A failed renewal (database unreachable) is retried at the next
		// tick; the lease may expire meanwhile, which appends then detect.
	}
}

// Release stops renewing the lease and ends it, so that another process
// may acquire the session at once. The row of a session with a log stays,
// ended, and the next acquisition draws the next token; that of a session
// without one (deleted under the lease, or never written) is deleted once
// the project's high-water mark is raised to its token, so that the
// leases table does not keep a row per session id ever leased, and the
// next acquisition starts above the mark: a token is never given twice
// (see leaseTokensRow). Releasing twice is not an error. The release is
// not waited to disk: should the database crash right after it, the lease
// comes back and expires after its TTL. Releasing a nil or zero Lease (one
// not returned by Acquire) does nothing.
func (l *Lease) Release(ctx context.Context) error {
	if l == nil || l.p == nil {
		return nil
	}
	var err error
	l.once.Do(func() {
		close(l.stop)
		<-l.done
		l.p.mu.Lock()
		if l.p.leases[l.session] == l {
			delete(l.p.leases, l.session)
		}
		l.p.mu.Unlock()
		err = l.p.endLease(ctx, l.session, l.token)
		if err != nil {
			now := time.Now()
			l.p.s.settleMu.Lock()
			l.p.s.pruneUnreleased(now)
			if l.p.s.unreleased == nil {
				l.p.s.unreleased = map[leaseKey]unreleasedLease{}
			}
			// The lease was last renewed before now: it expires by
			// now + TTL at the latest.
			l.p.s.unreleased[leaseKey{l.p.ns, l.p.project, l.session}] = unreleasedLease{token: l.token, expires: now.Add(l.p.s.ttl)}
			l.p.s.settleMu.Unlock()
		}
	})
	return err
}

// An unreleasedLease is a lease of this Store whose Release failed (see
// Store.unreleased): its token, and when it has expired at the latest
// (by the client's monotonic clock).
type unreleasedLease struct {
	token   int64
	expires time.Time
}

// pruneUnreleased drops the entries of s.unreleased whose lease has
// expired by now: nobody needs to end them, the TTL did. Called with
// s.settleMu held.
func (s *Store) pruneUnreleased(now time.Time) {
	for k, u := range s.unreleased {
		if !now.Before(u.expires) {
			delete(s.unreleased, k)
		}
	}
}

// endUnreleased ends the lease of session key that a Release of this
// Store could not end (see Store.unreleased), before an Acquire of the
// session. Should it fail again, the Acquire goes on: it meets the lease
// as any other holder's (busy until its TTL), and the next Acquire tries
// again.
func (p *Project) endUnreleased(ctx context.Context, key leaseKey) {
	p.s.settleMu.Lock()
	p.s.pruneUnreleased(time.Now())
	u, ok := p.s.unreleased[key]
	p.s.settleMu.Unlock()
	if !ok || p.endLease(ctx, key.session, u.token) != nil {
		return
	}
	p.s.settleMu.Lock()
	if p.s.unreleased[key].token == u.token {
		delete(p.s.unreleased, key)
	}
	p.s.settleMu.Unlock()
}

// checkLease enforces the lease of session id inside a writing
// transaction: the lease row is locked (FOR SHARE) so that it cannot pass to
// another holder before the transaction ends. With a lease held through p,
// the row must still carry its token; without one, nobody else may hold a
// live lease.
func (p *Project) checkLease(ctx context.Context, tx db, id string) error {
	p.mu.Lock()
	mine := p.leases[id]
	p.mu.Unlock()
	var (
		holder string
		token  int64
		live   bool
		exp    time.Time
	)
	err := tx.scan(ctx, p.s.q.sql(`SELECT holder, token, expires > now(), expires FROM {leases}
		WHERE namespace = $1 AND project = $2 AND session = $3 FOR SHARE`), []any{p.ns, p.project, id}, &holder, &token, &live, &exp)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if mine != nil {
			return &LeaseLostError{SessionID: id, Token: mine.token}
		}
		return nil
	case err != nil:
		return err
	case mine != nil && token == mine.token:
		return nil
	case mine != nil:
		return &LeaseLostError{SessionID: id, Token: mine.token}
	case live:
		return &BusyError{SessionID: id, Holder: holder, Expires: exp}
	}
	return nil
}
