package liteagent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// A host shows the tasks an agent planned, on an encrypted data home,
// without opening a task store itself: TaskList reads the list through
// the agent's own namespace, project and codec.
func ExampleAgent_TaskList() {
	ctx := context.Background()
	home, _ := os.MkdirTemp("", "acme-home")
	defer os.RemoveAll(home)
	work, _ := os.MkdirTemp("", "acme-work")
	defer os.RemoveAll(work)
	key := bytes.Repeat([]byte{7}, 32) // in production: from your secret store
	enc, err := codec.NewAEAD(codec.AEADOptions{
		KeyID: "k1",
		Key:   func(context.Context, string) ([]byte, error) { return key, nil },
	})
	if err != nil {
		log.Fatal(err)
	}
	p := modeltest.New()
	p.Reply(
		modeltest.ToolCalls(model.ToolCallBlock("t1", "TaskCreate", json.RawMessage(`{"subject":"Reproduce the bug","description":"Run the failing test."}`))),
		modeltest.ToolCalls(model.ToolCallBlock("t2", "TaskCreate", json.RawMessage(`{"subject":"Fix the parser","description":"Handle empty input."}`))),
		modeltest.Text("Two tasks planned."),
	)
	a, err := liteagent.New(ctx, liteagent.Options{Model: p, ModelName: "claude-sonnet-4-5", Workdir: work,
		Storage: storage.Options{Namespace: "acme", Home: home, Codec: enc}})
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Send(ctx, "Plan the fix of issue 12."); err != nil {
		log.Fatal(err)
	}

	tasks, err := a.TaskList(ctx, "") // "": the current session's list
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tasks {
		fmt.Printf("#%s %s (%s)\n", t.ID, t.Subject, t.Status)
	}
	// A session nobody planned in has an empty list; an id that cannot
	// name a list is a *storage.Error.
	other, err := a.TaskList(ctx, "tomorrow")
	fmt.Println("another session:", len(other), err)
	_, err = a.TaskList(ctx, "../etc")
	var se *storage.Error
	fmt.Println("invalid id:", errors.As(err, &se))
	// Output:
	// #1 Reproduce the bug (pending)
	// #2 Fix the parser (pending)
	// another session: 0 <nil>
	// invalid id: true
}
