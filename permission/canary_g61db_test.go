//go:build linux

package permission_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// TestCanaryG61DatabaseWriters: createdb, dropdb and pgbench -i change
// the test PostgreSQL server, running-process state the workdir does not
// hold: each line must do so when run, and be refused by both scenarios
// ("allow bash" allowed each at stop 60). pg_dump to its standard output
// stays allowed.
func TestCanaryG61DatabaseWriters(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "createdb", "dropdb", "pgbench", "psql", "pg_dump")
	url := pgtest.URL(t)
	if strings.Contains(url, "'") {
		t.Skip("the database URL holds a quote")
	}
	name := fmt.Sprintf("g61_%d", os.Getpid())
	query := func(sql string) string {
		out, err := exec.Command("psql", url, "-tAc", sql).CombinedOutput()
		if err != nil {
			t.Fatalf("psql %q: %v\n%s", sql, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	t.Cleanup(func() {
		_ = exec.Command("dropdb", "--if-exists", "--maintenance-db="+url, name).Run()
	})
	dropBench := func() {
		_ = exec.Command("psql", url, "-c", "drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers").Run()
	}
	dropBench()
	db := "select count(*) from pg_database where datname = '" + name + "'"
	for _, c := range []struct{ line, check, want string }{
		{"createdb --maintenance-db='" + url + "' " + name, db, "1"},
		{"dropdb --maintenance-db='" + url + "' " + name, db, "0"},
		{"pgbench -i -s 1 -q '" + url + "'", "select count(*) from pg_tables where tablename = 'pgbench_accounts'", "1"},
	} {
		root := canaryFixture(t, canaryTemplate(t))
		before := query(c.check)
		refusedEverywhere(t, root, c.line)
		out := runLine(t, root, c.line, time.Minute, "")
		if got := query(c.check); got != c.want || got == before {
			t.Errorf("%q did not change the server when run (%s, before %s):\n%s", c.line, got, before, out)
		}
	}
	dropBench()
	root := canaryFixture(t, canaryTemplate(t))
	if out := authorize(t, canaryGate(t, root, canaryAllowBashRules), "pg_dump --schema-only '"+url+"'"); !out.Run {
		t.Errorf("ordinary line pg_dump was refused: %+v", out.Verdict)
	}
}
