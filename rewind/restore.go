package rewind

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/lite-agent/lite-agent-go/session"
)

// Files reads, writes and deletes the workspace files that snapshots name,
// by their recorded paths. *builtin.FileRestorer implements it with the
// rules of the mutating file tools (inside the workspace, no symbolic
// links, protected paths refused, atomic writes).
type Files interface {
	// Canonical returns the path p resolves to, in the form snapshots
	// record; a path the rules refuse is an error.
	Canonical(ctx context.Context, p string) (string, error)
	// Read returns the file's content and whether it exists.
	Read(ctx context.Context, p string) (data []byte, exists bool, err error)
	// Write replaces the file with data, atomically.
	Write(ctx context.Context, p string, data []byte) error
	// Remove deletes the file; a missing file is not an error.
	Remove(ctx context.Context, p string) error
}

// Options says what a restore does. The zero value restores both the
// files and the conversation.
type Options struct {
	// FilesOnly restores the files and leaves the log as it is.
	FilesOnly bool
	// ConversationOnly truncates the log and leaves the files as they
	// are; snapshots that did not keep a file's content do not matter.
	ConversationOnly bool
	// DryRun checks and plans everything, preflight included, and returns
	// the plan without changing anything.
	DryRun bool
	// Check, when not nil, is called with the head of the log the restore
	// read, right after the read: with the session held when the
	// checkpointer is a session.Holder, and before anything is changed or
	// planned. An error from it fails the restore as it is, with nothing
	// changed. The truncate expects the head Check saw, so a write after
	// the check (through a checkpointer that holds nothing) fails the
	// restore with a *session.ConflictError. A caller that must know the
	// session is still its own to restore (liteagent's Restore of a
	// session it started, which another process may have written) checks
	// here: a check before the restore takes the lock misses a write made
	// in between.
	Check func(head int64) error
}

// A FileChange is one file a restore puts back.
type FileChange struct {
	// Path is the file, as [Files.Canonical] resolves the path its
	// snapshots record (in the form snapshots record), so that one file
	// recorded under two spellings is one change.
	Path string `json:"path"`
	// Delete reports that the file did not exist at the checkpoint, so the
	// restore deletes it; otherwise it writes the recorded content.
	Delete bool `json:"delete,omitempty"`
}

// A Result is what a restore did or, for a dry run, would do.
type Result struct {
	SessionID string `json:"sessionId"`
	// ToSeq is the checkpoint restored to; Head the log's head before.
	ToSeq int64 `json:"toSeq"`
	Head  int64 `json:"head"`
	// Files are the files restored (or to restore), in the order the log
	// first changed them after ToSeq; empty for a conversation-only
	// restore.
	Files []FileChange `json:"files"`
	// DroppedEvents is how many records the log loses (Head - ToSeq), 0
	// for a files-only restore.
	DroppedEvents int64 `json:"droppedEvents"`
	// ConversationRestored reports that the log was (or would be)
	// truncated to ToSeq.
	ConversationRestored bool `json:"conversationRestored"`
	// DryRun reports that nothing was changed.
	DryRun bool `json:"dryRun,omitempty"`
}

// A Phase is the stage a restore reports progress at.
type Phase string

// The phases of a restore, in order; PhaseError replaces PhaseDone when
// the restore fails after it started changing things.
const (
	PhaseStart    Phase = "start"
	PhaseProgress Phase = "progress"
	PhaseDone     Phase = "done"
	PhaseError    Phase = "error"
)

// Progress is one report of a restore (not of a dry run): at the start,
// after each file, at the end or at a failure. Completed counts the steps
// done out of Total: one per file, plus one for the conversation.
type Progress struct {
	Phase            Phase
	SessionID        string
	ToSeq            int64
	Completed, Total int
	// Message says what failed, on PhaseError, or which file was just
	// restored, on PhaseProgress.
	Message string
	// Err is the error the restore fails with, on PhaseError (Message is
	// its text), for errors.As: a *FileError, a *RollbackError, the
	// checkpointer's error. It is nil on the other phases.
	Err error
}

