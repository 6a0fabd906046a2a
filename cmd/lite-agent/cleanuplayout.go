package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

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
// nothing to clean.
func checkLayout(ctx context.Context, home string) error {
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
		return asError(first)
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
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
			switch in.Name() {
			case storage.SessionsDirName, storage.TasksDirName, storage.SpillDirName:
				dir(p)
			case migrate.MarkerName:
			default:
				note(p, "not part of a project (sessions, tasks and spill are)", nil)
			}
		}
	}
	return asError(first)
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
