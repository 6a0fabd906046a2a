package task_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

func ExampleFileStore() {
	ctx := context.Background()
	tasksDir, err := os.MkdirTemp("", "tasks")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tasksDir)

	// A private list for one session.
	store, err := task.NewFileStore(tasksDir, task.DefaultListID("session-1", ""), storage.Encoding{})
	if err != nil {
		log.Fatal(err)
	}
	schema, _ := store.Create(ctx, task.CreateInput{Subject: "Design schema"})
	migration, _ := store.Create(ctx, task.CreateInput{Subject: "Write migration"})
	if _, err := store.Update(ctx, migration.ID, task.UpdateInput{AddBlockedBy: []string{schema.ID}}); err != nil {
		log.Fatal(err)
	}

	// The migration cannot start before the schema is done.
	inProgress := task.InProgress
	_, err = store.Update(ctx, migration.ID, task.UpdateInput{Status: &inProgress})
	fmt.Println(err)

	text, _ := store.Render(ctx, task.RenderOptions{})
	fmt.Println(text)

	entries, _ := os.ReadDir(filepath.Join(tasksDir, "session-1"))
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	// Output:
	// task '2' has unfinished dependencies
	// [ ] #1 Design schema (pending)
	// [ ] #2 Write migration (pending) [blockedBy: 1]
	// 1.json
	// 2.json
}

func ExampleStore_Update_cycle() {
	ctx := context.Background()
	store := task.NewMemoryStore()
	a, _ := store.Create(ctx, task.CreateInput{Subject: "a"})
	b, _ := store.Create(ctx, task.CreateInput{Subject: "b"})
	_, _ = store.Update(ctx, b.ID, task.UpdateInput{AddBlockedBy: []string{a.ID}})

	_, err := store.Update(ctx, a.ID, task.UpdateInput{AddBlockedBy: []string{b.ID}})
	fmt.Println(errors.Is(err, task.ErrCycle), err)
	// Output:
	// true update would create a dependency cycle
}

func ExampleStore_Get() {
	ctx := context.Background()
	store := task.NewMemoryStore()
	_, ok, err := store.Get(ctx, "42")
	fmt.Println(ok, err)
	// Output:
	// false <nil>
}

func ExampleDefaultListID() {
	fmt.Println(task.DefaultListID("3f2c9a", ""))     // private to the session
	fmt.Println(task.DefaultListID("3f2c9a", "team")) // shared
	// Output:
	// 3f2c9a
	// team
}
