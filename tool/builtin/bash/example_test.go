package bash_test

import (
	"context"
	"fmt"
	"os"

	"github.com/lite-agent/lite-agent-go/tool/builtin/bash"
)

func ExampleTool() {
	bt, err := bash.Tool(bash.Options{Workdir: os.TempDir()})
	if err != nil {
		panic(err)
	}
	for _, input := range []string{
		`{"command": "echo hello; echo world >&2"}`,
		`{"command": "exit 1"}`,
		`{"command": "sudo reboot"}`,
	} {
		res, err := bt.Call(context.Background(), nil, []byte(input))
		if err != nil {
			panic(err)
		}
		fmt.Printf("%q isError=%t\n", res.Content, res.IsError)
	}
	// Output:
	// "hello\nworld" isError=false
	// "Error: command exited with code 1" isError=true
	// "Error: Dangerous command blocked" isError=true
}

func ExampleBackgroundTools() {
	exited := make(chan string, 1)
	bg, err := bash.NewBackground(bash.BackgroundOptions{
		OnExit: func(c bash.Completion) { exited <- c.ID },
	})
	if err != nil {
		panic(err)
	}
	defer bg.Close() // kills whatever still runs
	bt, err := bash.Tool(bash.Options{Workdir: os.TempDir(), Background: bg})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	if _, err := bt.Call(ctx, nil, []byte(`{"command": "echo building; echo built", "run_in_background": true}`)); err != nil {
		panic(err)
	}
	id := <-exited

	bashOutput := bash.BackgroundTools(bg)[1]
	res, err := bashOutput.Call(ctx, nil, []byte(`{"id": "`+id+`"}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Content)
	// Output:
	// building
	// built
	// [process exited]
}
