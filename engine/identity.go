package engine

import (
	"context"
	"crypto/sha256"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"weak"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

// The session the engine knows under an id is told from another one
// started under the same id (after the first was deleted, by another
// process say) by its first record: records are never rewritten, a
// restore keeps the first record unless it empties the log, and a
// compaction appends a view. The engine learns the first record of a
// session when a turn first loads it (or writes it, reading it back),
// or when a caller asks ([Engine.Identify]); from then on a turn, a
// record between turns or a compaction that finds another first record
// under the id fails with a *session.ReplacedError and writes nothing. It
// is checked under the session's lock (a [session.Holder]'s; a lease,
// which a store's delete respects, covers the whole operation): when a
// turn loads the log, and when a turn takes the lock again after letting
// it go while it waited on the model or a tool. A log found empty tells
// nothing: the session's marks (ExpectStored) decide whether it is gone,
// and the record the engine then writes first is the session's new first
// record.
//
// What cannot be told apart: a log emptied by a restore to its start and
// then written by another process is taken for a replacement, since
// nothing the engine knew of the session is left in it.
//
// The engine keeps the digest (32 bytes, about 100 bytes with its id) of
// each session it has worked on until told otherwise: [Engine.Unidentify]
// makes it take whichever session is stored next, and
// [Engine.DropIdentities] forgets the sessions a long-lived caller is done
// with (liteagent.Agent drops those it left that have no work under way).
// What the engine then does with a session it knows nothing of, when a
// turn finds it with records, is Options.IdentifiedOnly's: take it as
// stored (the default), or refuse it with an *UnidentifiedError, so that
// a dropped entry never makes the engine take a session replaced since.

// firstSum is the digest of a session's first record as stored: its
// seq, session id, time (to the millisecond) and event.
type firstSum [sha256.Size]byte

// sumOf returns the digest of first.
func sumOf(first session.StoredEvent) (firstSum, error) {
	b, err := first.MarshalJSON()
	if err != nil {
		return firstSum{}, err
	}
	return sha256.Sum256(b), nil
}

// takeStored is what the engine knows under an id it was told to take as
// stored ([Engine.Unidentify]): the digest of no record.
func takeStored() firstSum { return firstSum{} }

// An UnidentifiedError reports that an engine that takes only sessions it
// was told of (Options.IdentifiedOnly) found records under SessionID,
// where it knows no session: nothing was written. [Engine.Identify] or
// [Engine.Unidentify] tells it which session to take.
type UnidentifiedError struct {
	// SessionID is the session found.
	SessionID string
}

// Error says which session was refused.
func (e *UnidentifiedError) Error() string {
	return "engine: session " + e.SessionID + " has records but is not identified (resume it to take it as stored); nothing was written"
}

// knownFirst returns the digest of the first record of the session the
// engine knows under id, and whether it knows one.
func (e *Engine) knownFirst(id string) (firstSum, bool) {
	s, ok := e.entry(id)
	return s, ok && s != takeStored()
}

// entry returns what the engine knows under id: a digest, takeStored, or
// nothing (false).
func (e *Engine) entry(id string) (firstSum, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	c, ok := e.known[id]
	if !ok || c.none {
		return firstSum{}, false
	}
	return c.sum, true
}

// A knownCell holds what the engine knows under one id. A turn that
// learns the session's first record updates the cell in place, so that a
// [Pin] taken before sees what was learned since. Its fields are guarded
// by Engine.mu.
type knownCell struct {
	sum firstSum
	// none marks the cell a Pin made where the engine knew nothing: the
	// engine still knows nothing under the id until something is learned
	// into it.
	none bool
	// deleted marks the session of the cell deleted by the engine's
	// caller ([Engine.Deleting]): a turn pinned to it fails.
	deleted bool
	// fwd is the cell that took this one's place when a Pin of another
	// cell was reinstated over it (see Engine.Reinstate).
	fwd *knownCell
}

// resolved returns the cell that stands for c now, following fwd. The
// caller holds Engine.mu.
func (c *knownCell) resolved() *knownCell {
	for c != nil && c.fwd != nil {
		c = c.fwd
	}
	return c
}

// Identified reports whether the engine knows a session under id, or was
// told to take the one stored ([Engine.Unidentify]).
func (e *Engine) Identified(id string) bool {
	_, ok := e.entry(id)
	return ok
}

// DropIdentities forgets what the engine knows under every id but those
// keep reports true for, and returns how many it forgot. keep is called
// with the engine's lock held: it must not call the engine. A session
// dropped is then one the engine knows nothing of (see
// Options.IdentifiedOnly).
func (e *Engine) DropIdentities(keep func(id string) bool) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for id := range e.known {
		if !keep(id) {
			delete(e.known, id)
			n++
		}
	}
	return n
}

