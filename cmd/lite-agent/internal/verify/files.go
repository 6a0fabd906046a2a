package verify

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// Files checks the project directories dirs of the data home home, whose
// records are encoded with codec under namespace, and adds what it finds
// to rep. A migration that did not finish leaves its marker in the home or
// a project directory: that is a problem too, since its data is
// incomplete. Directories that do not exist are skipped. Only a failure to
// read a directory (or ctx ending) is returned as an error.
func Files(ctx context.Context, home string, dirs []string, codec storage.Codec, namespace string, rep *Report) error {
	for _, dir := range append([]string{home}, dirs...) {
		if err := migrate.CheckComplete(dir); err != nil {
			rep.Add(filepath.Join(dir, migrate.MarkerName), "", "migration", err)
		}
	}
	for _, dir := range dirs {
		enc := storage.Encoding{Codec: codec, Namespace: namespace, ProjectID: filepath.Base(dir)}
		if ok, _ := exists(dir); !ok {
			continue
		}
		rep.Projects++
		if err := project(ctx, dir, enc, rep); err != nil {
			return err
		}
	}
	return nil
}

// ProjectDirs lists the project directories under projects (not following
// symlinks); none when projects does not exist.
func ProjectDirs(projects string) ([]string, error) {
	ents, err := os.ReadDir(projects)
	if err != nil {
		if ok, _ := exists(projects); !ok {
			return nil, nil
		}
		return nil, err
	}
	var dirs []string
	for _, e := range ents {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(projects, e.Name()))
		}
	}
	return dirs, nil
}

