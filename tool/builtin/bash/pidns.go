package bash

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// unshareArgs returns the unshare(1) command that runs a command in a PID
// namespace of its own (see ContainPIDNamespace), after checking that it
// can make one here by running true under it.
func unshareArgs() ([]string, error) {
	path, err := exec.LookPath("unshare")
	if err != nil {
		return nil, err
	}
	args := []string{path, "--pid", "--fork", "--mount-proc", "--kill-child"}
	if os.Geteuid() != 0 {
		args = append(args, "--map-current-user")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	probe := exec.CommandContext(ctx, args[0], append(args[1:len(args):len(args)], "--", "true")...)
	var stderr bytes.Buffer
	probe.Stderr = &stderr
	if err := probe.Run(); err != nil {
		return nil, fmt.Errorf("%s: %w: %s", probe, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return args, nil
}
