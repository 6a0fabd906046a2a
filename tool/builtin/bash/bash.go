package bash

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lite-agent/lite-agent-go/sandbox"
	"github.com/lite-agent/lite-agent-go/tool"
)

// Defaults of the bash tool.
const (
	// DefaultTimeout is how long a foreground command may run when
	// [Options.Timeout] is zero.
	DefaultTimeout = 120 * time.Second
	// DefaultMaxOutputBytes is the most output a foreground command may
	// produce when [Options.MaxOutputBytes] is zero: 1,000,000 bytes,
	// already more than a model can usefully read in one result.
	DefaultMaxOutputBytes = 1_000_000
)

// Options configures the bash tool. Only Workdir is required.
type Options struct {
	// Workdir is the directory commands start in: an absolute path.
	Workdir string

	// Shell is the shell that runs each command as "<Shell> -c <command>".
	// "" means /bin/bash, or /bin/sh where there is no /bin/bash.
	Shell string

	// Env is the environment of the commands, as "KEY=value" entries.
	// nil means the environment of the current process, read at each call;
	// an empty non-nil slice means an empty environment.
	Env []string

	// Timeout is how long a foreground command may run before its process
	// group is killed; zero means DefaultTimeout.
	Timeout time.Duration

	// MaxOutputBytes is the most combined output, in bytes, a foreground
	// command may produce; once it produces more, its process group is
	// killed and the result says so. Zero means DefaultMaxOutputBytes.
	// Redirect large output to a file and read parts of it instead.
	MaxOutputBytes int

	// Background runs the commands the model asks to run in the
	// background. nil means such commands run in the foreground like any
	// other.
	Background *Background

	// Sandbox, when set, contains every command the tool runs, in the
	// foreground and in the background: each is wrapped by it before it
	// starts, and one it cannot wrap does not run. When it is a
	// [sandbox.AfterRunner] (a *sandbox.Bubblewrap is), its AfterRun runs
	// once each command and everything it started have ended (a
	// background one when it ends or is killed), even after the call was
	// cancelled; its error fails the foreground call ("Error: " and the
	// error, then the output), or is [Completion.SandboxErr]. A host that
	// wants the foreground's error as a value wraps the sandbox in a type
	// of its own whose AfterRun calls the Bubblewrap's. nil runs commands
	// uncontained, with the rights of the current process.
	Sandbox sandbox.Sandbox

	// Containment says how the processes a command starts are found, to
	// be killed, when it ends; the zero value is ContainAuto.
	Containment Containment
}

// Containment says how the bash tool finds the processes a command
// started, to kill them all when the command ends (it exits, times out,
// is cancelled, exceeds its output cap or, in the background, is
// stopped). Whatever it says, the command runs in a session and process
// group of its own and that group is killed; the command's output and
// exit code are the same.
type Containment int

const (
	// ContainAuto starts each command in a cgroup of its own, as
	// ContainCgroup does, where the process can make one and start a
	// process in it, and otherwise (another system, no cgroup v2, no
	// right to write it) contains it as ContainSession does. [Tool] tries
	// to make one and start a process in it; a command that cannot have
	// one when it starts all the same gets the session sweep alone.
	ContainAuto Containment = iota

	// ContainSession kills, besides the command's process group, every
	// process that /proc lists in the command's session, round after
	// round until a round finds none (Linux; elsewhere, the process group
	// only). It reaches a program that moved to a process group of its
	// own (timeout(1) does) but not one that left the session (setsid(1),
	// a daemon's double fork, start-stop-daemon, a program that does it
	// inside), and, listing /proc not being atomic, a chain of processes
	// each of which starts the next in a new process group and exits at
	// once can outrun the rounds.
	ContainSession

	// ContainCgroup starts each command in a cgroup v2 of its own, made
	// under the cgroup of the current process and removed when the
	// command has ended, and kills the cgroup (cgroup.kill) with the
	// process group and the session (and [Tool] kills and removes the
	// cgroups a killed agent of this PID namespace left): nothing the
	// command starts can leave it, whatever group or session it moves to,
	// unless it has the right to move itself to another cgroup: root has
	// it, and so has a command run by the user a cgroup was delegated to
	// (it may write the cgroup.procs of the agent's cgroup, as the agent
	// must to start it in its own, and, with setsid, outlive the call).
	// It needs the right to make a cgroup under the current one and to
	// move a process into it (root in a container, or a cgroup systemd
	// delegated, as a user service's or a scope's with Delegate=yes) on
	// Linux 5.14 or later (cgroup.kill);
	// [Tool] fails with a [*ContainmentError] where it cannot make one,
	// and a command that cannot start in one does not run.
	ContainCgroup

	// ContainPIDNamespace runs each command as the first process of a PID
	// namespace of its own, with its own /proc, through util-linux's
	// unshare(1) (--pid --fork --mount-proc --kill-child, and, for a
	// user other than root, --map-current-user, which needs unprivileged
	// user namespaces and util-linux 2.38): when the shell ends or is
	// killed, the kernel kills every process of the namespace, and none
	// can leave it. It changes what a command sees, which is why it is
	// never chosen by ContainAuto: the shell is pid 1 (a signal it sends
	// itself without a handler is ignored), ps and /proc show only the
	// command's processes, and no process of another call (a background
	// server) can be seen or signalled. [Tool] fails with a
	// [*ContainmentError] where unshare is missing or cannot make the
	// namespace. With a [Options.Sandbox] it is not used: the sandbox
	// must kill everything the command started when its process is
	// killed.
	ContainPIDNamespace
)

