package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"
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
	// import" or "spilled body import" and its ref.
	Op string
	// SessionID is the session written (for an append or truncation),
	// ListID the task list (for a task list write).
	SessionID string
	ListID    string
	// Seqs are the seqs an append sent the records at.
	Seqs []int64
	// Err is the write's error (a *DatabaseError); Check is why the check
	// could not tell (a *DatabaseError, or context.DeadlineExceeded).
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
// (txid_status of its id, read first in the transaction): committed is
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
// ended. A check that cannot tell is an
// *OutcomeUnknownError made by unknown from the write's error and the
// check's. For writes a retry of which is not harmless (a truncation with
// an expected head, a task created twice).
func (s *Store) txLanded(ctx context.Context, fn func(db) error, unknown func(err, check error) error) error {
	var (
		xid     int64     // 0 until the transaction's id is known
		pid     int32     // its backend's process id
		started time.Time // its server's start
	)
	err := s.tx(ctx, func(tx db) error {
		if err := tx.scan(ctx, `SELECT txid_current(), pg_backend_pid(), pg_postmaster_start_time()`, nil, &xid, &pid, &started); err != nil {
			xid = 0
			return err
		}
		return fn(tx)
	})
	if err == nil || xid == 0 || ctx.Err() != nil || !lostReply(err) {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, s.ttl)
	defer cancel()
	wait := 5 * time.Millisecond
	endAt, ended := time.Now().Add(s.ttl/2), false
	for {
		if !ended && time.Now().After(endAt) {
			// Best effort: a backend gone, or in another transaction
			// (a pooler's), is left alone; the next look tells.
			ended = true
			_, _ = s.db().exec(cctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
				WHERE pid = $1 AND backend_xid::text = ($2::bigint % 4294967296)::text
				AND datname = current_database() AND usename = current_user
				AND pg_postmaster_start_time() = $3`, pid, xid, started)
		}
		var (
			status *string
			same   bool
		)
		cerr := s.db().scan(cctx, `SELECT txid_status($1), pg_postmaster_start_time() = $2`, []any{xid, started}, &status, &same)
		switch {
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
			return nil
		case *status == "aborted":
			return err
		}
		select {
		case <-cctx.Done():
			return unknown(err, cctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}
