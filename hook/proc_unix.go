//go:build unix

package hook

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// openNonblock is the open flag that keeps opening a FIFO from blocking.
const openNonblock = syscall.O_NONBLOCK

// inOwnGroup makes cmd's process lead a new process group, so that it and
// everything it starts can be killed at once.
func inOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the process group cmd's process leads. A
// group that is gone already is fine.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// signalName names the signal that ended a process, or "" if it exited.
func signalName(state *os.ProcessState) string {
	ws, ok := state.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ""
	}
	switch sig := ws.Signal(); sig {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGABRT:
		return "SIGABRT"
	default:
		return "signal " + strconv.Itoa(int(sig))
	}
}
