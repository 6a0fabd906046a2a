package hook

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/lite-agent/lite-agent-go/sandbox"
)

const (
	// stdinDelay bounds how long a finished command's standard input is
	// still written: only a process that left the group can hold it open.
	stdinDelay = time.Second
	// drainGrace bounds how long a finished command's output is still
	// counted, for the same reason.
	drainGrace = 250 * time.Millisecond
	// afterRunTimeout bounds the sandbox's check after a command
	// ([sandbox.AfterRunner]).
	afterRunTimeout = time.Minute
)

// exec runs command in its own process group with stdin as its standard
// input, counting its combined output, and kills the group when ctx is
// done, when the output exceeds the limit, and when the command ends (so
// nothing it started in its group outlives it). With a sandbox that has
// a check ([sandbox.AfterRunner]), the check's error, if any, is the
// result.
func (r *Runner) exec(ctx context.Context, command string, stdin []byte) error {
	pr, pw, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("start command: %w", err)
	}
	defer pr.Close()
	// The command string is used exactly as configured: event data only
	// ever reaches the process on standard input.
	cmd := exec.Command(r.shell, "-c", command)
	cmd.Dir = r.workdir
	cmd.Env = r.env
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Stdout = pw
	cmd.Stderr = pw
	cmd.WaitDelay = stdinDelay
	inOwnGroup(cmd)
	if r.sandbox != nil {
		if err := r.sandbox.Wrap(cmd); err != nil {
			pw.Close()
			return fmt.Errorf("start command: %w", err)
		}
	}
	err = cmd.Start()
	pw.Close()
	for _, f := range cmd.ExtraFiles { // the sandbox's, for the child only
		f.Close()
	}
	if err != nil {
		return fmt.Errorf("start command: %w", err)
	}

	overflow := make(chan struct{})
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		buf := make([]byte, 32<<10)
		total := 0
		for {
			n, err := pr.Read(buf)
			total += n
			if total > r.maxOutput {
				close(overflow)
				return
			}
			if err != nil {
				return
			}
		}
	}()
	waitDone := make(chan struct{})
	go func() {
		defer close(waitDone)
		// The process state says all the error would.
		cmd.Wait()
	}()

	select {
	case <-waitDone:
	case <-ctx.Done():
	case <-overflow:
	}
	killGroup(cmd)
	<-waitDone
	// Only a process that left the group can still hold the pipe open;
	// stop counting its output after a grace period.
	if err := pr.SetReadDeadline(time.Now().Add(drainGrace)); err != nil {
		pr.Close()
	}
	<-readDone
	// The sandbox's check runs once the command and its group are gone,
	// whatever the outcome; what it finds is the hook's failure.
	if ar, ok := r.sandbox.(sandbox.AfterRunner); ok {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), afterRunTimeout)
		err := ar.AfterRun(cctx)
		cancel()
		if err != nil {
			return err
		}
	}

	select {
	case <-overflow:
		return &OutputLimitError{Limit: r.maxOutput}
	default:
	}
	if err := ctxErr(ctx); err != nil {
		return err
	}
	state := cmd.ProcessState
	if state == nil {
		return fmt.Errorf("command did not run")
	}
	if !state.Success() {
		return &ExitError{Code: state.ExitCode(), Signal: signalName(state)}
	}
	return nil
}
