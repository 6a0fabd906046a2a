package bash

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"time"

	"github.com/lite-agent/lite-agent-go/sandbox"
)

// drainGrace is how long the output of a finished command is still read
// after its processes were killed: only a process that left its process
// group and session (a daemon that called setsid) where the command has
// no cgroup can keep the pipe open that long.
const drainGrace = 250 * time.Millisecond

// afterRunTimeout bounds the sandbox's check after a command
// ([sandbox.AfterRunner]); it runs even when the call was cancelled.
const afterRunTimeout = time.Minute

// A shell runs commands: the shell program, the directory, the
// environment and the sandbox that contains them.
type shell struct {
	path    string
	dir     string
	env     []string        // nil: the current environment at each start
	sandbox sandbox.Sandbox // nil: none

	containment  Containment
	cgroupParent string   // where each command's cgroup is made; "": none
	unshare      []string // the unshare(1) command a command runs under; nil: none
}

// A proc is a shell command running in its own process group, its
// standard output and standard error going to one pipe that a goroutine
// reads.
type proc struct {
	cmd      *exec.Cmd
	cg       *cgroup       // the command's own cgroup; nil: none
	out      *os.File      // the read end of the output pipe
	readDone chan struct{} // closed when the reader returns
	waitDone chan struct{} // closed when the process has been waited for
	state    *os.ProcessState
}

// start runs command through sh. Every chunk of output is passed to sink,
// from one goroutine, until sink returns false, which stops the reading.
// The caller must call stop.
func (sh shell) start(command string, sink func([]byte) bool) (*proc, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer w.Close()
	cmd, cg, err := sh.startContained(command, w)
	if err != nil {
		r.Close()
		return nil, err
	}
	p := &proc{cmd: cmd, cg: cg, out: r, readDone: make(chan struct{}), waitDone: make(chan struct{})}
	go func() {
		defer close(p.readDone)
		buf := make([]byte, 32*1024)
		for {
			n, err := r.Read(buf)
			if n > 0 && !sink(buf[:n]) {
				return
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		defer close(p.waitDone)
		// The error only repeats what the state says.
		cmd.Wait()
		p.state = cmd.ProcessState
	}()
	return p, nil
}

// startContained starts command with its output going to w, in a cgroup
// of its own when sh has a cgroupParent (nil otherwise). Where the cgroup
// cannot be made or the process cannot start in it, the command starts
// without one, unless sh requires one (ContainCgroup).
func (sh shell) startContained(command string, w *os.File) (*exec.Cmd, *cgroup, error) {
	if sh.cgroupParent != "" {
		cg, f, err := newCgroup(sh.cgroupParent)
		if err == nil {
			var cmd *exec.Cmd
			cmd, err = sh.startCmd(command, w, f)
			f.Close()
			if err == nil {
				return cmd, cg, nil
			}
			cg.remove()
		}
		if sh.containment == ContainCgroup {
			return nil, nil, &ContainmentError{Containment: ContainCgroup, Err: err}
		}
	}
	cmd, err := sh.startCmd(command, w, nil)
	return cmd, nil, err
}

// startCmd starts command through sh with its output going to w, in the
// cgroup cgroupDir is open on unless it is nil.
func (sh shell) startCmd(command string, w, cgroupDir *os.File) (*exec.Cmd, error) {
	cmd := exec.Command(sh.path, "-c", command)
	if sh.unshare != nil {
		cmd = exec.Command(sh.unshare[0], append(sh.unshare[1:len(sh.unshare):len(sh.unshare)], "--", sh.path, "-c", command)...)
	}
	cmd.Dir = sh.dir
	cmd.Env = sh.env
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Stdout = w // an *os.File goes to the child as it is, with no copying
	cmd.Stderr = w
	inOwnGroup(cmd)
	if cgroupDir != nil {
		intoCgroup(cmd, cgroupDir)
	}
	if sh.sandbox != nil {
		if err := sh.sandbox.Wrap(cmd); err != nil {
			return nil, err
		}
	}
	err := cmd.Start()
	for _, f := range cmd.ExtraFiles { // the sandbox's, for the child only
		f.Close()
	}
	if err != nil {
		return nil, err
	}
	return cmd, nil
}

// afterRun runs the check of sh's sandbox, when it has one
// ([sandbox.AfterRunner]), once a command and everything it started have
// ended. It runs whether or not ctx is done: a cancelled command may
// have left what the check is for.
func (sh shell) afterRun(ctx context.Context) error {
	ar, ok := sh.sandbox.(sandbox.AfterRunner)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), afterRunTimeout)
	defer cancel()
	return ar.AfterRun(ctx)
}

// kill kills the command's processes: its cgroup's, if it has one, its
// process group and, where the system lists processes by session, every
// process left in its session. It does not wait for them to exit.
func (p *proc) kill() {
	if p.cg != nil {
		p.cg.kill()
	}
	killGroup(p.cmd)
}

// stop kills the process group (whatever the command left running in it
// included), waits for the process and for the output to be read, and
// releases the pipe. It may be called once the process has exited or to
// end it early.
func (p *proc) stop() {
	p.kill()
	<-p.waitDone
	// Processes that left the group may hold the pipe open; stop waiting
	// for them after a grace period.
	if err := p.out.SetReadDeadline(time.Now().Add(drainGrace)); err != nil && !errors.Is(err, os.ErrNoDeadline) {
		p.out.Close()
	}
	<-p.readDone
	p.out.Close()
	if p.cg != nil {
		// A cgroup that cannot be removed holds only killed processes.
		p.cg.remove()
	}
}

// exitCode returns the process's exit code, or -1 and the signal's name if
// a signal ended it. It is valid after waitDone is closed.
func (p *proc) exitCode() (int, string) {
	if p.state == nil {
		return -1, ""
	}
	return p.state.ExitCode(), signalName(p.state)
}
