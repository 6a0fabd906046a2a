package sessiontest

import (
	"reflect"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
)

// testReadFirst checks session.ReadFirst (the checkpointer's own First,
// when it is a session.FirstReader) against Read: none for an unknown or
// emptied session, record 1 otherwise, after appends and truncations
// that keep it, and the new session's after a delete.
func testReadFirst(t *testing.T, cp session.Checkpointer) {
	ctx, id := t.Context(), "first"
	check := func(what string) {
		t.Helper()
		got, ok, err := session.ReadFirst(ctx, cp, id)
		if err != nil {
			t.Fatalf("%s: ReadFirst: %v", what, err)
		}
		all := mustRead(t, cp, id, 0)
		if len(all) == 0 {
			if ok {
				t.Errorf("%s: ReadFirst of a log with no records returned %+v", what, got)
			}
			return
		}
		if !ok || !reflect.DeepEqual(got, all[0]) {
			t.Errorf("%s: ReadFirst = %+v, %v; want Read's first record %+v", what, got, ok, all[0])
		}
	}
	check("unknown")
	mustAppend(t, cp, id, 0, text("one"))
	check("one record")
	mustAppend(t, cp, id, 1, text("two"), text("three"))
	check("three records")
	if err := cp.Truncate(ctx, id, 1, 3); err != nil {
		t.Fatal(err)
	}
	check("truncated to 1")
	if err := cp.Truncate(ctx, id, 0, 1); err != nil {
		t.Fatal(err)
	}
	check("truncated to 0")
	mustAppend(t, cp, id, 0, text("again"))
	check("written again")
	if err := cp.Delete(ctx, id); err != nil {
		t.Fatal(err)
	}
	check("deleted")
	mustAppend(t, cp, id, 0, text("reborn"))
	check("started again")
}