// A ContainmentError says that the containment asked for in
// [Options.Containment] is not available here.
type ContainmentError struct {
	Containment Containment
	Err         error // why
}

// Error says which containment is missing and why.
func (e *ContainmentError) Error() string {
	what := "a cgroup"
	if e.Containment == ContainPIDNamespace {
		what = "a PID namespace"
	}
	return "bash tool: cannot contain commands in " + what + ": " + e.Err.Error()
}

// Unwrap returns the reason.
func (e *ContainmentError) Unwrap() error { return e.Err }

// bashTool holds the bash tool's configuration; it is fixed at
// construction.
type bashTool struct {
	sh        shell
	timeout   time.Duration
	maxOutput int
	bg        *Background
}

// Tool returns the bash tool, which runs a shell command in
// opts.Workdir and returns its combined, trimmed standard output and
// standard error:
//
//   - each command runs in its own session and process group, with
//     standard input empty, and on Linux, where the process can make one,
//     in a cgroup v2 of its own; when the command ends, times out, is
//     cancelled or produces too much output, the cgroup, the whole group
//     and, on Linux, every process left in the session (one that moved to
//     a group of its own, as timeout(1) does) are killed with SIGKILL, so
//     nothing it started outlives it, but, without a cgroup, by leaving
//     the session (setsid(2), a daemon's double fork) or, with one, by
//     leaving the session and moving itself out of the cgroup where it
//     may (root, the user the cgroup was delegated to): see
//     [Options.Containment];
//   - empty output reads "(no output)" when the command succeeded, and is
//     the error "Error: command exited with code N" when it did not;
//     non-empty output is returned whatever the exit code, followed by a
//     line "[exit code N]" when N is not 0;
//   - a command running longer than the timeout ends with
//     "Error: command timed out after <ms>ms" followed by its output so far,
//     and one producing more than MaxOutputBytes with
//     "Error: command output exceeded <N> bytes";
//   - cancelling the call's context kills the group and the call returns
//     ctx.Err();
//   - a command containing "rm -rf /", "sudo", "shutdown", "reboot" or
//     "> /dev/" is refused with "Error: Dangerous command blocked". This is
//     a speed bump against accidents, not a sandbox: set
//     [Options.Sandbox] (or run the agent in a container) when commands
//     must be contained;
//   - with run_in_background and a [Background] registry, the command
//     starts in the registry and the call returns its id at once.
//
// Tool returns an error if Workdir is not absolute, a limit is negative
// or no shell is found. The tool is safe for concurrent use.
func Tool(opts Options) (tool.Tool, error) {
	if !filepath.IsAbs(opts.Workdir) {
		return nil, fmt.Errorf("bash tool: workdir %q is not an absolute path", opts.Workdir)
	}
	if opts.Timeout < 0 || opts.MaxOutputBytes < 0 {
		return nil, errors.New("bash tool: negative limit")
	}
	path := opts.Shell
	if path == "" {
		path = "/bin/bash"
		if _, err := os.Stat(path); err != nil {
			path = "/bin/sh"
		}
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("bash tool: shell: %w", err)
	}
	sh := shell{path: path, dir: filepath.Clean(opts.Workdir), env: cloneEnv(opts.Env), sandbox: opts.Sandbox, containment: opts.Containment}
	switch opts.Containment {
	case ContainAuto, ContainCgroup:
		parent, err := cgroupParent()
		if err == nil {
			err = probeCgroup(parent, path)
		}
		if err == nil {
			sh.cgroupParent = parent
			sweepCgroups(parent)
		} else if opts.Containment == ContainCgroup {
			return nil, &ContainmentError{Containment: ContainCgroup, Err: err}
		}
	case ContainPIDNamespace:
		if opts.Sandbox == nil {
			args, err := unshareArgs()
			if err != nil {
				return nil, &ContainmentError{Containment: ContainPIDNamespace, Err: err}
			}
			sh.unshare = args
		}
	case ContainSession:
	default:
		return nil, fmt.Errorf("bash tool: unknown containment %d", opts.Containment)
	}
	b := &bashTool{
		sh:        sh,
		timeout:   opts.Timeout,
		maxOutput: opts.MaxOutputBytes,
		bg:        opts.Background,
	}
	if b.timeout == 0 {
		b.timeout = DefaultTimeout
	}
	if b.maxOutput == 0 {
		b.maxOutput = DefaultMaxOutputBytes
	}
	return tool.New("bash", bashDescription, b.call), nil
}