// ErrNoTruncate is matched by every *[NoTruncateError].
var ErrNoTruncate = errors.New("conversation restore requires a checkpointer that supports truncate")

// A NoTruncateError reports a conversation restore through a checkpointer
// whose Truncate fails with an error matching [errors.ErrUnsupported].
// Nothing was changed.
type NoTruncateError struct{ SessionID string }

// Error names the session whose log cannot be truncated.
func (e *NoTruncateError) Error() string {
	return "session " + e.SessionID + ": " + ErrNoTruncate.Error() + "; use a files-only restore"
}

// Is reports whether target is [ErrNoTruncate].
func (e *NoTruncateError) Is(target error) bool { return target == ErrNoTruncate }

// The reasons a *[FileError] gives.
var (
	// ErrTruncatedSnapshot: the snapshot to restore did not keep the
	// file's content.
	ErrTruncatedSnapshot = errors.New("its snapshot was truncated; use a conversation-only restore")
	// ErrChangedOutside: the file is not what the last recorded
	// operation left (nor what it found), so something else changed it.
	ErrChangedOutside = errors.New("changed outside the recorded operation; refusing to overwrite it")
	// ErrChangedDuring: the file changed between the preflight and its
	// restore.
	ErrChangedDuring = errors.New("changed during restore")
	// ErrUnverifiableSnapshot: the last snapshot of the file does not
	// record what its operation left (a log older than the after hash, or
	// one written by hand), so nothing shows that the file on disk is the
	// agent's to overwrite or delete.
	ErrUnverifiableSnapshot = errors.New("its snapshot does not record what the operation left; use a conversation-only restore")
	// ErrBadSnapshot: the snapshot holds what this version cannot read
	// exactly (an unknown encoding, content that does not decode, an after
	// that is not a sha256 hex digest, a member it does not know, a lone
	// UTF-16 surrogate).
	ErrBadSnapshot = errors.New("its snapshot cannot be read")
)

// errPartial is the reason of a snapshot read only in part.
var errPartial = fmt.Errorf("%w: it holds members or text this version does not read exactly", ErrBadSnapshot)

// A FileError reports a file a restore refused or failed to put back.
// errors.Is matches its Reason; errors.As reaches a cause below that.
type FileError struct {
	// Path names the file as [FileChange.Path] does: the path resolved in
	// the workspace, or the path as the log records it when it does not
	// resolve there.
	Path string
	// Reason is ErrTruncatedSnapshot, ErrUnverifiableSnapshot,
	// ErrBadSnapshot (wrapped with what is wrong), ErrChangedOutside,
	// ErrChangedDuring or the error of resolving, reading or writing the file.
	Reason error
}

// Error names the file that could not be restored and why.
func (e *FileError) Error() string {
	p := e.Path
	if strings.IndexFunc(p, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		// The path comes from the log: it must not break the message's
		// line or drive a terminal.
		p = strconv.Quote(p)
	}
	return fmt.Sprintf("cannot restore %s: %v", p, e.Reason)
}

// Unwrap returns the reason.
func (e *FileError) Unwrap() error { return e.Reason }

// A RollbackError reports a restore that failed after changing files and
// could not put all of them back. Err is the failure; Failed holds one
// error per file left as the restore made it, naming it.
type RollbackError struct {
	Err    error
	Failed []error
}

// Error gives the restore's error and the files the rollback could not put back.
func (e *RollbackError) Error() string {
	return fmt.Sprintf("restore failed and %d file(s) could not be rolled back: %v; rollback: %v", len(e.Failed), e.Err, errors.Join(e.Failed...))
}

// Unwrap returns the failure and the rollback errors.
func (e *RollbackError) Unwrap() []error { return append([]error{e.Err}, e.Failed...) }

