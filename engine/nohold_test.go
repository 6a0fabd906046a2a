package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/turntest"
	"github.com/lite-agent/lite-agent-go/session"
)

// noHold is a Checkpointer with neither a session lock to hold
// (session.Holder) nor a lease: a custom store's, here a file store's
// methods alone.
type noHold struct{ session.Checkpointer }

// A session deleted and started again by other processes (real
// children) while a turn waits on the model, through a checkpointer that
// holds nothing, whose new log has as many records as the turn's: the
// turn's answer was appended to the other process's session (the head
// check passed). Now the first record is read again before each append
// after the load, and the turn fails with a *session.ReplacedError,
// writing nothing more.
func TestATurnThroughACheckpointerThatHoldsNothingChecksTheSessionBeforeItAppends(t *testing.T) {
	dir := t.TempDir()
	file, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cp := noHold{file}
	const id = "replaced-in-the-call"
	turntest.ReplacedInCall(t, cp, id, func(ctx context.Context) error {
		for _, env := range []string{deleteChildEnv + "=" + dir + "\n" + id, appendChildEnv + "=" + dir + "\n" + id + "\ntheirs"} {
			if out, err := childtest.Command(ctx, env).CombinedOutput(); err != nil {
				return fmt.Errorf("%w\n%s", err, out)
			}
		}
		return nil
	})
	if got := logTypes(t, cp, id); strings.Join(got, ",") != "user" {
		t.Errorf("the log holds %v; want the other writer's one record", got)
	}
}
