package builtin_test

import (
	"context"
	"fmt"
	"os"

	"github.com/lite-agent/lite-agent-go/task"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

func ExampleFileTools() {
	dir, err := os.MkdirTemp("", "workspace")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	tools, err := builtin.FileTools(builtin.FileOptions{Workdir: dir})
	if err != nil {
		panic(err)
	}
	// The tools come in the order read_file, write_file, edit_file,
	// delete_file.
	read, write, edit := tools[0], tools[1], tools[2]
	ctx := context.Background()
	for _, c := range []struct {
		tool  tool.Tool
		input string
	}{
		{write, `{"path": "notes/todo.txt", "content": "buy milk\nbuy bread"}`},
		{edit, `{"path": "notes/todo.txt", "old_text": "buy", "new_text": "bought"}`},
		{read, `{"path": "notes/todo.txt"}`},
		{read, `{"path": "../elsewhere.txt"}`},
	} {
		res, err := c.tool.Call(ctx, nil, []byte(c.input))
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %s\n", c.tool.Name(), res.Content)
	}
	// Output:
	// write_file: Wrote 18 bytes to notes/todo.txt
	// edit_file: Edited notes/todo.txt
	// read_file: bought milk
	// buy bread
	// read_file: Error: Path escapes workspace: ../elsewhere.txt
}

func ExampleTaskReminder() {
	store := task.NewMemoryStore()
	tools := builtin.TaskTools(func(context.Context, string) (task.Store, error) { return store, nil }, builtin.TaskOptions{})
	ctx := context.Background()
	for _, input := range []string{
		`{"subject": "Read the spec", "description": ""}`,
		`{"subject": "Write the code", "description": ""}`,
	} {
		res, _ := tools[0].Call(ctx, nil, []byte(input)) // TaskCreate
		fmt.Println(res.Content)
	}
	res, _ := tools[1].Call(ctx, nil, []byte(`{"taskId": "1", "status": "completed"}`)) // TaskUpdate
	fmt.Println(res.Content)

	reminder, err := builtin.TaskReminder(ctx, store)
	if err != nil {
		panic(err)
	}
	fmt.Println(reminder)
	// Output:
	// Created task #1: Read the spec
	// Created task #2: Write the code
	// Updated task #1: Read the spec (completed)
	// <system-reminder>
	// Current tasks:
	// [ ] #2 Write the code (pending)
	// </system-reminder>
}
