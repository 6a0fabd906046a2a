package retention

import (
	"encoding/json"
	"time"
)

// A Reason says why an entry was removed.
type Reason string

// Why entries are removed.
const (
	// ReasonAge: the entry was last modified before now − MaxAge.
	ReasonAge Reason = "age"
	// ReasonSize: the file was among the least recently modified while the
	// files counted against MaxBytes exceeded it.
	ReasonSize Reason = "size"
	// ReasonTemp: the file is a store's temporary file
	// (.<record>.<12 hex>.tmp) last modified before now − TempMaxAge whose
	// record was not locked: what a writer killed between writing and
	// renaming leaves behind.
	ReasonTemp Reason = "temp"
	// ReasonStaleLock: the entry is a lock directory (<entry>.lock) whose
	// entry is gone and which was not refreshed for the stale period
	// (filelock.DefaultStale): what a store or sweep killed while holding
	// the lock of an entry it had just removed leaves behind. The sweep
	// takes it over, as a store would, before removing it.
	ReasonStaleLock Reason = "stale-lock"
	// ReasonForkLeftover: the entry is a task list a fork that died
	// part-way left: it holds the fork's mark (task.ForkMarker), no
	// session log of its id exists, and nothing in it was modified after
	// now − MaxAge. It is the only kind of task list the sweep removes.
	ReasonForkLeftover Reason = "fork-leftover"
)

// A SkipReason says why an entry was left in place although the sweep
// looked at it.
type SkipReason string

// Why entries are skipped.
const (
	// SkipSymlink: the entry is a symbolic link. Links are never followed
	// and never removed.
	SkipSymlink SkipReason = "symlink"
	// SkipLock: the entry's name ends in ".lock"; it is a lock, not data.
	SkipLock SkipReason = "lock"
	// SkipLocked: the entry <name>.lock exists next to it (a store holds
	// its lock), or a directory contains a lock, or the sweep's own lock
	// of the entry was taken over or removed while it removed the entry
	// (Err says so; the entry may be half removed).
	SkipLocked SkipReason = "locked"
	// SkipNotRegular: the entry is neither a regular file nor a directory
	// (a FIFO, socket or device).
	SkipNotRegular SkipReason = "not-regular"
	// SkipNotDirectory: a project entry, or its spill or sessions entry,
	// is not a directory.
	SkipNotDirectory SkipReason = "not-directory"
	// SkipHardLink: the file has other hard links, which may be anywhere;
	// removing this name would free nothing.
	SkipHardLink SkipReason = "hard-link"
	// SkipChanged: the entry changed between the scan and its removal (it
	// was replaced, modified or moved), so the decision no longer holds.
	SkipChanged SkipReason = "changed"
	// SkipDeleting: the entry is the log of a session being deleted
	// (<id>.jsonl.deleting, set aside by session.FileCheckpointer's
	// BeginDelete): the only record that what else belongs to the session
	// (its archive, its task list) is being deleted. Neither the age rule
	// nor the size limit removes it, and it does not count against
	// MaxBytes; only the delete's rerun finishes it. A directory of that
	// name (which no delete makes, and which the session stores refuse
	// as a session being deleted) is skipped alike, with everything in
	// it: only the user removes it.
	SkipDeleting SkipReason = "deleting"
	// SkipTasks: a project's tasks directory, which is never swept by age
	// or size (only temporary files and dead forks' lists go, see rules 5
	// and 8).
	SkipTasks SkipReason = "tasks"
	// SkipMigrating: a project directory, or the home, holds the marker
	// of a migration that has not finished (migrate.MarkerName): what it
	// copied keeps its source's modification times and would look old,
	// and a migration that reports its copy verified must find it whole.
	SkipMigrating SkipReason = "migrating"
	// SkipError: the entry could not be inspected or removed; see Err.
	SkipError SkipReason = "error"
)

// Report describes one sweep: what went (or, in a dry run, would go), what
// stayed and why.
type Report struct {
	// Home is the absolute data home that was swept.
	Home string `json:"home"`
	// DryRun is true when nothing was removed.
	DryRun bool `json:"dryRun"`
	// Removed lists the entries removed, in the order of removal: first
	// by age, project by project, then by size, oldest first.
	Removed []Entry `json:"removed"`
	// Skipped lists the entries the sweep refused to touch, with the reason.
	// Entries kept because they are young and within the budget are not
	// listed.
	Skipped []Skip `json:"skipped"`
	// Scanned counts the direct entries of spill and sessions directories
	// that were examined.
	Scanned int `json:"scanned"`
	// BytesFreed is the total size of the removed regular files, including
	// those inside removed directories.
	BytesFreed int64 `json:"bytesFreed"`
	// BytesKept is the total size of the regular files left that count
	// against MaxBytes (unlocked, young files directly in spill and
	// sessions directories).
	BytesKept int64 `json:"bytesKept"`
}

// An Entry is one removed file or directory.
type Entry struct {
	// Path is the entry's absolute path under Report.Home.
	Path string `json:"path"`
	// Size is the file's size, or the total size of the regular files in a
	// directory.
	Size int64 `json:"size"`
	// ModTime is the modification time the decision was based on: the
	// file's, or for a directory the newest of the directory and the files
	// and directories in it.
	ModTime time.Time `json:"modTime"`
	// IsDir reports a directory, removed with its contents.
	IsDir bool `json:"isDir"`
	// Reason is why the entry was removed.
	Reason Reason `json:"reason"`
}

// A Skip is one entry left in place.
type Skip struct {
	// Path is the entry's absolute path under Report.Home.
	Path string `json:"path"`
	// Reason is why the entry was left.
	Reason SkipReason `json:"reason"`
	// Err is the problem met when Reason is SkipError, else nil. It names
	// a path and a system error, never file contents.
	Err error `json:"-"`
}

// MarshalJSON encodes s as {"path":…,"reason":…} with "error", the text of
// Err, when there is one.
func (s Skip) MarshalJSON() ([]byte, error) {
	type plain Skip // without this method
	out := struct {
		plain
		Error string `json:"error,omitempty"`
	}{plain: plain(s)}
	if s.Err != nil {
		out.Error = s.Err.Error()
	}
	return json.Marshal(out)
}
