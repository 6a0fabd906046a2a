package postgres_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// The delete of a session racing a write of its private task list and
// one of its archive (each on a connection of its own) does not deadlock
// and leaves no part behind: the task write locks the list's row, then
// its tasks' rows, and the delete deleted the tasks' rows, then the
// list's (PostgreSQL broke the cycle with 40P01, and one side failed); an
// archive write committing between the delete's removal of the entries
// and that of the archive's row left entries without an archive.
func TestADeleteRacingATaskWriteDoesNotDeadlock(t *testing.T) {
	ctx := t.Context()
	schema := freshSchema(t)
	a := openStore(t, postgres.Options{Schema: schema})
	b := openStore(t, postgres.Options{Schema: schema})
	pa, pb := mpProject(t, a), mpProject(t, b)
	const id = "s1"
	var deadlocks int
	rounds := 0
	for deadline := time.Now().Add(6 * time.Second); rounds < 300 && time.Now().Before(deadline) && deadlocks == 0; rounds++ {
		if _, err := pa.Checkpointer().Append(ctx, id, clearRaceEvents, session.AnyHead); err != nil {
			t.Fatal(err)
		}
		tl, err := pa.TaskList(id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tl.Create(ctx, task.CreateInput{Subject: "one"}); err != nil {
			t.Fatal(err)
		}
		tasks, err := tl.List(ctx)
		if err != nil || len(tasks) == 0 {
			t.Fatal(err)
		}
		ar, err := pa.Archive(id, 0)
		if err != nil {
			t.Fatal(err)
		}
		r := startRacers()
		for range 3 {
			r.loop("archive write", func() error {
				_, err := ar.Put(ctx, "an archived result", nil)
				return err
			})
		}
		for w := range 2 {
			n := 0
			r.loop("task write", func() error {
				n++
				subject := fmt.Sprintf("w%d-%d", w, n)
				_, err := tl.Update(ctx, tasks[0].ID, task.UpdateInput{Subject: &subject})
				var nf *task.NotFoundError
				if errors.As(err, &nf) {
					return nil
				}
				return err
			})
		}
		time.Sleep(2 * time.Millisecond)
		deleteErr := pb.DeleteSession(ctx, id)
		errs := r.end()
		if deleteErr != nil {
			errs = append(errs, fmt.Errorf("delete: %w", deleteErr))
		}
		for _, err := range errs {
			if isDeadlock(err) {
				deadlocks++
			}
			t.Errorf("round %d: %v", rounds, err)
		}
		// An archive's entries are gone with it, or there with it.
		if n := orphanArchiveRows(t, schema); n != 0 {
			t.Errorf("round %d: %d archive entries without their archive", rounds, n)
		}
		if t.Failed() {
			break
		}
		// What the writes made after the delete goes too.
		if err := pb.DeleteSession(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d rounds, %d deadlocks", rounds, deadlocks)
}

// orphanArchiveRows counts the archive entries of schema whose archive has
// no row.
func orphanArchiveRows(t *testing.T, schema string) int {
	t.Helper()
	var n int
	scanOne(t, `SELECT count(*) FROM `+schema+`.archive_index i
		WHERE NOT EXISTS (SELECT 1 FROM `+schema+`.archives a
			WHERE a.namespace = i.namespace AND a.project = i.project AND a.session = i.session)`, &n)
	return n
}