// setKnown makes sum the first record the engine knows under id.
func (e *Engine) setKnown(id string, sum firstSum) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.setKnownLocked(id, sum)
}

// setKnownLocked is setKnown with e.mu held.
func (e *Engine) setKnownLocked(id string, sum firstSum) {
	if c := e.known[id]; c != nil {
		c.sum, c.none = sum, false
		return
	}
	if e.known == nil {
		e.known = map[string]*knownCell{}
	}
	e.known[id] = &knownCell{sum: sum}
}

// Identify makes the session stored under id now the one the engine
// knows under id, as resuming it does: it reads its first record. A log
// with no records makes the engine know none, as [Engine.Unidentify]
// does; the record a turn then writes first is the session's.
func (e *Engine) Identify(ctx context.Context, id string) error {
	first, ok, err := session.ReadFirst(ctx, e.opts.Checkpointer, id)
	if err != nil {
		return fmt.Errorf("read session %s: %w", id, err)
	}
	if !ok {
		e.Unidentify(id)
		return nil
	}
	sum, err := sumOf(first)
	if err != nil {
		return fmt.Errorf("read session %s: %w", id, err)
	}
	e.setKnown(id, sum)
	return nil
}

// Unidentify forgets which session the engine knows under id: the next
// turn on id takes whichever is stored then, as after [Engine.Identify].
// Call it when the caller means the id as it is (a resume of it that asks
// nothing), or has itself emptied the session's log. With
// Options.IdentifiedOnly the engine keeps that it was told so (a few
// bytes) until the next turn learns the session; otherwise it keeps
// nothing of id.
func (e *Engine) Unidentify(id string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.opts.IdentifiedOnly {
		if c := e.known[id]; c != nil {
			c.sum = takeStored() // a Pin of it takes what is stored too
		}
		delete(e.known, id)
		return
	}
	e.setKnownLocked(id, takeStored())
}

// A Pin holds what an engine knows of the session under one id (see
// [Engine.Pin]). The zero Pin holds nothing.
type Pin struct {
	id   string
	cell *knownCell
	mark *sessionMark
}

// Pin returns what the engine knows of session id now: the session it
// knows under id, followed as turns learn it, and the session's mark
// ([Engine.ExpectNew], [Engine.ExpectStored]). It is for a caller that
// acts on the session later and must act on that session even if the
// engine was told to forget it meanwhile (liteagent's Run, whose turn
// runs when its sequence is ranged over, after the agent may have left
// the session and dropped it): see [Engine.Reinstate] and
// [Engine.TurnPinned]. Where the engine knows nothing under id, it keeps
// an entry that says so, which a turn that learns the session fills in
// (dropped like any by [Engine.DropIdentities]). A Pin keeps about 100
// bytes while it is referenced.
func (e *Engine) Pin(id string) Pin {
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.known[id]
	if c == nil {
		c = &knownCell{none: true}
		if e.known == nil {
			e.known = map[string]*knownCell{}
		}
		e.known[id] = c
	}
	// Listed once per cell: every turn takes a pin, mostly of the same
	// cell, and a list per Pin grew for as long as the session was known.
	w := weak.Make(c)
	live := e.pinnedCells(id)
	if !slices.Contains(live, w) {
		if e.pinned == nil {
			e.pinned = map[string][]weak.Pointer[knownCell]{}
		}
		e.pinned[id] = append(live, w)
		// Once the cell is gone, its entry goes, and the id's key with
		// the last: otherwise the key of every id ever pinned stayed
		// until the next Pin or Deleting of that id.
		runtime.AddCleanup(c, prunePins, pinsOf{e: weak.Make(e), id: id})
	}
	return Pin{id: id, cell: c, mark: e.marks[id]}
}