// TaskLists returns the task lists of tasksDir to show or check: only, if
// set and present, else every list directory, sorted. It creates nothing.
func TaskLists(tasksDir, only string) ([]string, error) {
	if only != "" {
		ok, err := exists(filepath.Join(tasksDir, only))
		if err != nil || !ok {
			return nil, err
		}
		return []string{only}, nil
	}
	ents, err := os.ReadDir(tasksDir)
	if err != nil {
		if ok, _ := exists(tasksDir); !ok {
			return nil, nil
		}
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		// A symlink named like a list is listed too: the task stores
		// refuse it, and checking it reports that.
		if (e.IsDir() || e.Type()&fs.ModeSymlink != 0) && !strings.HasSuffix(e.Name(), ".lock") && storage.ValidateID(e.Name()) == nil {
			ids = append(ids, e.Name())
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// exists reports whether path exists (without following a final symlink),
// so that verify creates no store directories.
func exists(path string) (bool, error) {
	_, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// project checks the stores of one project directory.
func project(ctx context.Context, dir string, enc storage.Encoding, rep *Report) error {
	if err := sessions(ctx, filepath.Join(dir, storage.SessionsDirName), enc, rep); err != nil {
		return err
	}
	if err := tasks(ctx, filepath.Join(dir, storage.TasksDirName), enc, rep); err != nil {
		return err
	}
	leftovers(dir, rep)
	spillDir := filepath.Join(dir, storage.SpillDirName)
	if ok, _ := exists(spillDir); ok {
		st, err := spill.NewFileStore(spillDir, enc)
		if err != nil {
			rep.Add(spillDir, "", "directory", err)
			return nil
		}
		probs, err := st.Verify(ctx)
		if err != nil {
			rep.Add(spillDir, "", "directory", err)
			return nil
		}
		rep.Files += countFiles(spillDir, spill.FileSuffix)
		rep.AddProblems(probs)
	}
	return nil
}

// sessions checks the session logs and context archives in dir, several
// at a time (see [runChecks]); what they find is added to rep in the
// order of the directory's entries, as one at a time would add it.
func sessions(ctx context.Context, dir string, enc storage.Encoding, rep *Report) error {
	if ok, _ := exists(dir); !ok {
		return nil
	}
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{Encoding: enc})
	if err != nil {
		rep.Add(dir, "", "directory", err)
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var checks []check
	for _, e := range ents {
		name := e.Name()
		switch {
		case strings.HasSuffix(name, session.LogSuffix) && !strings.HasPrefix(name, "."):
			id := strings.TrimSuffix(name, session.LogSuffix)
			checks = append(checks, check{file: filepath.Join(dir, name), kind: "file", run: func(ctx context.Context) ([]storage.Problem, error) {
				return sessionLog(ctx, cp, id)
			}})
		case isDeleting(name):
			// A delete killed part-way: the session refuses to load until
			// the delete is run again.
			id, _ := session.DeletingID(name)
			path := filepath.Join(dir, name)
			rep.Files++
			if t := e.Type(); t != 0 {
				// Not what a delete sets aside: the error says what it is
				// and to remove it by hand; it is not followed or opened.
				rep.Add(path, "", deleting, &session.DeletingError{SessionID: id, File: path, Type: t})
				break
			}
			rep.Add(path, "", deleting, fmt.Errorf("%w; run lite-agent sessions delete %s to finish it", &session.DeletingError{SessionID: id, File: path}, id))
		case e.Type()&fs.ModeSymlink != 0 && isContextDir(name):
			// The archive stores refuse it: the session's archived
			// results cannot be read.
			path := filepath.Join(dir, name)
			rep.Files++
			rep.Add(path, "", string(storage.ProblemSymlink), &storage.Error{Op: "verify", Kind: storage.KindArchive, File: path, Message: "Context archive directory is a symlink, which the stores refuse"})
		case e.IsDir() && isContextDir(name):
			id, hashed, _ := storage.ParseContextDirName(name)
			path := filepath.Join(dir, name)
			if hashed && enc.Encoded() {
				// Named by the hash of its session's id, which the name
				// does not give back and which is part of every record's
				// codec context: it cannot be decoded, and must not pass
				// for verified. A plaintext archive needs no id.
				checks = append(checks, check{file: path, warn: &Problem{File: path, Kind: unverified,
					Message: "the context archive " + path + " was not verified: its name is the hash of its session's id, which the records' codec context needs"}})
				continue
			}
			checks = append(checks, check{file: path, kind: "directory", run: func(ctx context.Context) ([]storage.Problem, error) {
				ar, err := archive.NewFileArchive(path, archive.Options{Encoding: enc, SessionID: id})
				if err != nil {
					return nil, err
				}
				return ar.Verify(ctx)
			}})
		}
	}
	return runChecks(ctx, checks, rep)
}

// sessionLog checks the log of session id: its records, and the UTF-8 of
// a plaintext log, which reads take leniently. Both read the log under
// one hold of its lock. A torn tail (an append that never completed) is a
// warning: not damage, and set aside by the next append.
func sessionLog(ctx context.Context, cp *session.FileCheckpointer, id string) ([]storage.Problem, error) {
	release, err := cp.Hold(ctx, id)
	if err != nil {
		return nil, err
	}
	defer func() { _ = release() }()
	probs, err := cp.Verify(ctx, id)
	if err != nil {
		return nil, err
	}
	if more, err := cp.CheckUTF8(ctx, id); err == nil {
		probs = append(probs, more...)
	}
	return probs, nil
}

// A check is the check of one file or directory of a store, or, with
// warn, a warning in its place about one that cannot be checked.
type check struct {
	file, kind string // what a failure to check is reported against
	run        func(context.Context) ([]storage.Problem, error)
	warn       *Problem
}

// unverified is the kind of the warning about a store's file or directory
// that verify cannot check.
const unverified = "unverified"

// runChecks runs checks, one more at a time than there are processors
// (a check waits for locks and reads as much as it computes), and adds
// each one's file and problems to rep in the order of checks; a check that
// fails is reported as a problem of its file. Checks run at most a few
// ahead of the one reported next, so that the problems held at once are
// those of a few files, as when they ran one at a time (a directory of
// logs written with another codec has a problem in every record). It
// returns ctx.Err() if ctx ends.
func runChecks(ctx context.Context, checks []check, rep *Report) error {
	type result struct {
		probs []storage.Problem
		err   error
		done  chan struct{} // closed when the check has run
	}
	results := make([]result, len(checks))
	for i := range results {
		results[i].done = make(chan struct{})
	}
	workers := min(len(checks), runtime.GOMAXPROCS(0)+1)
	ahead := make(chan struct{}, 4*workers) // one token per check run but not yet reported
	var next atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	defer func() {
		close(stop)
		wg.Wait()
	}()
	for range workers {
		wg.Go(func() {
			for {
				select {
				case ahead <- struct{}{}:
				case <-stop:
					return
				}
				i := int(next.Add(1) - 1)
				if i >= len(checks) {
					return
				}
				r := &results[i]
				if r.err = ctx.Err(); r.err == nil && checks[i].run != nil {
					r.probs, r.err = checks[i].run(ctx)
				}
				close(r.done)
			}
		})
	}
	for i, c := range checks {
		<-results[i].done
		<-ahead
		if err := ctx.Err(); err != nil {
			return err
		}
		if c.warn != nil {
			rep.Warnings = append(rep.Warnings, *c.warn)
			continue
		}
		rep.Files++
		if err := results[i].err; err != nil {
			rep.Add(c.file, "", c.kind, err)
		} else {
			rep.AddProblems(results[i].probs)
		}
		results[i].probs = nil
	}
	return nil
}

// tasks checks the task records of every list in dir.
func tasks(ctx context.Context, dir string, enc storage.Encoding, rep *Report) error {
	lists, err := TaskLists(dir, "")
	if err != nil {
		return err
	}
	for _, list := range lists {
		st, err := task.NewFileStore(dir, list, enc)
		if err != nil {
			rep.Add(filepath.Join(dir, list), "", "directory", err)
			continue
		}
		ents, err := os.ReadDir(filepath.Join(dir, list))
		if err != nil {
			return err
		}
		var ids []string
		for _, e := range ents {
			if stem, ok := task.RecordStem(e.Name()); ok && !strings.HasPrefix(stem, ".") {
				ids = append(ids, stem)
			}
		}
		sort.Strings(ids)
		for _, id := range ids {
			rep.Files++
			if _, _, err := st.Get(ctx, id); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				kind := "record"
				var se *storage.Error
				if errors.As(err, &se) && se.Op == "decode" {
					kind = "decode"
				}
				rep.Add(filepath.Join(dir, list, id+task.RecordSuffix), id, kind, err)
				continue
			}
			if !enc.Encoded() {
				// Reads take invalid UTF-8 leniently; verify reports it.
				file := filepath.Join(dir, list, id+task.RecordSuffix)
				if invalidUTF8(file) {
					rep.Add(file, id, string(storage.ProblemUTF8), &storage.Error{Op: "verify", Kind: storage.KindTask, File: file, Record: id, Message: "Task record is not valid UTF-8"})
				}
			}
		}
	}
	return nil
}

// invalidUTF8 reports whether the task record at file is a regular file
// whose bytes are not valid UTF-8. It reads without following a symlink and
// without waiting on a FIFO: the store read the record a moment before, and
// what stands under its name now may have been swapped in since. Anything
// that is not a regular file is not reported here (the store's own read
// reports it on the next run).
func invalidUTF8(file string) bool {
	b, err := safefs.ReadRegular(file, -1)
	return err == nil && !utf8.Valid(b)
}

// deleting is the kind of the problem of a session whose delete did not
// finish (see session.FileCheckpointer.BeginDelete).
const deleting = "deleting"

// isDeleting reports whether name is the log of a session being deleted.
func isDeleting(name string) bool {
	_, ok := session.DeletingID(name)
	return ok
}

// leftover is the kind of the warning about data no session lists.
const leftover = "leftover"

// leftovers warns of what no session of the project in dir lists: a
// context archive whose session has no log (what a fork or a delete that
// did not finish leaves), and a task list marked task.ForkMarker whose
// session has no log (what a fork killed before it wrote the log leaves).
// Neither is damage: the cleanup sweep removes both once old. A task list
// without the mark is never a leftover (a shared list has no log).
func leftovers(dir string, rep *Report) {
	sessionsDir := filepath.Join(dir, storage.SessionsDirName)
	hasLog := func(id string) bool {
		// The log of a session being deleted counts: the session is
		// reported as such, and the delete's rerun removes the rest.
		for _, name := range []string{id + session.LogSuffix, session.DeletingName(id)} {
			if ok, err := exists(filepath.Join(sessionsDir, name)); ok || err != nil {
				return true
			}
		}
		return false
	}
	ents, _ := os.ReadDir(sessionsDir)
	for _, e := range ents {
		id, hashed, ok := storage.ParseContextDirName(e.Name())
		if !ok || hashed || !e.IsDir() || hasLog(id) {
			continue
		}
		path := filepath.Join(sessionsDir, e.Name())
		rep.Warnings = append(rep.Warnings, Problem{File: path, Kind: leftover,
			Message: "the context archive " + path + " belongs to no session (its log " + id + session.LogSuffix + " is missing): a fork or delete that did not finish leaves one; cleanup removes it once old"})
	}
	tasksDir := filepath.Join(dir, storage.TasksDirName)
	lists, _ := TaskLists(tasksDir, "")
	for _, list := range lists {
		path := filepath.Join(tasksDir, list)
		if marked, _ := exists(filepath.Join(path, task.ForkMarker)); !marked || hasLog(list) {
			continue
		}
		rep.Warnings = append(rep.Warnings, Problem{File: path, Kind: leftover,
			Message: "the task list " + path + " is the copy of a fork that did not finish (it holds " + task.ForkMarker + " and no session log " + list + session.LogSuffix + " exists); cleanup removes it once old"})
	}
}

// isContextDir reports whether name is a context archive directory's.
func isContextDir(name string) bool {
	_, _, ok := storage.ParseContextDirName(name)
	return ok
}

// countFiles counts the entries of dir with the given suffix.
func countFiles(dir, suffix string) int {
	ents, _ := os.ReadDir(dir)
	n := 0
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), suffix) && !strings.HasPrefix(e.Name(), ".") {
			n++
		}
	}
	return n
}
