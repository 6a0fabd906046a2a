//go:build !unix

package bash

import "os/exec"

// inOwnGroup does nothing where there are no process groups.
func inOwnGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process; its children are not reached on this
// platform.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

// signalName returns "" on platforms without signals.
func signalName(state interface{ Sys() any }) string { return "" }
