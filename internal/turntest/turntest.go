// Package turntest holds what tests of the engine over several stores
// share: a turn whose session another process replaces during its model
// call.
package turntest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// ReplacedInCall runs one turn ("first", answered "mine") on session id
// of an engine over cp, whose first model call runs replace first (other
// processes deleting the session and starting it again), and reports an
// error unless the turn failed with the *session.ReplacedError of id.
func ReplacedInCall(t *testing.T, cp session.Checkpointer, id string, replace func(ctx context.Context) error) {
	t.Helper()
	var once sync.Once
	p := modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		once.Do(func() {
			if err := replace(ctx); err != nil {
				t.Errorf("the other process failed: %v", err)
			}
		})
		return modeltest.Text("mine").Chunks(), nil
	})
	eng, err := engine.New(engine.Options{Provider: p, Checkpointer: cp, Model: "m"})
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
}