// pinsOf names the weak pin list of id in engine e, for the cleanup of a
// cell listed there (weakly: a cell outliving its engine keeps nothing).
type pinsOf struct {
	e  weak.Pointer[Engine]
	id string
}

// prunePins drops the entries of cells gone from the pin list of p.id,
// and the id once none is left.
func prunePins(p pinsOf) {
	e := p.e.Value()
	if e == nil {
		return
	}
	e.mu.Lock()
	e.pinnedCells(p.id)
	e.mu.Unlock()
}

// pinnedCells returns the weak pointers to the cells of the pins of id
// still alive, dropping the others (and the id once none is left). The
// caller holds e.mu.
func (e *Engine) pinnedCells(id string) []weak.Pointer[knownCell] {
	ws := e.pinned[id]
	live := ws[:0]
	for _, w := range ws {
		if w.Value() != nil {
			live = append(live, w)
		}
	}
	clear(ws[len(live):])
	if len(live) == 0 {
		delete(e.pinned, id)
		return nil
	}
	e.pinned[id] = live
	return live
}

// Reinstate makes the engine know again what p holds, when it knows
// nothing under p's id now ([Engine.DropIdentities] forgot it since the
// pin was taken): the session under the id as known then, or as a turn
// has learned it since, and its mark, unless a record written or a load
// that found records has used the mark up since. A session p knew with
// records and no mark left is marked as [Engine.ExpectStored] marks one
// (see Options.EmptiedKept): the engine forgot it, so a log found empty
// would otherwise be written as a new session, where it is most likely
// the session deleted, and the turn fails with a *session.NotFoundError.
// Where the engine knows something under the id (told since by
// [Engine.Identify] or [Engine.Unidentify], or learned by a turn) it
// changes nothing. Meant for an engine with Options.IdentifiedOnly, whose
// every session in use is known: without it, an id the caller told to
// take as stored is one the engine knows nothing of, and a pin taken
// before would be reinstated. Call it once the session is counted as in
// use, where the caller drops only sessions not in use, so that it is not
// dropped again before the turn loads it.
func (e *Engine) Reinstate(p Pin) {
	if p.id == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	pc := p.cell.resolved()
	cur := e.known[p.id]
	switch {
	case cur == pc || pc == nil || pc.none || pc.deleted:
		return // a deleted session's pinned turn fails (pinDeleted); later pins must not take its cell
	case cur != nil && !cur.none:
		return
	case cur != nil:
		cur.fwd = pc // pins of the entry that said "nothing" follow p's
	}
	if e.known == nil {
		e.known = map[string]*knownCell{}
	}
	e.known[p.id] = pc
	if p.mark != nil && !p.mark.spent && e.marks[p.id] == nil {
		if e.marks == nil {
			e.marks = map[string]*sessionMark{}
		}
		e.marks[p.id] = p.mark
	}
	if pc.sum != takeStored() && e.marks[p.id] == nil {
		if e.marks == nil {
			e.marks = map[string]*sessionMark{}
		}
		e.marks[p.id] = &sessionMark{fail: e.emptiedGone(p.id)}
	}
}

// A DeletedError reports that the session a pinned turn
// ([Engine.TurnPinned]) was called on was deleted by the engine's caller
// since ([Engine.Deleting]): nothing was written. It matches
// session.ErrNotFound (it unwraps to a *session.NotFoundError).
type DeletedError struct {
	// SessionID is the session deleted.
	SessionID string
}

// Error says which session was deleted.
func (e *DeletedError) Error() string {
	return "engine: session " + e.SessionID + " was deleted after the turn was called; nothing was written"
}

// Unwrap returns the *session.NotFoundError of the session.
func (e *DeletedError) Unwrap() error { return &session.NotFoundError{SessionID: e.SessionID} }

