// Package rewind lists the checkpoints of a session log, restores files and
// conversation to one of them, and forks a session.
//
// The file tools record a [session.FileSnapshotEvent] before every write,
// edit and delete: the file's previous content and a hash of what the tool
// wrote. A checkpoint is the point just before a real user prompt; going
// back to it means writing back, for every file changed after it, the
// content its first later snapshot recorded (or deleting a file that did
// not exist then), and truncating the log to the checkpoint. Changes made
// by bash, or by anything else outside the file tools, are not recorded
// and not undone.
//
// [Restore] follows a fixed order so that a refused restore changes
// nothing: validate the sequence, check that the conversation can be cut
// there, plan the files, check every file on disk against what the log
// says the last operation left (preflight), re-check the log's head, then
// write the files atomically with backups and truncate the log with the
// head it planned from. Any failure after the first write puts the written
// files back, in reverse order.
package rewind

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

// A Checkpoint is a point of a session that [Restore] can go back to: the
// state just before a real user prompt. In JSON its members are seq,
// prompt, ts, files and unavailableFiles.
type Checkpoint struct {
	// Seq is the sequence number to restore to: the prompt's own minus
	// one, so that the prompt itself is dropped.
	Seq int64 `json:"seq"`
	// Prompt is the prompt's text.
	Prompt string `json:"prompt"`
	// Time is when the prompt was appended.
	Time time.Time `json:"ts"`
	// Files are the paths that file tools changed after the checkpoint,
	// sorted, relative to the workspace with "/" separators: as snapshots
	// record them, cleaned the way [List] says, so that one file spelled
	// two ways is listed once.
	Files []string `json:"files"`
	// UnavailableFiles are those of Files that a file restore to this
	// checkpoint refuses on the log's word alone (a conversation-only one
	// does not): the first snapshot after the checkpoint did not keep the
	// content (the file was over the snapshot size limit,
	// ErrTruncatedSnapshot), the last one does not record what its
	// operation left (an older or hand-written log,
	// ErrUnverifiableSnapshot), or a snapshot holds what this version
	// cannot read exactly (ErrBadSnapshot). A restore may still refuse
	// others, for what it finds on disk.
	UnavailableFiles []string `json:"unavailableFiles"`
}

// List returns the checkpoints of a session log, oldest first. A user
// event is a checkpoint when its text (its content string, or its text
// blocks joined with "\n") is not blank and it is a real prompt: marked
// Checkpoint true, or written by an older version (no Checkpoint and no
// Origin) and not starting with "<background-task-completed" or
// "<system-reminder".
//
// The snapshots of a file are grouped as [Restore] groups them, by the
// path the file resolves to, as far as the log alone tells: the recorded
// path cleaned lexically (filepath.Clean, with "/" separators), so that
// "a.txt", "./a.txt" and "d/../a.txt" are one file, whose first snapshot
// after the checkpoint decides whether it was truncated and whose last
// one whether it records what it left. The file tools record paths in
// that form already. Restore resolves them in the workspace
// ([Files.Canonical]) and can still see two spellings as one file where
// List sees two: an absolute path inside the workspace, or a relative one
// that leaves the workspace and comes back in through its directory's
// name ("../ws/a.txt"). Neither folds case on a case-insensitive file
// system. A path Restore refuses to resolve (outside the workspace,
// through a symbolic link, protected) is listed all the same, and not as
// unavailable: only the workspace tells.
func List(events []session.StoredEvent) []Checkpoint {
	// One pass from the end: at each prompt, the state of every file
	// holds what the snapshots after the prompt say, so each checkpoint
	// costs what it lists.
	byPath := map[string]*listedFile{}
	var sorted []*listedFile // every file seen so far, by path
	var fresh []*listedFile  // those seen since the last checkpoint, to merge in
	var out []Checkpoint
	for i := len(events) - 1; i >= 0; i-- {
		se := events[i]
		switch ev := se.Event.(type) {
		case session.FileSnapshotEvent:
			path := listPath(ev.Path)
			f := byPath[path]
			if f == nil {
				f = &listedFile{path: path, unverifiable: !ev.Deleted && ev.After == ""}
				byPath[path] = f
				fresh = append(fresh, f)
			}
			f.truncated = ev.Truncated
			f.bad = f.bad || se.Raw != nil || !beforeDecodes(ev) || !ev.Deleted && ev.After != "" && !isSHA256Hex(ev.After)
		case session.UserEvent:
			if ev.Message.Role != model.RoleUser {
				continue
			}
			text := promptText(ev.Message)
			if strings.TrimSpace(text) == "" || !isPrompt(ev, text) {
				continue
			}
			if len(fresh) > 0 {
				sorted = mergeFiles(sorted, fresh)
				fresh = fresh[:0]
			}
			cp := Checkpoint{Seq: se.Seq - 1, Prompt: text, Time: se.Time, Files: make([]string, len(sorted)), UnavailableFiles: []string{}}
			for j, f := range sorted {
				cp.Files[j] = f.path
				if f.truncated || f.bad || f.unverifiable {
					cp.UnavailableFiles = append(cp.UnavailableFiles, f.path)
				}
			}
			out = append(out, cp)
		}
	}
	slices.Reverse(out)
	return out
}

