package verify

import (
	"context"
	"errors"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// Store reads every session log, context archive, spilled body and task
// list of the project enc names in st, decoding each record (and checking
// each note and body against its ref), and adds each that does not read to
// rep as one project's findings. A project an import did not finish
// copying into is a finding too.
func Store(ctx context.Context, st *postgres.Store, enc storage.Encoding, rep *Report) error {
	cp, err := st.Checkpointer(ctx, enc)
	if err != nil {
		return err
	}
	infos, err := cp.List(ctx)
	if err != nil {
		return err
	}
	rep.Projects = 1
	// The partial copy of an import (lite-agent migrate --to-store) that
	// did not finish: what it holds reads, but is not the whole project.
	p, err := st.Project(enc)
	if err != nil {
		return err
	}
	if incomplete, err := p.ImportIncomplete(ctx); err != nil {
		return err
	} else if incomplete {
		rep.Add("project "+enc.ProjectID, "", "import", errors.New("an import into this project (migrate --to-store) did not finish, or is running now: the project holds part of the copy; once no import runs, run the same migrate --to-store again to complete it"))
	}
	for _, in := range infos {
		rep.Files++
		if _, err := cp.Read(ctx, in.ID, 0); err != nil {
			rep.Add("session "+in.ID, "", "session", err)
		}
	}
	// Archives and spilled bodies are read back by sessions and tools
	// later: each is decoded and checked against its ref now.
	archives, err := p.Archives(ctx)
	if err != nil {
		return err
	}
	sessions := make(map[string]bool, len(infos))
	for _, in := range infos {
		sessions[in.ID] = true
	}
	for _, id := range archives {
		rep.Files++
		if _, err := p.ArchiveEntries(ctx, id); err != nil {
			rep.Add("archive "+id, "", "archive", err)
		}
		if !sessions[id] {
			rep.Warnings = append(rep.Warnings, Problem{File: "archive " + id, Kind: leftover,
				Message: "the context archive of " + id + " belongs to no session: a fork or delete that did not finish leaves one"})
		}
	}
	refs, err := p.SpillRefs(ctx)
	if err != nil {
		return err
	}
	for _, ref := range refs {
		rep.Files++
		if _, ok, err := p.Spill().Get(ctx, ref); err != nil {
			rep.Add("spill "+ref, ref, "spill", err)
		} else if !ok {
			rep.Add("spill "+ref, ref, "spill", errors.New("the spilled body is gone"))
		}
	}
	ids, err := st.TaskListIDs(ctx, enc)
	if err != nil {
		return err
	}
	for _, id := range ids {
		rep.Files++
		tl, err := st.TaskList(ctx, enc, id)
		if err == nil {
			_, err = tl.List(ctx)
		}
		if err != nil {
			rep.Add("task list "+id, "", "task", err)
			continue
		}
		// A list marked as a fork's copy whose session has no log is what a
		// fork killed before its log left; as verify of a data home warns
		// only of a list holding task.ForkMarker, a list without the mark
		// is no leftover, session or not (a shared list has none).
		if sessions[id] {
			continue
		}
		if left, err := p.ForkLeftover(ctx, id); err != nil {
			return err
		} else if left {
			rep.Warnings = append(rep.Warnings, Problem{File: "task list " + id, Kind: leftover,
				Message: "the task list " + id + " is the copy of a fork that did not finish (it is marked as a fork's and session " + id + " has no log); cleanup removes it once old"})
		}
	}
	return nil
}