// Restore puts session id back to sequence toSeq of cp's log: the files
// that snapshots after toSeq recorded, through files, and the log itself,
// truncated to toSeq. toSeq is 0 or an existing record that does not split
// a tool call from its result; a listed [Checkpoint] always qualifies.
// notify, when not nil, gets the progress of a real restore. When cp is a
// session.Holder (a file store), the session stays locked from the first
// read to the truncate.
//
// A session with nothing stored is a *session.NotFoundError. A refused
// restore (a *SequenceError, a *NoTruncateError, a *FileError from the
// preflight, a *session.ConflictError when the log grew meanwhile)
// changes nothing. A failure while applying puts back the files already
// written, in reverse order; if some cannot be, the error is a
// *RollbackError.
func Restore(ctx context.Context, cp session.Checkpointer, files Files, id string, toSeq int64, opts Options, notify func(Progress)) (res Result, err error) {
	if opts.FilesOnly && opts.ConversationOnly {
		return Result{}, errors.New("rewind: FilesOnly and ConversationOnly exclude each other")
	}
	if h, ok := cp.(session.Holder); ok {
		// Held, the session stays ours from the read to the truncate:
		// another process appends only before or after.
		release, herr := h.Hold(ctx, id)
		if herr != nil {
			return Result{}, herr
		}
		defer func() {
			// A lock found taken over while held: the log may have
			// changed under the restore, which must not pass for a
			// success.
			if rerr := release(); rerr != nil && err == nil {
				res, err = Result{}, rerr
			}
		}()
	}
	events, err := readSession(ctx, cp, id)
	if err != nil {
		return Result{}, err
	}
	head := int64(len(events))
	if opts.Check != nil {
		if err := opts.Check(head); err != nil {
			return Result{}, err
		}
	}
	if err := checkSeq(id, events, toSeq); err != nil {
		return Result{}, err
	}
	res = Result{SessionID: id, ToSeq: toSeq, Head: head, Files: []FileChange{}, DryRun: opts.DryRun}
	conversation := !opts.FilesOnly
	if conversation {
		// A Truncate to the head with the head expected changes nothing:
		// it tells whether the checkpointer can truncate at all.
		if err := cp.Truncate(ctx, id, head, head); err != nil {
			if errors.Is(err, errors.ErrUnsupported) {
				return Result{}, &NoTruncateError{SessionID: id}
			}
			return Result{}, err
		}
		res.ConversationRestored, res.DroppedEvents = true, head-toSeq
	}
	var plans []*filePlan
	if !opts.ConversationOnly {
		if files == nil && hasSnapshots(events[toSeq:]) {
			return Result{}, errors.New("rewind: restoring files needs the workspace; use a conversation-only restore")
		}
		if plans, err = plan(ctx, files, events[toSeq:]); err != nil {
			return Result{}, err
		}
		if err := preflight(ctx, files, plans); err != nil {
			return Result{}, err
		}
		for _, p := range plans {
			res.Files = append(res.Files, FileChange{Path: p.path, Delete: p.target == nil})
		}
	}
	if opts.DryRun {
		return res, nil
	}
	now, err := cp.Head(ctx, id)
	if err != nil {
		return Result{}, err
	}
	if now != head {
		return Result{}, &session.ConflictError{SessionID: id, Expected: head, Head: now}
	}
	total := len(plans)
	if conversation {
		total++
	}
	report := func(ph Phase, done int, msg string, err error) {
		if notify != nil {
			notify(Progress{Phase: ph, SessionID: id, ToSeq: toSeq, Completed: done, Total: total, Message: msg, Err: err})
		}
	}
	report(PhaseStart, 0, "", nil)
	var applied []*filePlan // the files changed, for a rollback
	done := 0
	fail := func(err error) (Result, error) {
		if failed := rollback(context.WithoutCancel(ctx), files, applied); len(failed) > 0 {
			err = &RollbackError{Err: err, Failed: failed}
		}
		report(PhaseError, done, err.Error(), err)
		return Result{}, err
	}
	for _, p := range plans {
		changed, err := apply(ctx, files, p)
		if err != nil {
			return fail(err)
		}
		if changed {
			applied = append(applied, p)
		}
		done++
		report(PhaseProgress, done, p.path, nil)
	}
	if conversation {
		if err := cp.Truncate(ctx, id, toSeq, head); err != nil {
			return fail(fmt.Errorf("truncate session %s to %d: %w", id, toSeq, err))
		}
	}
	report(PhaseDone, total, "", nil)
	return res, nil
}

