package task

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// SharedMarker is the name of the empty file that marks a list directory
// as a shared list: one named explicitly (an agent's task-list option or
// LITE_AGENT_TASK_LIST_ID) rather than after a session. Deleting a session
// removes the list named after it only when the list lacks this marker, so
// a shared list that happens to share a session's name survives. Its name
// starts with "." and does not end in ".json", so readers of the list
// (this package's and the TypeScript SDK's) never take it for a record.
const SharedMarker = ".shared"

// MarkShared is [FileStore.MarkSharedContext] with context.Background().
func (s *FileStore) MarkShared() error {
	return s.MarkSharedContext(context.Background())
}

// MarkSharedContext marks the list as shared (see [SharedMarker]): at
// once if its directory exists, else with the first write, so that
// marking creates no directory. It is idempotent and never replaces or
// follows anything already there. A ctx done before the call returns
// ctx's error, wrapped, and changes nothing: the list is not marked, now
// or by its first write.
func (s *FileStore) MarkSharedContext(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return s.markErr("shared", err)
	}
	s.mu.Lock()
	s.shared = true
	s.mu.Unlock()
	dir, err := s.anchored(false)
	if err != nil || dir == nil {
		return err
	}
	return markShared(dir)
}

// markErr wraps the error err, of ctx, that stopped marking the list as
// what.
func (s *FileStore) markErr(what string, err error) error {
	return fmt.Errorf("task: mark list %s %s: %w", s.listID, what, err)
}

// markShared writes the mark in dir unless it is there.
func markShared(dir *safefs.Dir) error {
	if _, err := dir.Lstat(SharedMarker); err == nil {
		return nil
	}
	err := dir.WriteFileExclusive(SharedMarker, nil)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	return err
}

// IsShared reports whether the list listID under tasksDir is marked as
// shared. A missing list is not shared; an entry that cannot be inspected
// counts as shared, so that nothing is removed on a guess.
func IsShared(tasksDir, listID string) bool {
	_, err := os.Lstat(filepath.Join(tasksDir, listID, SharedMarker))
	return !errors.Is(err, fs.ErrNotExist)
}

// ForkMarker is the name of the empty file a fork keeps in the task list
// it copies for its new session until that session's log is written (see
// [FileStore.MarkForking]). A list holding it whose session has no log is
// what a fork that died part-way leaves: lite-agent verify reports it and
// the cleanup sweep (package retention) removes it once old. Like
// [SharedMarker], readers of the list never take it for a record.
const ForkMarker = ".fork-incomplete"

// MarkForking is [FileStore.MarkForkingContext] with
// context.Background().
func (s *FileStore) MarkForking() error {
	return s.MarkForkingContext(context.Background())
}

// MarkForkingContext writes the [ForkMarker] into the list, creating its
// directory, before a fork copies tasks into it. It is idempotent. A ctx
// done before the marker is written returns ctx's error, wrapped; a ctx
// done before the call creates nothing.
func (s *FileStore) MarkForkingContext(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return s.markErr("forking", err)
	}
	dir, err := s.anchored(true)
	if err != nil {
		return err
	}
	if _, err := dir.Lstat(ForkMarker); err == nil {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return s.markErr("forking", err)
	}
	err = dir.WriteFileExclusive(ForkMarker, nil)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	return err
}

// ClearForking removes the [ForkMarker] once the fork's session log is
// written, under the list's lock, which the cleanup sweep also takes to
// remove a fork's leftover list. A marker that is gone, or a list that is
// gone or was replaced, is a *storage.ForkMarkLostError: a sweep took the
// list for a dead fork's (the fork was paused longer than its MaxAge
// before writing the log) and removed it, so the fork's copy is not whole.
// Once the log is written no sweep removes the list, so a marker found
// and removed here means the copy is whole.
func (s *FileStore) ClearForking(ctx context.Context) error {
	lost := &storage.ForkMarkLostError{SessionID: s.listID, Where: s.path}
	dir, err := s.anchored(false)
	if err != nil {
		return err
	}
	if dir == nil {
		return lost
	}
	err = s.locked(ctx, false, func(r *fileRecords) error {
		if _, err := r.dir.Lstat(ForkMarker); errors.Is(err, fs.ErrNotExist) {
			return lost
		} else if err != nil {
			return err
		}
		return r.dir.Remove(ForkMarker)
	})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) && dir.Check() != nil {
		// The list went, or another took its place, before or while the
		// lock was taken: the sweep's removal.
		return lost
	}
	return err
}
