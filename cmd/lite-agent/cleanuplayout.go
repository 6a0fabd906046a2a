package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/syserr"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A LayoutError reports entries of the data home that cleanup does not
// understand: where the layout has a project directory, or a project's
// sessions, tasks or spill directory, something else stands (a file, a
// symbolic link, a directory of another name), or a directory cannot be
// listed. cleanup then removes nothing.
type LayoutError struct {
	// Path is the first such entry.
	Path string
	// Problem says what is wrong with it.
	Problem string
	// Count is how many such entries there are (at least 1).
	Count int
	// Err is the system error for a directory that cannot be listed.
	Err error
}

func (e *LayoutError) Error() string {
	more := ""
	if e.Count > 1 {
		more = fmt.Sprintf(" (and %d more entries cleanup does not understand)", e.Count-1)
	}
	return fmt.Sprintf("cleanup removed nothing: %s is %s%s; move it out of the data home (or fix it) and run cleanup again", e.Path, e.Problem, more)
}

func (e *LayoutError) Unwrap() error { return e.Err }

// checkLayout returns a *LayoutError when the data home holds, under
// projects/, anything the layout has no place for (see LayoutError). A
// home or projects directory that does not exist is fine: there is
// nothing to clean. It returns the project directories that hold a
// migration's lock (migrate.LockName), whose migration may be running or
// may have been killed: see clearMigrationLocks.
func checkLayout(ctx context.Context, home string) (locked []string, _ error) {
	var first *LayoutError
	note := func(path, problem string, err error) {
		if first == nil {
			first = &LayoutError{Path: path, Problem: problem, Err: err}
		}
		first.Count++
	}
	// dir checks that path is a real directory and lists it; ok is false
	// when it is missing or was noted.
	dir := func(path string) ([]os.DirEntry, bool) {
		info, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, false
		case err != nil:
			note(path, "unreadable ("+syserr.Text(err)+")", err)
			return nil, false
		case info.Mode()&fs.ModeSymlink != 0:
			note(path, "a symbolic link, which cleanup never follows", nil)
			return nil, false
		case !info.IsDir():
			note(path, "a file where a directory should be", nil)
			return nil, false
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			note(path, "unreadable ("+syserr.Text(err)+")", err)
			return nil, false
		}
		return entries, true
	}
	projects := storage.ProjectsDir(home)
	entries, ok := dir(projects)
	if !ok {
		return nil, asError(first)
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		path := filepath.Join(projects, e.Name())
		if !storage.IsProjectHash(e.Name()) || !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
			note(path, "not a project directory (one named by 16 hex digits)", nil)
			continue
		}
		inner, ok := dir(path)
		if !ok {
			continue
		}
		for _, in := range inner {
			p := filepath.Join(path, in.Name())
			switch name := in.Name(); {
			case name == storage.SessionsDirName, name == storage.TasksDirName, name == storage.SpillDirName:
				dir(p)
			case name == migrate.MarkerName:
			case name == migrate.LockName && in.IsDir():
				locked = append(locked, path)
			case name == migrate.LockName:
				note(p, "not a migration's lock (a directory)", nil)
			case migrate.IsMarkerTemp(name) && in.Type().IsRegular():
				// The temp file a migrate killed while it wrote its
				// marker leaves: no data; the rerun removes it.
			case filelock.Leftover(name) && in.IsDir():
				// What a migrate (or cleanup) killed while it took the
				// migration lock over leaves: no data, and never a live
				// lock; migrate ignores it too.
			default:
				note(p, "not part of a project (sessions, tasks and spill are)", nil)
			}
		}
	}
	return locked, asError(first)
}

// clearMigrationLocks removes the migration locks of the project
// directories roots (see checkLayout) that were left by a migration no
// longer running, by the stale rule of the lock, and returns them as
// removed entries (with dryRun, as entries that would be). A lock a live
// migration holds makes it fail first, having removed nothing.
func clearMigrationLocks(ctx context.Context, roots []string, dryRun bool) ([]retention.Entry, error) {
	for _, root := range roots {
		_, err := migrate.ClearStaleLock(ctx, root, true)
		if held := (*migrate.LockHeldError)(nil); errors.As(err, &held) {
			return nil, fmt.Errorf("cleanup removed nothing: %w; run cleanup again once it has finished", err)
		}
		if err != nil {
			return nil, fmt.Errorf("cleanup removed nothing: %w", err)
		}
	}
	var removed []retention.Entry
	for _, root := range roots {
		mtime, err := migrate.ClearStaleLock(ctx, root, dryRun)
		if err != nil {
			return removed, err
		}
		if !mtime.IsZero() {
			removed = append(removed, retention.Entry{Path: filepath.Join(root, migrate.LockName), ModTime: mtime, IsDir: true, Reason: retention.ReasonStaleLock})
		}
	}
	return removed, nil
}

// asError returns e as an error, nil when e is nil.
func asError(e *LayoutError) error {
	if e == nil {
		return nil
	}
	return e
}

// A LeftError reports entries a sweep left in place because they are not
// what a store makes there (a FIFO, a socket, a file where a directory
// should be) or because they could not be inspected or removed.
type LeftError struct {
	// Skips are those entries.
	Skips []retention.Skip
}

func (e *LeftError) Error() string {
	s := e.Skips[0]
	what := "is not a regular file or directory"
	switch s.Reason {
	case retention.SkipNotDirectory:
		what = "is a file where a directory should be"
	case retention.SkipError:
		what = "could not be cleaned up"
		if s.Err != nil {
			what += " (" + syserr.Text(s.Err) + ")"
		}
	}
	more := ""
	if n := len(e.Skips); n > 1 {
		more = fmt.Sprintf(" (and %d more entries)", n-1)
	}
	return fmt.Sprintf("cleanup left %s in place: it %s%s; move it out of the data home (or fix it) and run cleanup again", s.Path, what, more)
}

// leftError returns a *LeftError for the entries of rep left for a reason
// that needs the user (see LeftError), nil when there are none.
func leftError(rep retention.Report) error {
	var bad []retention.Skip
	for _, s := range rep.Skipped {
		switch s.Reason {
		case retention.SkipNotRegular, retention.SkipNotDirectory, retention.SkipError:
			bad = append(bad, s)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return &LeftError{Skips: bad}
}
