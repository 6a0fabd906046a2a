package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
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
		stop := make(chan struct{})
		var mu sync.Mutex
		var errs []error
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					if _, err := ar.Put(ctx, "an archived result", nil); err != nil {
						mu.Lock()
						errs = append(errs, fmt.Errorf("archive write: %w", err))
						mu.Unlock()
						return
					}
				}
			})
		}
		for w := range 2 {
			wg.Go(func() {
				for n := 0; ; n++ {
					select {
					case <-stop:
						return
					default:
					}
					subject := fmt.Sprintf("w%d-%d", w, n)
					_, err := tl.Update(ctx, tasks[0].ID, task.UpdateInput{Subject: &subject})
					var nf *task.NotFoundError
					if err != nil && !errors.As(err, &nf) {
						mu.Lock()
						errs = append(errs, fmt.Errorf("task write: %w", err))
						mu.Unlock()
						return
					}
				}
			})
		}
		time.Sleep(2 * time.Millisecond)
		if err := pb.DeleteSession(ctx, id); err != nil {
			errs = append(errs, fmt.Errorf("delete: %w", err))
		}
		close(stop)
		wg.Wait()
		for _, err := range errs {
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == "40P01" {
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
	conn, err := pgx.Connect(t.Context(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM `+schema+`.archive_index i
		WHERE NOT EXISTS (SELECT 1 FROM `+schema+`.archives a
			WHERE a.namespace = i.namespace AND a.project = i.project AND a.session = i.session)`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
