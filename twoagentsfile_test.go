package liteagent_test

import (
	"context"
	"errors"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestTwoAgentsOneFileHomeConflict checks what the README says of two
// agents running turns of one session on a file home: the second runs at
// once, and the first one's turn then fails with a *session.ConflictError
// reachable with errors.As from Send's error (its answer is not stored).
func TestTwoAgentsOneFileHomeConflict(t *testing.T) {
	ctx := t.Context()
	home, work := t.TempDir(), t.TempDir()
	inTurn, finish := make(chan struct{}), make(chan struct{})
	first := modeltest.NewFunc(func(ctx context.Context, req model.Request) ([]model.Chunk, error) {
		close(inTurn)
		<-finish
		return modeltest.Text("first answer").Chunks(), nil
	})
	second := modeltest.New()
	second.Reply(modeltest.Text("second answer"))
	agent := func(p model.Provider) *liteagent.Agent {
		a, err := liteagent.New(ctx, liteagent.Options{
			Model: p, ModelName: "claude-sonnet-4-5", Workdir: work,
			Storage: storage.Options{Home: home},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		return a
	}
	a, b := agent(first), agent(second)
	if err := a.StartSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := a.Send(ctx, "one")
		done <- err
	}()
	<-inTurn
	if err := b.Resume("s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Send(ctx, "two"); err != nil {
		t.Fatalf("second agent's turn: %v", err)
	}
	close(finish)
	err := <-done
	var ce *session.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("first agent's turn: err = %v (%T), want a *session.ConflictError", err, err)
	}
	t.Logf("first agent's turn: %v", err)
}
