package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A Checkpointer is the [session.Checkpointer] of one project in a [Store].
// Each record is one row of the events table, keyed by (namespace, project,
// session, seq), holding the record's JSON line encoded with the project's
// storage.Encoding under the same storage.Context as a file log (kind
// checkpoint, scope the session id, record id the seq).
//
// Append is one transaction: it locks the session's row, checks
// expectedHead (a stale one is the *session.ConflictError of the file
// store) and the session's lease, and inserts the batch. When the head is
// known (expectedHead, or the head this Project last wrote) the whole
// append is a single statement, one round trip; otherwise, or when that
// statement finds the head moved or the lease in the way, a transaction of
// several finds the head and reports which. While another
// process holds a live lease on a session (see [Project.Acquire]), appends
// and truncations through any other Project fail with a *BusyError; the
// holder's own carry its fencing token, and fail with a *LeaseLostError if
// the lease has passed to someone else.
//
// An append whose connection is lost once its statement or its COMMIT has
// gone out (the server committed, the reply never came) is checked on a
// new connection: when the log holds its records, byte for byte, at their
// seqs, the append succeeds as it did in the database; otherwise it fails
// with the *DatabaseError, as one that wrote nothing. A statement that may
// still be running on the server (waiting for a lock, say) is waited for:
// the check reports a failure only once the backend it went to is gone,
// and cancels that backend's statement when it is still there halfway
// through the check's bound (the lease TTL). Neither a record twice nor a
// gap follows from a retry of a failed append, unless the check gave up
// (on a server that does not answer within the bound, one that is not the
// server the append ran on, or a backend that stays): an
// *OutcomeUnknownError.
//
// Get one from [Project.Checkpointer] or [Store.Checkpointer]: the zero
// Checkpointer is not usable.
type Checkpointer struct {
	p *Project
}

var _ session.Checkpointer = (*Checkpointer)(nil)

// Checkpointer returns the project's session store.
func (p *Project) Checkpointer() *Checkpointer { return p.cp }

// locator names a session in storage errors, in place of a file path.
func (p *Project) locator(table, scope string) string {
	return "postgres:" + p.s.schema + "." + table + "/" + p.ns + "/" + p.project + "/" + scope
}

func validID(id string) error {
	if err := storage.ValidateID(id); err != nil {
		return err
	}
	return nil
}

// lockSession checks the lease of session id (locking its lease row FOR
// SHARE), then locks the session's row (creating it first if create is
// set) and returns its head. It must run in tx. The lease row comes
// first, as in the one-statement append (appendAt) and in Clear, which
// locks every lease row of the project before every session row: in the
// other order, a Clear holding a session's row and waiting for its lease
// row, and a write holding that lease row and waiting for the session's,
// deadlocked (see leaseTokensRow).
func (c *Checkpointer) lockSession(ctx context.Context, tx db, id string, create bool) (head int64, exists bool, err error) {
	if err := c.p.checkLease(ctx, tx, id); err != nil {
		return 0, false, err
	}
	q := c.p.s.q
	// A concurrent Delete may remove the row between the insert and the
	// lock: insert again until the row is there and locked.
	for range 10 {
		if create {
			if _, err := tx.exec(ctx, q.sql(`INSERT INTO {sessions} (namespace, project, session, head, bytes, modified)
				VALUES ($1, $2, $3, 0, 0, now()) ON CONFLICT DO NOTHING`), c.p.ns, c.p.project, id); err != nil {
				return 0, false, err
			}
		}
		err = tx.scan(ctx, q.sql(`SELECT head FROM {sessions} WHERE namespace = $1 AND project = $2 AND session = $3 FOR UPDATE`),
			[]any{c.p.ns, c.p.project, id}, &head)
		if errors.Is(err, pgx.ErrNoRows) && create {
			continue
		}
		if errors.Is(err, pgx.ErrNoRows) {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, err
		}
		return head, true, nil
	}
	return 0, false, &DatabaseError{target: c.p.s.target, Err: errors.New("session row deleted repeatedly during append")}
}

