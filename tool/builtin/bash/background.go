package bash

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/tool"
)

// Defaults of a Background registry.
const (
	// DefaultBufferBytes is the output a background command keeps when
	// [BackgroundOptions.BufferBytes] is zero: the last 1,000,000 bytes.
	DefaultBufferBytes = 1_000_000
	// DefaultMaxRunning is how many background commands may run at once
	// when [BackgroundOptions.MaxRunning] is zero.
	DefaultMaxRunning = 16
	// completionChars is how much of the end of a finished command's
	// output its Completion carries, in UTF-16 code units.
	completionChars = 500
)

// BackgroundOptions configures a Background registry. The zero value keeps
// the last 1,000,000 bytes of each command's output, runs at most 16
// commands at once, never times them out and reports completions to
// nobody.
type BackgroundOptions struct {
	// BufferBytes is how much of a command's most recent output is kept
	// for BashOutput, in bytes; older output is dropped. Zero means
	// DefaultBufferBytes.
	BufferBytes int

	// MaxRunning is how many commands may run at once; starting one more
	// is an error result. Zero means DefaultMaxRunning.
	MaxRunning int

	// Timeout is how long a background command may run before its process
	// group is killed; zero means no limit.
	Timeout time.Duration

	// OnExit, when set, is called once for every command that ends, from
	// the goroutine that waited for it, after all its output was read.
	// It must not block for long, and must not call Close.
	OnExit func(Completion)
}

// Completion describes a background command that ended.
type Completion struct {
	// ID is the command's id, as BashOutput takes it.
	ID string
	// Command is the command line.
	Command string
	// ExitCode is the exit code, or -1 when a signal ended the command.
	ExitCode int
	// Signal names the signal that ended the command, such as "SIGKILL";
	// "" when it exited.
	Signal string
	// TimedOut reports that the registry killed the command because it
	// ran longer than BackgroundOptions.Timeout.
	TimedOut bool
	// Killed reports that the command was killed on request: by Kill
	// (KillBackground), KillSession or Close.
	Killed bool
	// Content is the text the completion's message gives the model:
	// "[exit N] <the last 500 characters of output>", or
	// "[killed SIGKILL] …" when a signal ended it, or
	// "[timed out after <ms>ms] …".
	Content string
	// SessionID is the session of the bash call that started the command
	// (its [tool.Call.SessionID]); "" when unknown.
	SessionID string
	// SandboxErr is the error of the sandbox's check after the command
	// ([sandbox.AfterRunner]), such as a *sandbox.RepoCheckError; nil
	// when it found nothing or the sandbox has none. Content ends with
	// its text.
	SandboxErr error
}

// Status says how the command ended, in the words of subagent groups:
// "cancelled" when it was killed on request, "error" for any other end but
// a zero exit (a non-zero exit, a timeout, a crash), "completed" for a zero
// exit.
func (c Completion) Status() string {
	switch {
	case c.Killed && !c.TimedOut:
		return "cancelled"
	case c.ExitCode != 0 || c.Signal != "" || c.TimedOut || c.SandboxErr != nil:
		return "error"
	}
	return "completed"
}

// Label names the command for its message: "bash: " and the first line of
// the command, at most 80 characters (and "…" when it was longer).
func (c Completion) Label() string { return "bash: " + oneLineLabel(c.Command) }

// Message returns the message that tells a session about c, in the form
// subagent group completions take:
//
//	<background-task-completed id="<ID>" label="<Label>"[ status="error|cancelled"]>
//	<Content>
//	</background-task-completed>
//
// with the status of [Completion.Status] unless it is completed.
func (c Completion) Message() string {
	attr := ""
	if st := c.Status(); st != "completed" {
		attr = ` status="` + st + `"`
	}
	label := strings.ReplaceAll(c.Label(), `"`, "'")
	return `<background-task-completed id="` + c.ID + `" label="` + label + `"` + attr + ">\n" + c.Content + "\n</background-task-completed>"
}

// oneLineLabel shortens a command line to one line of at most 80
// characters for a label.
func oneLineLabel(command string) string {
	line, _, cut := strings.Cut(strings.TrimSpace(command), "\n")
	if short, more := utf16text.Cut(line, 80); more || cut {
		return short + "…"
	}
	return line
}