// readSession reads the whole log of session id; an empty one is a
// *session.NotFoundError unless cp lists the session.
func readSession(ctx context.Context, cp session.Checkpointer, id string) ([]session.StoredEvent, error) {
	events, err := cp.Read(ctx, id, 0)
	if err != nil {
		return nil, err
	}
	if len(events) > 0 {
		return events, nil
	}
	infos, err := cp.List(ctx)
	if err != nil {
		return nil, err
	}
	for _, in := range infos {
		if in.ID == id {
			return nil, nil
		}
	}
	return nil, &session.NotFoundError{SessionID: id}
}

func hasSnapshots(events []session.StoredEvent) bool {
	for _, se := range events {
		if _, ok := se.Event.(session.FileSnapshotEvent); ok {
			return true
		}
	}
	return false
}

// A state is a file's content as a hash: "" unknown, "-" missing, else
// the sha256 hex of its bytes.
type state string

const (
	unknown state = ""
	missing state = "-"
)

func hashOf(data []byte, exists bool) state {
	if !exists {
		return missing
	}
	sum := sha256.Sum256(data)
	return state(hex.EncodeToString(sum[:]))
}

// A filePlan is the restore of one file.
type filePlan struct {
	path   string // canonical
	target []byte // the content at the checkpoint; nil: no file
	// expected is what the last recorded operation left, previous what
	// it found; the file on disk must be one of them.
	expected, previous state
	// backup is the file as the preflight found it.
	backup       []byte
	backupExists bool
}

// plan builds the file restores from the snapshots in events, the records
// after the checkpoint, grouped by canonical path in the order of their
// first snapshot.
func plan(ctx context.Context, files Files, events []session.StoredEvent) ([]*filePlan, error) {
	var plans []*filePlan
	byPath := map[string]*filePlan{}
	canonical := map[string]string{} // by recorded path: most files change more than once
	for _, se := range events {
		snap, ok := se.Event.(session.FileSnapshotEvent)
		if !ok {
			continue
		}
		path, ok := canonical[snap.Path]
		if !ok {
			var err error
			if path, err = files.Canonical(ctx, snap.Path); err != nil {
				if se.Raw != nil {
					err = errPartial
				}
				return nil, &FileError{Path: snap.Path, Reason: err}
			}
			canonical[snap.Path] = path
		}
		if se.Raw != nil {
			// Read in part: a member this version does not know (it
			// might change what before means) or text that did not
			// decode exactly. Writing what was understood would write
			// something other than the log holds.
			return nil, &FileError{Path: path, Reason: errPartial}
		}
		before, err := decodeBefore(snap)
		if err != nil {
			return nil, &FileError{Path: path, Reason: err}
		}
		p := byPath[path]
		if p == nil {
			if snap.Truncated {
				return nil, &FileError{Path: path, Reason: ErrTruncatedSnapshot}
			}
			p = &filePlan{path: path, target: before}
			byPath[path] = p
			plans = append(plans, p)
		}
		switch {
		case snap.Deleted:
			p.expected = missing
		case snap.After != "":
			if !isSHA256Hex(snap.After) {
				return nil, &FileError{Path: path, Reason: fmt.Errorf("%w: after %q is not a sha256 hex digest", ErrBadSnapshot, snap.After)}
			}
			p.expected = state(snap.After)
		default:
			p.expected = unknown // an older or forged log: checked below
		}
		switch {
		case snap.Truncated:
			p.previous = unknown
		case snap.Before == nil:
			p.previous = missing
		default:
			p.previous = hashOf(before, true)
		}
	}
	for _, p := range plans {
		// What a file restore cannot check, it must not write: without
		// the last operation's result, a user's own file would be
		// overwritten or deleted on the log's word alone.
		if p.expected == unknown {
			return nil, &FileError{Path: p.path, Reason: ErrUnverifiableSnapshot}
		}
	}
	return plans, nil
}

