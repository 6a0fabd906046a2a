package verify

import (
	"context"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// Store reads every session log and task list of the project enc names in
// st, decoding each record, and adds each that does not read to rep as one
// project's findings. Archives and spilled output are read when a session
// or tool asks for them, so they are not checked here.
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
	for _, in := range infos {
		rep.Files++
		if _, err := cp.Read(ctx, in.ID, 0); err != nil {
			rep.Add("session "+in.ID, "", "session", err)
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
		}
	}
	return nil
}