// Background is a registry of shell commands running in the background,
// each in its own process group, with the recent part of its output kept
// in a ring buffer. The bash tool starts commands in it when the model asks
// for run_in_background; BashOutput reads their output and KillBackground
// stops them ([BackgroundTools]).
//
// A Background owns the goroutines that wait for its commands: Close kills
// every command and waits for them. It is safe for concurrent use.
type Background struct {
	bufferBytes int
	maxRunning  int
	timeout     time.Duration
	onExit      func(Completion)

	wg sync.WaitGroup

	mu      sync.Mutex
	counter uint64             // guarded by mu: ids handed out
	procs   map[string]*bgProc // guarded by mu
	running int                // guarded by mu
	closed  bool               // guarded by mu
}

// bgProc is one background command.
type bgProc struct {
	id      string
	command string
	session string // of the call that started it
	sh      shell
	p       *proc
	done    chan struct{} // closed when the command ended and its output was read
	// reported is closed once OnExit returned for the command (or at
	// done, without OnExit).
	reported chan struct{}

	mu      sync.Mutex
	buf     []byte // guarded by mu: the most recent output
	killed  bool   // guarded by mu: killed on request
	checked error  // guarded by mu: the sandbox check's error once exited
	dropped int64  // guarded by mu: output bytes dropped from the front of buf
	cursor  int64  // guarded by mu: output bytes already returned (or skipped)
	exited  bool   // guarded by mu
}

// NewBackground returns an empty registry. It returns an error if a limit
// is negative.
func NewBackground(opts BackgroundOptions) (*Background, error) {
	if opts.BufferBytes < 0 || opts.MaxRunning < 0 || opts.Timeout < 0 {
		return nil, errors.New("background: negative limit")
	}
	b := &Background{
		bufferBytes: opts.BufferBytes,
		maxRunning:  opts.MaxRunning,
		timeout:     opts.Timeout,
		onExit:      opts.OnExit,
		procs:       make(map[string]*bgProc),
	}
	if b.bufferBytes == 0 {
		b.bufferBytes = DefaultBufferBytes
	}
	if b.maxRunning == 0 {
		b.maxRunning = DefaultMaxRunning
	}
	return b, nil
}

// errClosed is the error for starting a command in a closed registry.
var errClosed = errors.New("background tasks are closed")

// start runs command through sh in the background and returns its id,
// bg_<counter in base 36>_<6 hex digits>.
func (b *Background) start(sh shell, command, session string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return "", errClosed
	}
	if b.running >= b.maxRunning {
		return "", fmt.Errorf("background task limit reached (%d)", b.maxRunning)
	}
	b.counter++
	var r [3]byte
	rand.Read(r[:])
	bp := &bgProc{
		id:      "bg_" + strconv.FormatUint(b.counter, 36) + "_" + hex.EncodeToString(r[:]),
		command: command,
		session: session,
		sh:      sh,
		done:    make(chan struct{}),

		reported: make(chan struct{}),
	}
	p, err := sh.start(command, bp.write(b.bufferBytes))
	if err != nil {
		return "", fmt.Errorf("start command: %w", err)
	}
	bp.p = p
	b.procs[bp.id] = bp
	b.running++
	b.wg.Add(1)
	go b.wait(bp)
	return bp.id, nil
}

// write returns the sink that keeps the last max bytes of bp's output.
func (bp *bgProc) write(max int) func([]byte) bool {
	return func(p []byte) bool {
		bp.mu.Lock()
		defer bp.mu.Unlock()
		bp.buf = append(bp.buf, p...)
		if over := len(bp.buf) - max; over > 0 {
			bp.dropped += int64(over)
			// Copy rather than reslice, so the dropped bytes are freed.
			bp.buf = append(make([]byte, 0, max), bp.buf[over:]...)
		}
		return true
	}
}

