package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"

	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A host contains a command in bubblewrap when it works here, and says so
// when it does not.
func ExampleAuto() {
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "."})
	if err != nil {
		log.Fatal(err)
	}
	sb, err := sandbox.Auto(context.Background(), sandbox.ProjectOptions(paths, ""))
	switch {
	case errors.Is(err, sandbox.ErrUnavailable):
		fmt.Fprintln(os.Stderr, "notice: commands run without a sandbox:", err)
	case err != nil:
		log.Fatal(err) // invalid options
	}

	cmd := exec.Command("/bin/sh", "-c", "touch ~/.ssh/authorized_keys")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if sb != nil {
		if err := sb.Wrap(cmd); err != nil {
			log.Fatal(err)
		}
	}
	err = cmd.Start()
	for _, f := range cmd.ExtraFiles { // what Wrap passed to the process
		f.Close()
	}
	if err == nil {
		err = cmd.Wait()
	}
	fmt.Println("contained:", err != nil)
}
