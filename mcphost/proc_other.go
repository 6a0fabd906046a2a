//go:build !unix

package mcphost

import (
	"os"
	"os/exec"
)

// oNonblock is zero where opening a FIFO cannot block in this way.
const oNonblock = 0

// ownGroup does nothing where there are no process groups.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills the process pid; its children are not reached on this
// platform.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil && pid > 0 {
		_ = p.Kill()
	}
}
