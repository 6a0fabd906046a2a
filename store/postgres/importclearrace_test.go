package postgres_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// The removal of a failed import's copy (removeImported) racing a
// Project.Clear of the same project (each on a store of its own) does not
// deadlock: the removal used to delete the import's marker and the
// sessions' records before their rows, and Clear locks the rows before
// deleting the records and the marker, so each waited for the other
// (PostgreSQL failed one with 40P01).
func TestARemovalOfAnImportRacingAClearDoesNotDeadlock(t *testing.T) {
	ctx := t.Context()
	schema := freshSchema(t)
	a := openStore(t, postgres.Options{Schema: schema})
	b := openStore(t, postgres.Options{Schema: schema})
	pa, pb := mpProject(t, a), mpProject(t, b)
	ids := make([]string, 8)
	for i := range ids {
		ids[i] = fmt.Sprintf("s%d", i)
	}
	rev := slices.Clone(ids)
	slices.Reverse(rev)
	recs := [][]byte{[]byte(`{"type":"user"}`), []byte(`{"type":"user"}`)}
	var deadlocks, failures int
	deadline := time.Now().Add(4 * time.Second)
	rounds := 0
	for ; rounds < 100 && time.Now().Before(deadline) && !t.Failed(); rounds++ {
		if err := postgres.SetImportMarker(ctx, pa); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if err := pa.ImportSession(ctx, id, recs, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		r := startRacers()
		r.loop("remove", func() error { return postgres.RemoveImported(ctx, pa, rev, nil, nil, false) })
		r.loop("clear", func() error { return pb.Clear(ctx) })
		time.Sleep(20 * time.Millisecond)
		for _, err := range r.end() {
			failures++
			if isDeadlock(err) {
				deadlocks++
			}
			t.Errorf("round %d: %v", rounds, err)
		}
	}
	t.Logf("%d rounds, %d failures, %d deadlocks", rounds, failures, deadlocks)
}