// wait waits for bp to end (or kills it when it runs too long), then
// reports its completion.
func (b *Background) wait(bp *bgProc) {
	defer b.wg.Done()
	defer close(bp.reported)
	var timeout <-chan time.Time
	if b.timeout > 0 {
		t := time.NewTimer(b.timeout)
		defer t.Stop()
		timeout = t.C
	}
	timedOut := false
	select {
	case <-bp.p.waitDone:
	case <-timeout:
		timedOut = true
	}
	bp.p.stop()
	checkErr := bp.sh.afterRun(context.Background())
	code, sig := bp.p.exitCode()
	bp.mu.Lock()
	bp.exited = true
	bp.checked = checkErr
	killed := bp.killed
	tail := utf16text.Last(strings.TrimSpace(validText(trimPartialRune(bp.buf))), completionChars)
	bp.mu.Unlock()
	b.mu.Lock()
	b.running--
	b.mu.Unlock()
	close(bp.done)
	if b.onExit == nil {
		return
	}
	c := Completion{ID: bp.id, Command: bp.command, ExitCode: code, Signal: sig, TimedOut: timedOut, Killed: killed, SessionID: bp.session,
		SandboxErr: checkErr}
	switch {
	case timedOut:
		c.Content = fmt.Sprintf("[timed out after %dms] %s", b.timeout.Milliseconds(), tail)
	case sig != "":
		c.Content = fmt.Sprintf("[killed %s] %s", sig, tail)
	default:
		c.Content = fmt.Sprintf("[exit %d] %s", code, tail)
	}
	if checkErr != nil {
		c.Content += "\nError: " + checkErr.Error()
	}
	b.onExit(c)
}

// trimPartialRune drops the bytes at the start of b that continue a
// character whose first bytes were dropped from the ring.
func trimPartialRune(b []byte) []byte {
	for i := 0; i < len(b) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(b[i]) {
			return b[i:]
		}
	}
	return b
}

// Kill kills the processes of the running command id (its cgroup, process
// group and session, as [Options.Containment] says) and reports
// whether there was one. It does not wait for the command to end.
func (b *Background) Kill(id string) bool {
	b.mu.Lock()
	bp := b.procs[id]
	b.mu.Unlock()
	if bp == nil {
		return false
	}
	select {
	case <-bp.done:
		return false
	default:
	}
	bp.mu.Lock()
	exited := bp.exited
	if !exited {
		bp.killed = true
	}
	bp.mu.Unlock()
	if exited {
		return false
	}
	bp.p.kill()
	return true
}

// Unreported returns how many of the commands that calls of session
// started have not had their completion reported yet ([BackgroundOptions.OnExit]
// has not returned for them): those running, and those that ended whose
// report is under way.
func (b *Background) Unreported(session string) int {
	return len(b.open(session, func(bp *bgProc) chan struct{} { return bp.reported }))
}

// Running returns the ids of the commands that calls of session started
// (its [tool.Call.SessionID]) and that have not ended, in id order.
func (b *Background) Running(session string) []string {
	ids := b.open(session, func(bp *bgProc) chan struct{} { return bp.done })
	slices.Sort(ids)
	return ids
}

// open returns the ids of the commands of session whose channel ch is not
// closed yet.
func (b *Background) open(session string, ch func(*bgProc) chan struct{}) []string {
	if session == "" {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var ids []string
	for id, bp := range b.procs {
		if bp.session != session {
			continue
		}
		select {
		case <-ch(bp):
		default:
			ids = append(ids, id)
		}
	}
	return ids
}

// KillSession kills the running commands that calls of session started
// and returns their ids. Their completions still come, killed.
func (b *Background) KillSession(session string) []string {
	var killed []string
	for _, id := range b.Running(session) {
		if b.Kill(id) {
			killed = append(killed, id)
		}
	}
	return killed
}

// Close kills every running command and waits until all have ended and
// their completions have been reported. Starting a command afterwards is
// an error result. Close may be called more than once; it always returns
// nil; on a nil Background it does nothing.
func (b *Background) Close() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	b.closed = true
	procs := make([]*bgProc, 0, len(b.procs))
	for _, bp := range b.procs {
		procs = append(procs, bp)
	}
	b.mu.Unlock()
	for _, bp := range procs {
		select {
		case <-bp.done:
		default:
			bp.mu.Lock()
			bp.killed = true
			bp.mu.Unlock()
			bp.p.kill()
		}
	}
	b.wg.Wait()
	return nil
}