// isSHA256Hex reports whether s is a sha256 digest in lowercase hex, the
// form the file tools record.
func isSHA256Hex(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// decodeBefore returns the content a snapshot kept, nil when there was no
// file (or it was not kept), and a non-nil empty slice for an empty file.
func decodeBefore(snap session.FileSnapshotEvent) ([]byte, error) {
	if snap.Before == nil {
		return nil, nil
	}
	switch snap.Encoding {
	case "base64":
		b, err := base64.StdEncoding.DecodeString(*snap.Before)
		if err != nil {
			return nil, fmt.Errorf("%w: content: %w", ErrBadSnapshot, err)
		}
		return append([]byte{}, b...), nil
	case "", "utf8":
		return append([]byte{}, *snap.Before...), nil
	default:
		return nil, fmt.Errorf("%w: unknown encoding %q", ErrBadSnapshot, snap.Encoding)
	}
}

// preflight reads every planned file, keeps it as the backup and checks
// it against what the log says the last operation left or found, or the
// checkpoint's content itself: a restore killed part-way left the files it
// had put back so, and running it again must finish the rest.
func preflight(ctx context.Context, files Files, plans []*filePlan) error {
	for _, p := range plans {
		data, exists, err := files.Read(ctx, p.path)
		if err != nil {
			return &FileError{Path: p.path, Reason: err}
		}
		p.backup, p.backupExists = data, exists
		now := hashOf(data, exists)
		if now != p.expected && now != p.previous && now != hashOf(p.target, p.target != nil) {
			return &FileError{Path: p.path, Reason: ErrChangedOutside}
		}
	}
	return nil
}

// apply re-checks a file against its backup and puts the checkpoint's
// content back, unless the file already holds it; it reports whether it
// changed the file.
func apply(ctx context.Context, files Files, p *filePlan) (changed bool, err error) {
	data, exists, err := files.Read(ctx, p.path)
	if err != nil {
		return false, &FileError{Path: p.path, Reason: err}
	}
	if exists != p.backupExists || !bytes.Equal(data, p.backup) {
		return false, &FileError{Path: p.path, Reason: ErrChangedDuring}
	}
	if exists == (p.target != nil) && bytes.Equal(data, p.target) {
		// Already at the checkpoint (put back by a restore killed
		// part-way, say): replacing it with the same bytes would still
		// make it a new file, breaking its links and taking its owner.
		return false, nil
	}
	if p.target == nil {
		err = files.Remove(ctx, p.path)
	} else {
		err = files.Write(ctx, p.path, p.target)
	}
	if err != nil {
		return false, &FileError{Path: p.path, Reason: err}
	}
	return true, nil
}

// rollback puts the applied files back to their backups, last first, and
// returns one error per file it could not.
func rollback(ctx context.Context, files Files, applied []*filePlan) []error {
	var failed []error
	for i := len(applied) - 1; i >= 0; i-- {
		p := applied[i]
		var err error
		if p.backupExists {
			err = files.Write(ctx, p.path, p.backup)
		} else {
			err = files.Remove(ctx, p.path)
		}
		if err != nil {
			failed = append(failed, fmt.Errorf("roll back %s: %w", p.path, err))
		}
	}
	return failed
}
