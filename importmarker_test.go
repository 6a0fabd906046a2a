package liteagent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A project an import (migrate --to-store) did not finish copying into
// holds part of the copy and the import's marker (store/postgres's
// TestKilledImportIsMarkedAndARerunCompletes kills a real import to leave
// it). The rerun that completes it replaces the sessions it copied, so an
// agent must not write there meanwhile: New refuses the project, as it
// refuses a data home a migration did not finish.
func TestAgentRefusesAProjectAnImportDidNotFinish(t *testing.T) {
	url := pgtest.URL(t)
	st, _, schema := forkStore(t, url)
	f := newFixture(t)
	opts := f.options(nil)
	opts.Store = st
	a := f.agent(t, opts)
	p := a.Paths()
	a.Close()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `INSERT INTO `+schema+`.leases (namespace, project, session, holder, token, expires)
		VALUES ($1, $2, '.import-incomplete', 'lite-agent import', 0, 'infinity')`, p.Namespace, p.Hash); err != nil {
		t.Fatal(err)
	}
	_, err = liteagent.New(t.Context(), opts)
	var se *storage.Error
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "import") {
		t.Fatalf("New on a project an import did not finish = %v, want a *storage.Error about the import", err)
	}
}
