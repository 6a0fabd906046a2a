package postgres_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// warmLease takes and releases a lease of session "warm" in p, so that
// the Project's first Acquire (which prepares what later ones use) is done.
func warmLease(t *testing.T, p *postgres.Project) {
	t.Helper()
	l, err := p.Acquire(t.Context(), "warm", postgres.LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// slowCommits makes every COMMIT of a transaction that changed a row of
// schema's table (on the events named, such as "UPDATE" or "INSERT OR
// UPDATE") take d more: a deferred constraint trigger sleeps then.
func slowCommits(t *testing.T, schema, table, events string, d time.Duration) {
	t.Helper()
	conn := pgtest.Connect(t)
	if _, err := conn.Exec(t.Context(), fmt.Sprintf(`CREATE FUNCTION %[1]s.slow_commit() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN PERFORM pg_sleep(%[2]g); RETURN NULL; END $$;
		CREATE CONSTRAINT TRIGGER slow_commit AFTER %[3]s ON %[1]s.%[4]s
		DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION %[1]s.slow_commit()`, schema, d.Seconds(), events, table)); err != nil {
		t.Fatal(err)
	}
}