// cloneEnv copies env, keeping nil and empty apart.
func cloneEnv(env []string) []string {
	if env == nil {
		return nil
	}
	return append(make([]string, 0, len(env)), env...)
}

const bashDescription = `Run a shell command in the workspace and return its combined standard output and standard error. ` +
	`Use it to search (grep, find), build, test and inspect. Commands time out after a while; ` +
	`for servers and other long-running processes set run_in_background and read their output with BashOutput.`

type bashInput struct {
	Command         string `json:"command" jsonschema:"the shell command to run"`
	RunInBackground bool   `json:"run_in_background,omitempty" jsonschema:"start the command in the background and return its id at once; read its output with BashOutput and stop it with KillBackground"`
}

// RefineSchema implements [tool.SchemaRefiner].
func (bashInput) RefineSchema(s *jsonschema.Schema) {
	s.Properties["command"].MinLength = jsonschema.Ptr(1)
}

// dangerous reports whether command contains one of the substrings the
// bash tool refuses.
func dangerous(command string) bool {
	for _, s := range [...]string{"rm -rf /", "sudo", "shutdown", "reboot", "> /dev/"} {
		if strings.Contains(command, s) {
			return true
		}
	}
	return false
}

func (b *bashTool) call(ctx context.Context, c *tool.Call, in bashInput) (tool.Result, error) {
	if dangerous(in.Command) {
		return tool.Errorf("Dangerous command blocked"), nil
	}
	if in.RunInBackground && b.bg != nil {
		// The Completion of the command carries the call's session.
		id, err := b.bg.start(b.sh, in.Command, c.SessionID)
		if err != nil {
			return tool.Result{}, err
		}
		notice := ""
		if b.bg.onExit != nil {
			notice = " You will be told when it ends."
		}
		return tool.Text(fmt.Sprintf("[background:%s] started: %s. Read output with BashOutput(id: %s); stop it with KillBackground(id: %s).%s",
			id, in.Command, id, id, notice)), nil
	}
	return b.foreground(ctx, in.Command)
}

// foreground runs command and waits for it. When the sandbox's check
// after the command fails, the call fails with its error (a
// *sandbox.RepoCheckError), followed by what the result would have said.
func (b *bashTool) foreground(ctx context.Context, command string) (res tool.Result, err error) {
	var out []byte
	exceeded := make(chan struct{})
	sink := func(p []byte) bool {
		if len(out)+len(p) > b.maxOutput {
			close(exceeded)
			return false
		}
		out = append(out, p...)
		return true
	}
	p, err := b.sh.start(command, sink)
	if err != nil {
		return tool.Result{}, fmt.Errorf("start command: %w", err)
	}
	timer := time.NewTimer(b.timeout)
	defer timer.Stop()
	timedOut, tooMuch, cancelled := false, false, false
	select {
	case <-p.waitDone:
	case <-timer.C:
		timedOut = true
	case <-exceeded:
		tooMuch = true
	case <-ctx.Done():
		cancelled = true
	}
	p.stop()
	if cerr := b.sh.afterRun(ctx); cerr != nil {
		defer func() {
			if err == nil {
				err = fmt.Errorf("%w\n%s", cerr, strings.TrimPrefix(res.Content, "Error: "))
				res = tool.Result{}
			}
		}()
	}
	// The reader has returned: out is complete and exceeded settled.
	select {
	case <-exceeded:
		tooMuch = true
	default:
	}
	if tooMuch {
		return tool.Errorf("command output exceeded %d bytes", b.maxOutput), nil
	}
	if cancelled {
		return tool.Result{}, ctx.Err()
	}
	text := strings.TrimSpace(validText(out))
	if timedOut {
		res := tool.Errorf("command timed out after %dms", b.timeout.Milliseconds())
		if text != "" {
			res.Content += "\n" + text
		}
		return res, nil
	}
	code, sig := p.exitCode()
	switch {
	case text == "" && code == 0:
		return tool.Text("(no output)"), nil
	case text == "" && sig != "":
		return tool.Errorf("command killed by signal %s", sig), nil
	case text == "":
		return tool.Errorf("command exited with code %d", code), nil
	case sig != "":
		return tool.Text(text + "\n[killed by signal " + sig + "]"), nil
	case code != 0:
		return tool.Text(fmt.Sprintf("%s\n[exit code %d]", text, code)), nil
	}
	return tool.Text(text), nil
}