// output returns what BashOutput says about bp: the output since the last
// call (only the lines matching filter, if set), "(no new output)", and
// "\n[process exited]" once the command has ended.
func (bp *bgProc) output(filter *regexp.Regexp) string {
	bp.mu.Lock()
	defer bp.mu.Unlock()
	truncated := bp.cursor < bp.dropped
	if truncated {
		bp.cursor = bp.dropped
	}
	start, end := int(bp.cursor-bp.dropped), len(bp.buf)
	if truncated {
		// The ring may have cut a character in two.
		start = end - len(trimPartialRune(bp.buf[start:]))
	}
	if !bp.exited {
		// Leave a character whose last bytes have not arrived yet for
		// the next call.
		end -= partialTail(bp.buf[start:])
	}
	chunk := bp.buf[start:end]
	bp.cursor = bp.dropped + int64(end)
	text := validText(chunk)
	if filter != nil && text != "" {
		var kept []string
		for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if filter.MatchString(line) {
				kept = append(kept, line)
			}
		}
		text = strings.Join(kept, "\n")
	}
	if text == "" {
		text = "(no new output)"
	}
	if truncated {
		text = "[…truncated]\n" + text
	}
	if bp.exited {
		text = strings.TrimSuffix(text, "\n") + "\n[process exited]"
		if bp.checked != nil {
			text += "\nError: " + bp.checked.Error()
		}
		bp.buf = nil // everything was read; the memory is not needed
		bp.dropped = bp.cursor
	}
	return text
}

// partialTail returns the number of bytes at the end of b that start a
// character not yet complete.
func partialTail(b []byte) int {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		c := b[len(b)-i]
		if !utf8.RuneStart(c) {
			continue
		}
		if utf8.FullRune(b[len(b)-i:]) {
			return 0
		}
		return i
	}
	return 0
}

// BackgroundTools returns KillBackground and BashOutput, in that order,
// over the commands of bg. With a nil bg, both answer "Background tasks are
// disabled.". The tools are safe for concurrent use.
//
// BashOutput {id, filter?} returns the output the command produced since
// the previous BashOutput call for it, or "(no new output)", followed by
// "\n[process exited]" once the command has ended; it begins with
// "[…truncated]\n" when output was dropped from the ring buffer before it
// could be read. filter is a regular expression in Go's RE2 syntax: only
// the new lines matching it are returned (the others are consumed too).
// An unknown id is the error "No detached background task with id '<id>'.".
//
// KillBackground {id} kills the command's process group, waits for it to
// end and returns "Cancelled <id>.", or "No running background task with
// id '<id>'." when no such command is running.
func BackgroundTools(bg *Background) []tool.Tool {
	return []tool.Tool{
		tool.New("KillBackground", killBackgroundDescription, bg.killTool),
		tool.New("BashOutput", bashOutputDescription, bg.outputTool),
	}
}

const killBackgroundDescription = `Stop a background command started by bash with run_in_background, given its id.`

const bashOutputDescription = `Read the new output of a background command started by bash with run_in_background, ` +
	`given its id. Each call returns only the output produced since the previous call; ` +
	`"[process exited]" marks the end. An optional filter (a regular expression) keeps only matching lines.`

type killBackgroundInput struct {
	ID string `json:"id" jsonschema:"the id of the background command, as bash returned it"`
}

type bashOutputInput struct {
	ID     string `json:"id" jsonschema:"the id of the background command, as bash returned it"`
	Filter string `json:"filter,omitempty" jsonschema:"a regular expression; only the new output lines matching it are returned"`
}

// disabled is the result of a background tool without a registry.
func disabled() tool.Result {
	return tool.Result{Content: "Background tasks are disabled.", IsError: true}
}

func (b *Background) lookup(id string) *bgProc {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.procs[id]
}

func (b *Background) killTool(ctx context.Context, c *tool.Call, in killBackgroundInput) (tool.Result, error) {
	if b == nil {
		return disabled(), nil
	}
	if !b.Kill(in.ID) {
		return tool.Result{Content: fmt.Sprintf("No running background task with id '%s'.", in.ID), IsError: true}, nil
	}
	select {
	case <-b.lookup(in.ID).done:
	case <-ctx.Done():
		return tool.Result{}, ctx.Err()
	}
	return tool.Text("Cancelled " + in.ID + "."), nil
}

func (b *Background) outputTool(ctx context.Context, c *tool.Call, in bashOutputInput) (tool.Result, error) {
	if b == nil {
		return disabled(), nil
	}
	var filter *regexp.Regexp
	if in.Filter != "" {
		re, err := regexp.Compile(in.Filter)
		if err != nil {
			return tool.Errorf("invalid filter: %w", err), nil
		}
		filter = re
	}
	bp := b.lookup(in.ID)
	if bp == nil {
		return tool.Result{Content: fmt.Sprintf("No detached background task with id '%s'.", in.ID), IsError: true}, nil
	}
	return tool.Text(bp.output(filter)), nil
}
