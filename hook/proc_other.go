//go:build !unix

package hook

import (
	"os"
	"os/exec"
)

// openNonblock is zero where FIFOs cannot be planted.
const openNonblock = 0

// inOwnGroup does nothing where process groups do not exist.
func inOwnGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process; there is no group to kill.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

// signalName returns "": signals do not end processes here.
func signalName(state *os.ProcessState) string { return "" }
