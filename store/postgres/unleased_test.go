package postgres_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An engine whose Checkpointer is a PostgreSQL one, used with no lease
// taken (the engine on its own: nobody calls LeaseSession). Another
// process deleted the session and started it again while the turn waited
// on the model, with as many records as the turn had: the engine skipped
// its re-check of the first record for any checkpointer that can lease,
// leased or not, and the turn's answer went into the other process's
// session. The re-check is skipped only while a lease of the session is
// held through the checkpointer.
func TestAnUnleasedTurnThroughPostgresChecksTheSessionBeforeItAppends(t *testing.T) {
	schema := freshSchema(t)
	st := openStore(t, postgres.Options{Schema: schema})
	p, err := st.Project(storage.Encoding{ProjectID: "mp"})
	if err != nil {
		t.Fatal(err)
	}
	cp := p.Checkpointer()
	const id = "replaced-unleased"
	var once sync.Once
	prov := modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		once.Do(func() {
			if out, err := childtest.Command(ctx, helperEnvs(schema, "replace", id)...).CombinedOutput(); err != nil {
				t.Errorf("the other process failed: %v\n%s", err, out)
			}
		})
		return modeltest.Text("mine").Chunks(), nil
	})
	eng, err := engine.New(engine.Options{Provider: prov, Checkpointer: cp, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	var terr error
	for _, err := range eng.Turn(t.Context(), id, model.UserText("first")) {
		if err != nil {
			terr = err
		}
	}
	var re *session.ReplacedError
	if !errors.As(terr, &re) || re.SessionID != id {
		t.Errorf("the turn on the session replaced during its model call: %v; want a *session.ReplacedError", terr)
	}
	evs, err := cp.Read(t.Context(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range evs {
		got = append(got, userText(ev.Event))
	}
	if len(got) != 1 || got[0] != "theirs" {
		t.Errorf("the log holds %q; want the other process's one record", got)
	}
}