// Append adds events to session id as one transaction; see
// [session.Checkpointer]. An append whose connection is lost once its
// request went out succeeds if its records are found stored (see
// landedAfterLostReply), fails with the *DatabaseError if they are not,
// and with an *OutcomeUnknownError naming the session and seqs if the
// database could not tell within the lease's TTL.
func (c *Checkpointer) Append(ctx context.Context, id string, events []session.Event, expectedHead int64) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := validID(id); err != nil {
		return 0, err
	}
	if len(events) == 0 {
		head, err := c.Head(ctx, id)
		if err != nil {
			return 0, err
		}
		if expectedHead >= 0 && head != expectedHead {
			return 0, &session.ConflictError{SessionID: id, Expected: expectedHead, Head: head}
		}
		return head, nil
	}
	// The fast path: one statement, with the records encoded for the head
	// expected (or last seen here), that checks head and lease in the
	// database. When it writes nothing, the head moved or the lease forbids
	// the write, and the full transaction below finds out which.
	// A session this process has not written yet is guessed new.
	guess := expectedHead
	if guess < 0 {
		guess, _ = c.p.heads.get(id)
	}
	ok, fast, err := c.appendAt(ctx, id, events, guess)
	if err != nil {
		var landed bool
		if landed, err = c.landedAfterLostReply(ctx, id, fast, err); landed {
			ok = true
		}
	}
	if err != nil {
		return 0, err
	}
	if ok {
		newHead := guess + int64(len(events))
		c.p.heads.set(id, newHead)
		return newHead, nil
	}
	var (
		newHead int64
		sent    batch // the records the transaction inserted, once it has
	)
	// A COMMIT whose reply is lost is asked after by the transaction's
	// id (see txLanded), which also ends a transaction stranded by a
	// partition rather than wait for its row locks.
	unknown := func(err, check error) error {
		return &OutcomeUnknownError{Op: "append", SessionID: id, Seqs: sent.seqs, Err: err, Check: check}
	}
	err = c.p.s.txLanded(ctx, func(tx db) error {
		head, _, err := c.lockSession(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if expectedHead >= 0 && head != expectedHead {
			return &session.ConflictError{SessionID: id, Expected: expectedHead, Head: head}
		}
		b, err := c.encodeBatch(ctx, id, events, head)
		if err != nil {
			return err
		}
		q := c.p.s.q
		if _, err := tx.exec(ctx, q.sql(`INSERT INTO {events} (namespace, project, session, seq, data)
			SELECT $1, $2, $3, s, d FROM unnest($4::bigint[], $5::bytea[]) AS b(s, d)`),
			c.p.ns, c.p.project, id, b.seqs, b.data); err != nil {
			return err
		}
		sent = b
		newHead = head + int64(len(events))
		// modified is the database's time, as every time the sweep
		// compares with its cutoff: hosts' clocks may disagree.
		_, err = tx.exec(ctx, q.sql(`UPDATE {sessions} SET head = $4, bytes = bytes + $5, modified = now()
			WHERE namespace = $1 AND project = $2 AND session = $3`), c.p.ns, c.p.project, id, newHead, b.total)
		return err
	}, unknown)
	if err != nil {
		return 0, err
	}
	c.p.heads.set(id, newHead)
	return newHead, nil
}