// Deleting tells the engine that its caller deletes session id: turns
// pinned to the session as known now ([Engine.Pin], [Engine.TurnPinned]),
// and every pin of id taken before that is still held (also of a session
// the engine has forgotten since: [Engine.DropIdentities]), fail with a
// *DeletedError from now on and write nothing, even when the
// id is started again. What the engine knows under id stays as it was
// for turns called from now on (a prompt after the delete starts the id
// again). Call it before the delete cancels the session's turns, so that
// a turn starts either before that cancellation or after this mark;
// failed undoes the mark when the delete fails.
func (e *Engine) Deleting(id string) (failed func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.known[id]
	// The pins of id taken before, also of a session the engine forgot
	// since (the agent left it, and a Run asked for then was not ranged
	// over yet), are of the session deleted: their turns fail.
	var marked []*knownCell
	for _, w := range e.pinnedCells(id) {
		if pc := w.Value().resolved(); pc != nil && pc != c && !pc.deleted {
			pc.deleted = true
			marked = append(marked, pc)
		}
	}
	unmark := func() {
		for _, pc := range marked {
			pc.deleted = false
		}
	}
	if c == nil {
		return func() {
			e.mu.Lock()
			defer e.mu.Unlock()
			unmark()
		}
	}
	c.deleted = true
	n := &knownCell{sum: c.sum, none: c.none}
	e.known[id] = n
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		unmark()
		c.deleted = false
		// The pins of c follow n from now on: a later delete marks what
		// the engine knows then, which they would otherwise miss.
		if n.resolved() != c {
			c.fwd = n
		}
	}
}

// pinDeleted returns the *DeletedError of a turn whose pin's session was
// deleted since, or nil.
func (r *run) pinDeleted() error {
	if r.pin == nil {
		return nil
	}
	r.e.mu.Lock()
	deleted := r.pin.resolved().deleted
	r.e.mu.Unlock()
	if deleted {
		return &DeletedError{SessionID: r.id}
	}
	return nil
}

// TurnPinned runs a turn like [Engine.Turn] on the session p holds (p's
// id), for a caller that took p when the turn was asked for: once the
// caller has deleted that session since ([Engine.Deleting]), the turn
// fails with a *DeletedError and writes nothing, checked when it loads
// the log and before each append (a delete that begins later cancels the
// turn, and its appends find the log gone). Call [Engine.Reinstate]
// first where the engine may have forgotten the session.
func (e *Engine) TurnPinned(ctx context.Context, p Pin, prompt model.Message) iter.Seq2[Event, error] {
	return e.turnFrom(ctx, p.id, prompt, session.OriginUser, p.cell)
}

// CheckSame returns a *session.ReplacedError when log, the records of
// session id as the caller just read them (under the session's lock or
// lease, to act on them), begins with another first record than the
// session the engine knows under id; nil when it begins with the same,
// when it is empty, or when the engine knows no session under id.
func (e *Engine) CheckSame(id string, log []session.StoredEvent) error {
	if len(log) == 0 {
		return nil
	}
	return e.sameFirst(id, &log[0], false)
}

// CheckStored returns a *session.ReplacedError when the session stored
// under id now begins with another first record than the session the
// engine knows under id; nil when it begins with the same, when it has no
// records, or when the engine knows no session under id. It reads the
// first record: call it under the session's lock or lease, right before
// acting on the session.
func (e *Engine) CheckStored(ctx context.Context, id string) error {
	if _, ok := e.knownFirst(id); !ok {
		return nil
	}
	first, ok, err := session.ReadFirst(ctx, e.opts.Checkpointer, id)
	if err != nil {
		return fmt.Errorf("read session %s: %w", id, err)
	}
	if !ok {
		return nil
	}
	return e.sameFirst(id, &first, false)
}

