package liteagent_test

import (
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// The PostgreSQL form of TestAKilledForksLeftoversAreMarkedAndSwept: a
// fork killed (SIGKILL, a real child) while it copies the session's task
// list, or while it writes the new log, leaves a copied archive and task
// list in the database that no session lists. The retention sweep
// (Store.Sweep) must remove them once old, and only them: young
// leftovers, the forked session's own list and a list of no session that
// no fork made (a real one) stay.
func TestAKilledForksLeftoversInPostgresAreSwept(t *testing.T) {
	url := pgtest.URL(t)
	for _, kind := range []storage.Kind{storage.KindTask, storage.KindCheckpoint} {
		t.Run(string(kind), func(t *testing.T) {
			ctx := t.Context()
			st, url, schema := forkStore(t, url)
			f := newFixture(t)
			opts := f.options(aeadCodec(t, "k1"))
			opts.ContextWindow = 4000
			opts.Store = st
			a := f.agent(t, opts)
			sessionWithData(t, f, a)
			orig := a.SessionID()
			enc := encodingOf(a, opts)
			a.Close()
			// A list no session is named after, and no fork made.
			team, err := st.TaskList(ctx, enc, "team")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := team.Create(ctx, task.CreateInput{Subject: "real work"}); err != nil {
				t.Fatal(err)
			}

			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), forkChildEnv+"="+f.home+"\n"+f.workdir+"\n"+orig+"\n"+string(kind)+"\n"+url+"\n"+schema)
			out, err := cmd.CombinedOutput()
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("the child was not killed at its first %s encode: %v\n%s", kind, err, out)
			}

			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			ids := func(query string) []string {
				t.Helper()
				rows, err := conn.Query(ctx, query)
				if err != nil {
					t.Fatal(err)
				}
				got, err := pgx.CollectRows(rows, pgx.RowTo[string])
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			leftArchives := func() []string {
				return ids(`SELECT session FROM ` + schema + `.archives a WHERE NOT EXISTS (SELECT 1 FROM ` + schema + `.sessions s WHERE s.session = a.session) ORDER BY 1`)
			}
			lists := func() []string {
				return ids(`SELECT list FROM ` + schema + `.task_lists ORDER BY 1`)
			}
			orphans := leftArchives()
			if len(orphans) != 1 {
				t.Fatalf("archives of no session after the killed fork: %v", orphans)
			}
			newID := orphans[0]
			if kind == storage.KindCheckpoint && !slices.Contains(lists(), newID) {
				t.Fatalf("the killed fork left no task list %s: %v", newID, lists())
			}

			sweep := func() postgres.SweepReport {
				t.Helper()
				rep, err := st.Sweep(ctx, postgres.SweepOptions{Namespace: enc.Namespace, MaxAge: 30 * 24 * time.Hour})
				if err != nil {
					t.Fatal(err)
				}
				return rep
			}
			// Young, the leftovers stay.
			sweep()
			if got := leftArchives(); !slices.Equal(got, orphans) {
				t.Errorf("a young fork's leftover archive was swept: %v", got)
			}
			// A month later (the sessions' own rows stay young), they go.
			for _, stmt := range []string{
				`UPDATE ` + schema + `.archives SET modified = modified - interval '31 days'`,
				`UPDATE ` + schema + `.task_lists SET modified = modified - interval '31 days'`,
				`UPDATE ` + schema + `.leases SET expires = expires - interval '31 days' WHERE expires <> 'infinity'`,
			} {
				if _, err := conn.Exec(ctx, stmt); err != nil {
					t.Fatal(err)
				}
			}
			rep := sweep()
			if got := leftArchives(); len(got) != 0 {
				t.Errorf("the killed fork's archive survived the sweep: %v (report %+v)", got, rep)
			}
			if n := ids(`SELECT ref FROM ` + schema + `.archive_notes WHERE session = '` + newID + `'`); len(n) != 0 {
				t.Errorf("the killed fork's notes survived the sweep: %d", len(n))
			}
			got := lists()
			if slices.Contains(got, newID) || !slices.Contains(got, orig) || !slices.Contains(got, "team") {
				t.Errorf("task lists after the sweep: %v (the fork's %s must go; %s and team stay)", got, newID, orig)
			}
			if n := ids(`SELECT id FROM ` + schema + `.tasks WHERE list = '` + newID + `'`); len(n) != 0 {
				t.Errorf("the killed fork's tasks survived the sweep: %v", n)
			}
		})
	}
}
