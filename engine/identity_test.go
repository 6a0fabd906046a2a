package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// A session the engine ran a turn on, deleted and started again under
// its id by other processes (real children, through the file store), is
// not the engine's: a turn, a record between turns and a compaction fail
// with a *session.ReplacedError and write nothing, also through a
// checkpointer that holds nothing (memory, where the "other process"
// writes in this one). Unidentify takes the new session as it is.
func TestAReplacedSessionIsRefused(t *testing.T) {
	for _, store := range []string{"file", "memory"} {
		t.Run(store, func(t *testing.T) {
			dir := t.TempDir()
			var cp session.Checkpointer = session.NewMemoryCheckpointer()
			if store == "file" {
				file, err := session.NewFileCheckpointer(dir, session.FileOptions{})
				if err != nil {
					t.Fatal(err)
				}
				cp = file
			}
			h := newHarness(t, engine.Options{Checkpointer: cp, Context: &engine.ContextOptions{Window: 4000}})
			const id = "reused-1"
			h.p.Reply(modeltest.Text("one"))
			if _, _, err := h.turn(t, t.Context(), id, "first"); err != nil {
				t.Fatal(err)
			}
			if store == "file" {
				for _, env := range []string{deleteChildEnv + "=" + dir + "\n" + id, appendChildEnv + "=" + dir + "\n" + id + "\ntheirs"} {
					if out, err := childtest.Command(t.Context(), env).CombinedOutput(); err != nil {
						t.Fatalf("the other process failed: %v\n%s", err, out)
					}
				}
			} else {
				if err := cp.Delete(t.Context(), id); err != nil {
					t.Fatal(err)
				}
				if _, err := cp.Append(t.Context(), id, []session.Event{session.UserEvent{Message: model.UserText("theirs")}}, 0); err != nil {
					t.Fatal(err)
				}
			}
			want := func(what string, err error) {
				t.Helper()
				var re *session.ReplacedError
				if !errors.As(err, &re) || re.SessionID != id {
					t.Errorf("%s on the replaced session: %v; want a *session.ReplacedError", what, err)
				}
			}
			h.p.Reply(modeltest.Text("mine"))
			_, _, err := h.turn(t, t.Context(), id, "mine")
			want("a turn", err)
			want("a record between turns", h.eng.RecordBetweenTurns(t.Context(), id, session.UserEvent{Message: model.UserText("between")}, nil))
			_, err = h.eng.Compact(t.Context(), id, engine.CompactOptions{})
			want("a compaction", err)
			if got := logTypes(t, cp, id); strings.Join(got, ",") != "user" {
				t.Errorf("the log holds %v; want the other writer's one record", got)
			}
			h.eng.Unidentify(id)
			if _, _, err := h.turn(t, t.Context(), id, "mine"); err != nil {
				t.Errorf("a turn after Unidentify: %v", err)
			}
		})
	}
}
