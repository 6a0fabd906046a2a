package postgres_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/turntest"
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
	turntest.ReplacedInCall(t, cp, id, func(ctx context.Context) error {
		if out, err := childtest.Command(ctx, helperEnvs(schema, "replace", id)...).CombinedOutput(); err != nil {
			return fmt.Errorf("%w\n%s", err, out)
		}
		return nil
	})
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
