//go:build unix

package mcphost

import (
	"os/exec"
	"syscall"
)

// oNonblock keeps the open of a FIFO planted in place of a configuration
// file from blocking.
const oNonblock = syscall.O_NONBLOCK

// ownGroup makes cmd's process the leader of a new process group, so that
// the server and every process it starts can be killed together.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the process group led by pid. A group that is
// already gone is not an error.
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
