//go:build unix

package bash

import (
	"errors"
	"os/exec"
	"syscall"
)

// inOwnGroup makes cmd's process the leader of a new session, and so of
// a new process group, so that it and everything it starts can be killed
// together. A session, not only a group: a program the command starts may
// move to a process group of its own (timeout(1) does, to kill its command
// with everything that started when the time is up), and so leave the
// group, but only setsid(2) leaves the session.
func inOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// killGroup sends SIGKILL to the process group led by cmd's process and,
// where the system lists processes by session (killSession), to every
// process left in its session: one in a group of its own (timeout 100 sh
// -c '…' &) outlived the line and acted after it, when the gate had
// decided the line on what the files were before. A group that is already
// gone is not an error.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		err = nil
	}
	killSession(cmd.Process.Pid)
	return err
}

// signalName returns the name of the signal that ended a process, or "" if
// it exited normally.
func signalName(state interface{ Sys() any }) string {
	ws, ok := state.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ""
	}
	return signalNames(ws.Signal())
}

func signalNames(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGABRT:
		return "SIGABRT"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	case syscall.SIGBUS:
		return "SIGBUS"
	case syscall.SIGFPE:
		return "SIGFPE"
	case syscall.SIGILL:
		return "SIGILL"
	}
	return s.String()
}