// landedAfterLostReply reports whether an append to session id in one
// statement (appendAt; a transaction's is asked after by Store.txLanded)
// that failed with err, having sent the records sent, was committed all
// the same: the connection was lost after the statement went out (err is
// neither the server's answer nor an error from before anything was sent),
// so the write may have landed though its reply never came. It looks, on
// a new connection, for sent's exact bytes at sent's seqs, after waiting
// for the session's row (which a write still running in its transaction
// holds): all there means the write landed, and the append succeeded (a
// false failure would make the caller retry a write already made, or give
// up a turn whose records are stored). Records not there are no answer
// while the backend the one-statement append went to (sent.backend: its
// process id, start and server's start) is still on the server: the statement may still be waiting (for the lease row,
// say, before it locks the session's row) and commit later, pgx's cancel
// of it being racy and lost with the network. The check looks again until
// that backend is gone (it goes when it finds its client gone, at the
// latest once its statement is done), and only then reports a failure;
// halfway through the bound it cancels the statement of a backend still
// there (pg_cancel_backend), whose records then never land. When it did
// not land, the error returned is err, or, when the check could not tell
// (it failed, or ctx ended, or the backend was still there after the
// bound, or the server answering is not the one the append ran on, known
// by its start time, which may still hold the records), an
// *OutcomeUnknownError naming the session and seqs. A look that cannot
// reach the server (see checkAgain) is made again. The check uses ctx,
// for at most the lease TTL, on a connection of its own (see checkConn).
func (c *Checkpointer) landedAfterLostReply(ctx context.Context, id string, sent batch, err error) (bool, error) {
	if len(sent.seqs) == 0 || ctx.Err() != nil || !lostReply(err) {
		return false, err
	}
	unknown := func(check error) error {
		return &OutcomeUnknownError{Op: "append", SessionID: id, Seqs: sent.seqs, Err: err, Check: check}
	}
	// A server that accepts the new connection and never answers must not
	// hold the caller for ever: the check gives up after a lease's TTL.
	ctx, cancel := c.p.s.checkBound(ctx)
	defer cancel()
	cc := &checkConn{s: c.p.s}
	defer cc.close()
	wait := 5 * time.Millisecond
	cancelAt, cancelled := time.Now().Add(c.p.s.ttl/2), false
	for {
		actx, acancel := context.WithTimeout(ctx, c.p.s.checkAttempt())
		landed, gone, same, lerr := c.lookForLanded(actx, cc, id, sent)
		again := lerr != nil && checkAgain(ctx, actx, lerr)
		acancel()
		switch {
		case landed:
			return true, nil
		case closedMeanwhile(ctx):
			return false, unknown(errChecksClosed)
		case again:
			// Out of reach for now (see checkAgain): looked again,
			// within the bound.
		case lerr != nil:
			return false, unknown(lerr)
		case !same:
			// Another server (failed over to), or this one restarted:
			// the records may be on the one the append ran on.
			return false, unknown(fmt.Errorf("the server answering is not the one (started %s) the append ran on: restarted or failed over", sent.backend.server.UTC().Format(time.RFC3339Nano)))
		case gone:
			return false, err
		}
		if !cancelled && time.Now().After(cancelAt) {
			// Still there halfway through: its statement is cancelled (as
			// pgx tried to), so that it does not commit after the check
			// gave up. Best effort: a statement that committed meanwhile
			// is found by the next look.
			cancelled = true
			actx, acancel := context.WithTimeout(ctx, c.p.s.checkAttempt())
			_ = cc.run(actx, func(d db) error {
				_, err := d.exec(actx, `SELECT pg_cancel_backend(pid) FROM pg_stat_activity
					WHERE pid = $1 AND backend_start = $2 AND pg_postmaster_start_time() = $3
					AND datname = current_database() AND usename = current_user`, int64(sent.backend.pid), sent.backend.startedArg(), sent.backend.server)
				return err
			})
			acancel()
		}
		select {
		case <-ctx.Done():
			if closedMeanwhile(ctx) {
				return false, unknown(errChecksClosed)
			}
			if lerr != nil {
				return false, unknown(fmt.Errorf("%w (the last attempt: %w)", ctx.Err(), lerr))
			}
			return false, unknown(ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// lookForLanded reports, in one transaction on cc, whether sent's records are
// in session id's log, whether the backend sent.backend had left the
// server before they were looked for (true when sent names none), and
// whether the server that answers is the one that backend ran on (its
// start time: a process id alone is handed out again, by another server
// after a failover, or by this one after a restart, or once the backend
// is gone, to an unrelated one).
func (c *Checkpointer) lookForLanded(ctx context.Context, cc *checkConn, id string, sent batch) (landed, gone, same bool, err error) {
	var got [][]byte
	err = cc.tx(ctx, func(tx db) error {
		gone, same = true, true
		if b := sent.backend; b.pid != 0 {
			// The backend is the store's: same database, same user, same
			// start (a pooler's made-up process id names no backend of
			// ours).
			if err := tx.scan(ctx, `SELECT pg_postmaster_start_time() = $3, NOT EXISTS (SELECT 1 FROM pg_stat_activity
				WHERE pid = $1 AND backend_start = $2 AND pg_postmaster_start_time() = $3
				AND datname = current_database() AND usename = current_user)`,
				[]any{int64(b.pid), b.startedArg(), b.server}, &same, &gone); err != nil {
				return err
			}
		}
		var head int64
		if err := tx.scan(ctx, c.p.s.q.sql(`SELECT head FROM {sessions}
			WHERE namespace = $1 AND project = $2 AND session = $3 FOR SHARE`),
			[]any{c.p.ns, c.p.project, id}, &head); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return nil // not written yet
			}
			return err
		}
		if head < sent.seqs[len(sent.seqs)-1] {
			return nil
		}
		return tx.each(ctx, c.p.s.q.sql(`SELECT data FROM {events}
			WHERE namespace = $1 AND project = $2 AND session = $3 AND seq = ANY($4::bigint[]) ORDER BY seq`),
			[]any{c.p.ns, c.p.project, id, sent.seqs}, func(rows pgx.Rows) error {
				var d []byte
				if err := rows.Scan(&d); err != nil {
					return err
				}
				got = append(got, d)
				return nil
			})
	})
	if err != nil || len(got) != len(sent.data) {
		return false, gone, same, err
	}
	for i := range got {
		if !bytes.Equal(got[i], sent.data[i]) {
			return false, gone, same, nil
		}
	}
	return true, gone, same, nil
}

// lostReply reports whether err, the error of a statement or a COMMIT,
// may be a connection lost once the request reached the server: a
// *DatabaseError that is not an answer of the server's. The driver's
// SafeToRetry is no guide: a COMMIT whose reply was lost can fail with
// its "conn closed", which it says is safe to retry.
func lostReply(err error) bool {
	var pe *pgconn.PgError
	if err == nil || errors.As(err, &pe) || errors.Is(err, ErrNotOpen) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var de *DatabaseError
	return errors.As(err, &de)
}

// batch is a batch of records encoded for their place in a log.
type batch struct {
	seqs  []int64
	data  [][]byte
	total int64
	now   time.Time
	// backend is the server's backend the records were sent to in one
	// statement outside a transaction (appendAt), zero when they
	// were sent in a transaction (whose outcome after a lost reply is asked
	// by its transaction id instead: see Store.txLanded).
	backend backendID
}

// encodeBatch encodes events as the records after head of session id.
func (c *Checkpointer) encodeBatch(ctx context.Context, id string, events []session.Event, head int64) (batch, error) {
	b := batch{seqs: make([]int64, len(events)), data: make([][]byte, len(events)), now: c.p.s.now().UTC().Truncate(time.Millisecond)}
	for i, ev := range events {
		seq := head + 1 + int64(i)
		rec := strconv.FormatInt(seq, 10)
		// MarshalJSON writes the log line compact; json.Marshal would
		// only scan and copy it again.
		line, err := session.StoredEvent{Seq: seq, SessionID: id, ParentSeq: seq - 1, Time: b.now, Event: ev}.MarshalJSON()
		if err != nil {
			return batch{}, &storage.Error{Op: "encode", Kind: storage.KindCheckpoint, File: c.p.locator("events", id), Record: rec, Message: "Event cannot be encoded"}
		}
		stored, err := c.p.enc.Encode(ctx, storage.KindCheckpoint, id, rec, line)
		if err != nil {
			return batch{}, atLocator(err, c.p.locator("events", id), rec)
		}
		b.seqs[i], b.data[i] = seq, stored
		b.total += int64(len(stored))
	}
	return b, nil
}

// leaseOK is the condition, on the lease row l locked FOR SHARE, under
// which a write may proceed: $8 is the token of the lease held through this
// Project (0 for none); with one, the row must still carry it; without one,
// nobody may hold a live lease. It is checkLease's rule, in SQL.
const leaseOK = `CASE WHEN $7::bigint > 0 THEN EXISTS (SELECT 1 FROM l WHERE l.token = $7::bigint)
	ELSE NOT EXISTS (SELECT 1 FROM l WHERE l.live) END`

// appendAt appends events to session id as the records after head in one
// statement (so one transaction and one round trip): it locks the lease
// row, then updates the session's row only if its head is head and the
// lease allows the write, and inserts the records only if it did. It
// reports whether it wrote; false means nothing was written.
func (c *Checkpointer) appendAt(ctx context.Context, id string, events []session.Event, head int64) (bool, batch, error) {
	b, err := c.encodeBatch(ctx, id, events, head)
	if err != nil {
		return false, batch{}, err
	}
	c.p.mu.Lock()
	var token int64
	if l := c.p.leases[id]; l != nil {
		token = l.token
	}
	c.p.mu.Unlock()
	// A session's row exists from its first append on; head 0 may also be
	// a session not written yet, which the insert creates.
	// modified is the database's time (see Append).
	upsert := `UPDATE {sessions} SET head = $5, bytes = bytes + $6, modified = now()
		WHERE namespace = $1 AND project = $2 AND session = $3 AND head = $4 AND ` + leaseOK + `
		RETURNING head`
	if head == 0 {
		upsert = `INSERT INTO {sessions} AS x (namespace, project, session, head, bytes, modified)
		SELECT $1, $2, $3, $5, $6, now() WHERE $4::bigint = 0 AND ` + leaseOK + `
		ON CONFLICT (namespace, project, session) DO UPDATE
			SET head = excluded.head, bytes = x.bytes + excluded.bytes, modified = excluded.modified
			WHERE x.head = 0
		RETURNING head`
	}
	var n int64
	sent := false // the statement may have reached the server
	err = c.p.s.onConn(ctx, func(d db, be backendID) error {
		sent, b.backend = true, be
		return d.scan(ctx, c.p.s.q.sql(`WITH l AS MATERIALIZED (
			SELECT token, expires > now() AS live FROM {leases}
			WHERE namespace = $1 AND project = $2 AND session = $3 FOR SHARE
		), s AS (`+upsert+`), e AS (
			INSERT INTO {events} (namespace, project, session, seq, data)
			SELECT $1, $2, $3, b.s, b.d FROM s, unnest($8::bigint[], $9::bytea[]) AS b(s, d)
		)
		SELECT count(*) FROM s`),
			[]any{c.p.ns, c.p.project, id, head, head + int64(len(events)), b.total, token, b.seqs, b.data}, &n)
	})
	if err != nil && !sent {
		return false, batch{}, err
	}
	if err != nil {
		return false, b, err
	}
	return n == 1, b, nil
}

// Read returns the records of session id after sinceSeq; see
// [session.Checkpointer]. A record that does not decode is a
// *storage.Error naming the session and seq; nothing is skipped.
func (c *Checkpointer) Read(ctx context.Context, id string, sinceSeq int64) ([]session.StoredEvent, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := validID(id); err != nil {
		return nil, err
	}
	var out []session.StoredEvent
	// Each row carries the session's head, so that the first sizes the
	// result once instead of growing it record by record.
	err := c.p.s.db().each(ctx, c.p.s.q.sql(`SELECT seq, data,
			(SELECT head FROM {sessions} WHERE namespace = $1 AND project = $2 AND session = $3)
		FROM {events}
		WHERE namespace = $1 AND project = $2 AND session = $3 AND seq > $4 ORDER BY seq`),
		[]any{c.p.ns, c.p.project, id, max(sinceSeq, 0)}, func(rows pgx.Rows) error {
			var seq, head int64
			var data []byte
			if err := rows.Scan(&seq, &data, &head); err != nil {
				return err
			}
			if out == nil {
				out = make([]session.StoredEvent, 0, min(max(head-seq+1, 1), 1<<20))
			}
			ev, err := c.decode(ctx, id, seq, data)
			if err != nil {
				return err
			}
			out = append(out, ev)
			return nil
		})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// decode returns the record seq of session id from its stored form.
func (c *Checkpointer) decode(ctx context.Context, id string, seq int64, data []byte) (session.StoredEvent, error) {
	rec := strconv.FormatInt(seq, 10)
	loc := c.p.locator("events", id)
	plain, err := c.p.enc.Decode(ctx, storage.KindCheckpoint, id, rec, data)
	if err != nil {
		return session.StoredEvent{}, atLocator(err, loc, rec)
	}
	// UnmarshalJSON checks the whole line itself (json.Unmarshal would
	// scan it twice).
	var ev session.StoredEvent
	if err := ev.UnmarshalJSON(plain); err != nil || ev.Seq != seq || ev.SessionID != id || ev.ParentSeq != seq-1 {
		return session.StoredEvent{}, &storage.Error{Op: "read", Kind: storage.KindCheckpoint, File: loc, Record: rec, Message: "Corrupt checkpoint record"}
	}
	return ev, nil
}

// Head returns the seq of the last record of session id, or 0.
func (c *Checkpointer) Head(ctx context.Context, id string) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := validID(id); err != nil {
		return 0, err
	}
	var head int64
	err := c.p.s.db().scan(ctx, c.p.s.q.sql(`SELECT head FROM {sessions} WHERE namespace = $1 AND project = $2 AND session = $3`),
		[]any{c.p.ns, c.p.project, id}, &head)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return head, nil
}

// List returns the project's sessions, most recently modified first.
func (c *Checkpointer) List(ctx context.Context) ([]session.Info, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var infos []session.Info
	err := c.p.s.db().each(ctx, c.p.s.q.sql(`SELECT session, modified FROM {sessions}
		WHERE namespace = $1 AND project = $2 ORDER BY modified DESC, session`), []any{c.p.ns, c.p.project}, func(r pgx.Rows) error {
		var in session.Info
		if err := r.Scan(&in.ID, &in.ModTime); err != nil {
			return err
		}
		infos = append(infos, in)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return infos, nil
}

// Delete removes the log of session id (not its archive or task list: see
// [Project.DeleteSession]). An unknown session is not an error. A session
// leased by another process is a *BusyError.
func (c *Checkpointer) Delete(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := validID(id); err != nil {
		return err
	}
	defer c.p.heads.forget(id)
	err := c.p.s.tx(ctx, func(tx db) error {
		// With create, the session's row is locked even when this
		// transaction cannot see it yet (see deleteLog).
		if _, _, err := c.lockSession(ctx, tx, id, true); err != nil {
			return err
		}
		return c.p.deleteLog(ctx, tx, id)
	})
	if err != nil {
		return err
	}
	_ = c.p.forgetLease(ctx, id) // the lease row, unless live; best effort, as in DeleteSession
	return nil
}

// deleteLog deletes the records and the row of session id. The caller
// holds the row's lock, taken with lockSession's create: without a row to
// lock, an append committing between this function's two statements (each
// with its own snapshot) left records the first did not see and no row
// the second did, and the next append of the session failed on a
// duplicate key.
func (p *Project) deleteLog(ctx context.Context, tx db, id string) error {
	q := p.s.q
	if _, err := tx.exec(ctx, q.sql(`DELETE FROM {events} WHERE namespace = $1 AND project = $2 AND session = $3`), p.ns, p.project, id); err != nil {
		return err
	}
	_, err := tx.exec(ctx, q.sql(`DELETE FROM {sessions} WHERE namespace = $1 AND project = $2 AND session = $3`), p.ns, p.project, id)
	return err
}

// Truncate drops the records of session id after toSeq; see
// [session.Checkpointer]. A truncation whose connection is lost once its
// COMMIT went out succeeds if it committed (a retry with expectedHead
// would fail with a *session.ConflictError), and fails with an
// *OutcomeUnknownError if the database cannot tell (see Store.txLanded).
func (c *Checkpointer) Truncate(ctx context.Context, id string, toSeq, expectedHead int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := validID(id); err != nil {
		return err
	}
	defer c.p.heads.forget(id)
	unknown := func(err, check error) error {
		return &OutcomeUnknownError{Op: "truncate", SessionID: id, Err: err, Check: check}
	}
	return c.p.s.txLanded(ctx, func(tx db) error {
		head, exists, err := c.lockSession(ctx, tx, id, false)
		if err != nil {
			return err
		}
		if expectedHead >= 0 && head != expectedHead {
			return &session.ConflictError{SessionID: id, Expected: expectedHead, Head: head}
		}
		if toSeq < 0 || toSeq > head {
			return &session.RangeError{SessionID: id, ToSeq: toSeq, Head: head}
		}
		if !exists || toSeq == head {
			return nil
		}
		q := c.p.s.q
		if _, err := tx.exec(ctx, q.sql(`DELETE FROM {events} WHERE namespace = $1 AND project = $2 AND session = $3 AND seq > $4`),
			c.p.ns, c.p.project, id, toSeq); err != nil {
			return err
		}
		_, err = tx.exec(ctx, q.sql(`UPDATE {sessions} SET head = $4, modified = now(),
			bytes = (SELECT coalesce(sum(length(data)), 0) FROM {events} WHERE namespace = $1 AND project = $2 AND session = $3)
			WHERE namespace = $1 AND project = $2 AND session = $3`), c.p.ns, c.p.project, id, toSeq)
		return err
	}, unknown)
}

// headCache remembers the head each session had after this process last
// wrote it, so that an Append with session.AnyHead can encode its records
// for their place without reading the head first. It is only a guess: the
// database checks it, and a stale one costs a retry, never a wrong write.
type headCache struct {
	mu sync.Mutex
	m  map[string]int64
}

func (h *headCache) get(id string) (int64, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v, ok := h.m[id]
	return v, ok
}

func (h *headCache) set(id string, head int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[string]int64{}
	}
	h.m[id] = head
}

func (h *headCache) forget(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.m, id)
}

// atLocator names the row in a *storage.Error that does not name one yet;
// other errors pass unchanged.
func atLocator(err error, loc, record string) error {
	var se *storage.Error
	if !errors.As(err, &se) {
		return err
	}
	if se.File != "" {
		loc = ""
	}
	if se.Record != "" {
		record = ""
	}
	return se.At(loc, record)
}