// sameFirst checks first, the first record stored under id, against the
// one the engine knows: a *session.ReplacedError when they differ. When
// the engine knows none, adopt makes first the one it knows.
//
// An engine that takes only sessions it was told of
// (Options.IdentifiedOnly) adopts first only where told to take the
// session stored; where it knows nothing it fails with an
// *UnidentifiedError.
func (e *Engine) sameFirst(id string, first *session.StoredEvent, adopt bool) error {
	known, told := e.entry(id)
	ok := told && known != takeStored()
	if !ok && !adopt {
		return nil
	}
	if !told && e.opts.IdentifiedOnly {
		return &UnidentifiedError{SessionID: id}
	}
	sum, err := sumOf(*first)
	if err != nil {
		return fmt.Errorf("read session %s: %w", id, err)
	}
	switch {
	case !ok:
		e.setKnown(id, sum)
	case sum != known:
		return &session.ReplacedError{SessionID: id}
	}
	return nil
}

// checkFirst checks, for a turn that loaded the log (head records; first,
// when the load read it, its first record), that the session stored
// under the id is the one the engine knows, and makes it the one the
// engine knows when it knows none. Without first it reads the first
// record: one small read.
func (r *run) checkFirst(ctx context.Context, first *session.StoredEvent) error {
	if r.st.head == 0 {
		return nil // nothing to tell: the marks decide
	}
	if first == nil {
		rec, ok, err := session.ReadFirst(ctx, r.e.opts.Checkpointer, r.id)
		if err != nil {
			return fmt.Errorf("read session %s: %w", r.id, err)
		}
		if !ok {
			return nil // emptied since the head was read: the append's head check fails
		}
		first = &rec
	}
	if err := r.e.sameFirst(r.id, first, true); err != nil {
		return err
	}
	r.checked = true
	return nil
}

// A leaseHolder is a Checkpointer that leases sessions to one writer at
// a time (liteagent.SessionLeaser: store/postgres's) and tells whether it
// holds the lease of a session now: while it does, no other process
// deletes the session. Whether a checkpointer can lease says nothing of
// whether the lease was taken (the engine on its own takes none).
type leaseHolder interface {
	Leased(id string) bool
}

// recheck is the check, before an append, of a turn whose checkpointer
// holds nothing (neither a [session.Holder] nor a lease of the session
// held now, see leaseHolder): with no lock
// to take again, and so no check when it is taken (stillSame), a session
// deleted and started again by another process while the turn waited on
// the model or a tool would take the turn's later records whenever its
// head matched. The first record is read again before each append but
// the first after a load, which has just checked it: one small read per
// append ([session.FirstReader]'s, or a whole Read without one). What
// happens between that read and the append is not seen: a checkpointer
// that must rule it out holds sessions. A pinned turn whose session its
// caller deleted since fails first (see TurnPinned).
func (r *run) recheck(ctx context.Context) error {
	if err := r.pinDeleted(); err != nil {
		return err
	}
	if r.checked {
		r.checked = false
		return nil
	}
	if r.lock != nil || r.st.head == 0 {
		return nil
	}
	if l, ok := r.e.opts.Checkpointer.(leaseHolder); ok && l.Leased(r.id) {
		return nil
	}
	return r.stillSame(ctx)
}

// stillSame is the check of a turn that takes the session's lock again:
// the session under the id must still be the one the engine knows (an
// emptied log fails the append's head check).
func (r *run) stillSame(ctx context.Context) error {
	return r.e.CheckStored(ctx, r.id)
}

// learnFirst reads back the first record the turn has just written, at
// head 0, under the session's lock, and makes it the one the engine knows.
// A failure to read it makes the engine know none: the next load takes the
// session then stored.
func (r *run) learnFirst(ctx context.Context) {
	// Not cut short by the turn's cancellation: the record is written,
	// and a session known by none would be any session under the id.
	first, ok, err := session.ReadFirst(context.WithoutCancel(ctx), r.e.opts.Checkpointer, r.id)
	if err == nil && ok {
		var sum firstSum
		if sum, err = sumOf(first); err == nil {
			r.e.setKnown(r.id, sum)
			return
		}
	}
	if err != nil {
		r.e.log.Warn("first record not read back", "session", r.id, "err", err)
	}
	r.e.Unidentify(r.id)
}
