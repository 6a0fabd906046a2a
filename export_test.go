package liteagent

import (
	"context"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/task"
)

// SetForkPaused makes a's Fork call f with the new session's id between
// the copy of the session's data and the write of the new log.
func SetForkPaused(a *Agent, f func(newID string)) { a.forkPaused = f }

// SetForkRead makes a's Fork call f between the read of the session's
// events and the copy of its data.
func SetForkRead(a *Agent, f func()) { a.forkRead = f }

// SetDeleteStep makes DeleteSessionData, called with opts, call f with
// the name of each step it has done.
func SetDeleteStep(opts *DeleteDataOptions, f func(name string)) { opts.step = f }

// SetForkArchiveSeen makes a's Fork call f once it has seen that the
// session's context archive exists, before it opens it.
func SetForkArchiveSeen(a *Agent, f func()) { a.forkArchiveSeen = f }

// SetForkNewID makes a's forks give the new session the id f returns
// instead of a random one.
func SetForkNewID(a *Agent, f func() string) { a.forkNewID = f }

// SetDeliveryStarting makes a call f with the session's id when a
// background command's completion is about to be delivered to it, before
// the delivery's turn starts.
func SetDeliveryStarting(a *Agent, f func(id string)) { a.deliveryStarting = f }

// SetRestoreLocking makes a's Restore call f with the session's id just
// before the restore takes the session's lock (a file store's; a lease
// is taken before it).
func SetRestoreLocking(a *Agent, f func(id string)) { a.restoreLocking = f }

// SessionArchive returns the archive that a's turns and tools use for
// session id (held in the data home), and ArchiveFor the archive under it.
func SessionArchive(ctx context.Context, a *Agent, id string) (archive.Archive, error) {
	return a.sessionArchive(ctx, id)
}

// ArchiveFor returns the archive of session id without the hold.
func ArchiveFor(ctx context.Context, a *Agent, id string) (archive.Archive, error) {
	return a.archiveFor(ctx, id)
}

// TaskWriter returns the task list that session id's tools write (held in
// the data home), and TaskStore the list under it.
func TaskWriter(ctx context.Context, a *Agent, id string) (task.Store, error) {
	return a.taskWriter(ctx, id)
}

// TaskStore returns session id's task list without the hold.
func TaskStore(ctx context.Context, a *Agent, id string) (task.Store, error) {
	return a.taskStore(ctx, id)
}

// SetHeldStored makes a's held task and archive writes call f with the
// session's id once they found its log (through a Store: once they found
// it the session the agent knows), before they write; and DeleteSession
// through a Store once it found the session the one the agent knows,
// before it deletes.
func SetHeldStored(a *Agent, f func(id string)) { a.heldStored = f }

// Identified returns those of ids whose session a's engine knows (or was
// told to take as stored).
func Identified(a *Agent, ids ...string) []string {
	var out []string
	for _, id := range ids {
		if a.eng.Identified(id) {
			out = append(out, id)
		}
	}
	return out
}

// SetResumeLooked makes a's ResumeStored call f with the session's id
// between its two looks at the session: which session it is (its first
// record), and whether its log is there.
func SetResumeLooked(a *Agent, f func(id string)) { a.resumeLooked = f }

// Bookkeeping returns the number of entries of each per-session map a
// keeps: its schedule's and its caches of task lists and archives.
func Bookkeeping(a *Agent) map[string]int {
	s := a.sched
	s.mu.Lock()
	out := map[string]int{
		"running": len(s.running), "prompts": len(s.prompts), "promptsOver": len(s.promptsOver),
		"deleted": len(s.deleted), "parentOf": len(s.parentOf), "listOf": len(s.listOf),
		"autonomous": len(s.autonomous), "dropCancelled": len(s.dropCancelled), "dropBash": len(s.dropBash),
		"calls": len(s.calls), "ops": len(s.ops), "delivering": len(s.delivering),
	}
	s.mu.Unlock()
	a.mu.Lock()
	out["archives"], out["tasks"] = len(a.archives), len(a.tasks)
	a.mu.Unlock()
	return out
}

// RecordBetweenTurns appends ev to session id's log between its turns as
// a's audit of a decision made around a turn does.
func RecordBetweenTurns(ctx context.Context, a *Agent, id string, ev session.Event) error {
	return a.recordBetweenTurns(ctx, a.eng, id, ev, nil)
}

// RunsLasting returns how many of a's runs (and its subagents') have
// started and not ended: a run counts from its Send or Run, before its turn
// waits for the session.
func RunsLasting(a *Agent) int {
	a.runs.mu.Lock()
	defer a.runs.mu.Unlock()
	return len(a.runs.byID)
}

// OpenTaskLists returns how many task lists a keeps open.
func OpenTaskLists(a *Agent) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.tasks)
}