// listPath returns the path [List] groups a snapshot's path p by: p
// cleaned lexically, with "/" separators.
func listPath(p string) string { return filepath.ToSlash(filepath.Clean(p)) }

// beforeDecodes reports whether [decodeBefore] reads the snapshot's
// content without an error.
func beforeDecodes(snap session.FileSnapshotEvent) bool {
	_, err := decodeBefore(snap)
	return err == nil
}

// A listedFile is what the snapshots after the point [List] has reached
// say about one file.
type listedFile struct {
	path string
	// truncated: the first snapshot did not keep the content; bad: one
	// of them cannot be read exactly; unverifiable: the last one does not
	// record what its operation left.
	truncated, bad, unverifiable bool
}

// mergeFiles returns sorted (by path) with fresh (in any order, none of
// their paths in sorted) merged in, in a new slice.
func mergeFiles(sorted, fresh []*listedFile) []*listedFile {
	slices.SortFunc(fresh, func(a, b *listedFile) int { return strings.Compare(a.path, b.path) })
	merged := make([]*listedFile, 0, len(sorted)+len(fresh))
	for len(sorted) > 0 && len(fresh) > 0 {
		if sorted[0].path < fresh[0].path {
			merged, sorted = append(merged, sorted[0]), sorted[1:]
		} else {
			merged, fresh = append(merged, fresh[0]), fresh[1:]
		}
	}
	merged = append(merged, sorted...)
	return append(merged, fresh...)
}

// Checkpoints reads the log of session id from cp and returns its
// checkpoints (see [List]), never nil. A session with nothing stored is a
// *session.NotFoundError.
func Checkpoints(ctx context.Context, cp session.Checkpointer, id string) ([]Checkpoint, error) {
	events, err := readSession(ctx, cp, id)
	if err != nil {
		return nil, err
	}
	cps := List(events)
	if cps == nil {
		cps = []Checkpoint{}
	}
	return cps, nil
}

// promptText returns the text of a user message: its content string, or
// its text blocks joined with "\n".
func promptText(m model.Message) string {
	if m.Blocks == nil {
		return m.Text
	}
	var parts []string
	for _, b := range m.Blocks {
		if b.Type == model.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// isPrompt reports whether a user event with text is a real prompt.
func isPrompt(ev session.UserEvent, text string) bool {
	if ev.Checkpoint != nil {
		return *ev.Checkpoint
	}
	if ev.Origin != "" {
		return false
	}
	t := strings.TrimLeft(text, " \t\r\n")
	return !strings.HasPrefix(t, "<background-task-completed") && !strings.HasPrefix(t, "<system-reminder")
}

// splitsToolCall reports whether the events, a log's first records, hold
// a tool call without its result: cutting the log after them would leave
// the model a call it never saw answered.
func splitsToolCall(events []session.StoredEvent) bool {
	open := map[string]bool{}
	results := func(bs []model.Block) {
		for _, b := range bs {
			if b.Type == model.BlockToolResult {
				delete(open, b.ID)
			}
		}
	}
	for _, se := range events {
		switch ev := se.Event.(type) {
		case session.AssistantEvent:
			for _, b := range ev.Message.Blocks {
				if b.Type == model.BlockToolCall {
					open[b.ID] = true
				}
			}
		case session.ToolResultEvent:
			results([]model.Block{ev.Result})
		case session.UserEvent:
			results(ev.Message.Blocks)
		}
	}
	return len(open) > 0
}

// ErrBadSequence is matched by every *[SequenceError].
var ErrBadSequence = errors.New("bad checkpoint sequence")

// A SequenceError reports a sequence number that a restore or a fork
// cannot use: outside 0..head, or one that would split a tool call from
// its result. Nothing was changed.
type SequenceError struct {
	SessionID string
	// Seq is the sequence number asked for, Head the log's head.
	Seq, Head int64
	// SplitsToolCall reports that Seq is in range but a tool call at or
	// before it has its result after it.
	SplitsToolCall bool
	// Empty reports a fork at 0, which would copy nothing.
	Empty bool
}

// Error names the session and why the seq cannot be used.
func (e *SequenceError) Error() string {
	if e.Empty {
		return fmt.Sprintf("session %s: a fork at 0 copies nothing; start a new session instead", e.SessionID)
	}
	if e.SplitsToolCall {
		return fmt.Sprintf("session %s: sequence %d splits unfinished tool calls; choose a listed checkpoint", e.SessionID, e.Seq)
	}
	return fmt.Sprintf("session %s: checkpoint sequence must identify an existing event or zero (got %d, head %d)", e.SessionID, e.Seq, e.Head)
}

// Is reports whether target is [ErrBadSequence].
func (e *SequenceError) Is(target error) bool { return target == ErrBadSequence }

// checkSeq validates seq against events, the whole log of session id.
func checkSeq(id string, events []session.StoredEvent, seq int64) error {
	head := int64(len(events))
	if seq < 0 || seq > head {
		return &SequenceError{SessionID: id, Seq: seq, Head: head}
	}
	if splitsToolCall(events[:seq]) {
		return &SequenceError{SessionID: id, Seq: seq, Head: head, SplitsToolCall: true}
	}
	return nil
}
