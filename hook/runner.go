package hook

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/lite-agent/lite-agent-go/internal/glob"
	"github.com/lite-agent/lite-agent-go/sandbox"
)

const (
	// ToolName is the name of the synthetic tool call a command hook's
	// permission check is about, the "hook" capability of permission
	// policies.
	ToolName = "hook"

	// DefaultMaxOutputBytes is the most combined standard output and
	// standard error a command hook may write when
	// [Options.MaxOutputBytes] is zero: 64 KiB.
	DefaultMaxOutputBytes = 64 << 10

	// MaxPayloadBytes is the largest payload JSON a command hook is given:
	// 256 KiB. A larger payload fails the hook without running it.
	MaxPayloadBytes = 256 << 10

	// CodeHookFailed is the diagnostic code of a failed hook.
	CodeHookFailed = "hook_failed"

	// defaultShell runs command hooks when Options.Shell is "".
	defaultShell = "/bin/sh"
)

// DefaultEnvNames are the variables a command hook inherits from the host
// when [Options.Env] is nil. Nothing else is passed on, so secrets in the
// host's environment stay out of hook commands.
func DefaultEnvNames() []string {
	return []string{"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "TERM"}
}

// Options configures a [Runner]. The zero value runs no programmatic hooks
// and denies every command hook.
type Options struct {
	// Programmatic are hooks registered by the host, run after the file
	// hooks in the order given. Their Layer is set to LayerProgrammatic.
	Programmatic []Hook

	// Permit decides whether a command hook may run, each time it is about
	// to run: it is the "hook" permission, separate from the bash tool's.
	// The host passes the request through its permission gate as a tool
	// call named [ToolName] with [PermitRequest.Input] as input, always
	// enforced (also in a dry-run mode) and with an explicit deny never
	// overridden by an approval handler. It runs under the hook's timeout.
	// nil denies every command hook, so a project directory's hooks never
	// run without the host's grant. Go hooks (Func) are host code and are
	// not asked about.
	Permit func(ctx context.Context, req PermitRequest) (bool, error)

	// Workdir is the directory commands run in. "" means the process's
	// working directory when New is called.
	Workdir string

	// Shell runs each command as "<Shell> -c <command>". "" means /bin/sh.
	Shell string

	// Env is the whole environment of hook commands, as "KEY=value"
	// entries. nil means the host's values of [DefaultEnvNames], read once
	// by New; an empty non-nil slice means an empty environment.
	Env []string

	// MaxOutputBytes is the most combined output, in bytes, a command may
	// write; once it writes more, its process group is killed and the hook
	// fails. Zero means DefaultMaxOutputBytes. The output itself is
	// discarded.
	MaxOutputBytes int

	// Sandbox, when set, contains every command hook: each command is
	// wrapped by it before it starts, and one it cannot wrap fails without
	// running. When it is a [sandbox.AfterRunner], its AfterRun runs once
	// each command and its group have ended, and its error is the hook's
	// failure. nil runs hook commands uncontained. Go hooks are host code
	// and never sandboxed.
	Sandbox sandbox.Sandbox
}

// A PermitRequest asks whether a command hook may run.
type PermitRequest struct {
	// CallID identifies the synthetic tool call: "hook-<uuid>".
	CallID string
	// Input is the synthetic call's input, exactly
	// {"command":…,"event":…,"source":…,"configFile":…}, where source is
	// "user", "project" or "host" ([Layer.PermissionSource]) and
	// configFile is left out for a programmatic hook without a file. It
	// never holds the payload.
	Input json.RawMessage
	// Hook is the hook about to run.
	Hook Hook
	// Event is the event being fired.
	Event Event
	// Payload is a copy of the payload being fired. Its Identity names
	// the run the hook observes, so that the host can attribute the
	// decision to that run's session without reading it from ctx.
	Payload Payload
}

// A Diagnostic reports a hook that failed. Hooks never change what they
// observe: the host emits the diagnostic in the run's event stream and goes
// on.
type Diagnostic struct {
	// Level is "error".
	Level string
	// Code is CodeHookFailed.
	Code string
	// Message is "<event> (<label>): <reason>", where the reason is
	// "Hook timed out" for a timeout and the error's text otherwise.
	Message string
	// Event is the event that was fired.
	Event Event
	// Label names the hook: "global:<file>", "project:<file>" or
	// "programmatic:<n>", n counting registrations from 1.
	Label string
	// Err is the failure: ErrTimeout, ErrDenied, ErrPayloadTooLarge, an
	// *ExitError, an *OutputLimitError, the context's error, or a Go
	// hook's own error.
	Err error
}

// Outcome is what one [Runner.Fire] did.
type Outcome struct {
	// Ran is the number of hooks that matched the event, failed ones
	// included.
	Ran int
	// Diagnostics has one entry per failed hook, in run order.
	Diagnostics []Diagnostic
}

// The errors of a failed hook.
var (
	// ErrTimeout reports a hook that ran past its timeout. A command's
	// process group was killed.
	ErrTimeout = errors.New("hook timed out")
	// ErrDenied reports a command hook the permission check refused, or
	// that had no permission check to ask.
	ErrDenied = errors.New("hook command denied")
	// ErrPayloadTooLarge reports a payload whose JSON exceeds
	// MaxPayloadBytes; the command was not run.
	ErrPayloadTooLarge = errors.New("hook payload exceeds 256 KiB")
)

// An ExitError reports a command that exited with a non-zero status or was
// killed by a signal.
type ExitError struct {
	Code   int    // the exit status, or -1 when a signal ended the process
	Signal string // the signal's name, when one ended the process
}

// Error gives the signal that killed the command, or its exit code.
func (e *ExitError) Error() string {
	if e.Signal != "" {
		return "command was killed by " + e.Signal
	}
	return "command exited with code " + strconv.Itoa(e.Code)
}

// An OutputLimitError reports a command that wrote more than its output
// limit; its process group was killed.
type OutputLimitError struct {
	Limit int // the limit in bytes
}

// Error gives the output limit the command exceeded.
func (e *OutputLimitError) Error() string {
	return fmt.Sprintf("command output exceeded %d bytes", e.Limit)
}

// A Runner runs the hooks of an agent family: the file hooks it was built
// with, then the programmatic ones. It is safe for concurrent use; a nil
// *Runner runs nothing.
type Runner struct {
	file      []Hook          // fixed at construction
	fileMatch []*glob.Pattern // the Match of each file hook; fixed at construction
	permit    func(ctx context.Context, req PermitRequest) (bool, error)
	workdir   string
	shell     string
	env       []string
	maxOutput int
	sandbox   sandbox.Sandbox // nil: none

	mu      sync.Mutex
	prog    []registration // guarded by mu
	nextSeq int            // guarded by mu
}

// registration is a programmatic hook and its number.
type registration struct {
	seq   int
	hook  Hook
	match *glob.Pattern // hook.Match compiled; nil when empty
}

// New returns a Runner for the hooks of cfg, followed by
// opts.Programmatic. It validates every hook and option first and returns
// an error naming the problem; it starts nothing.
func New(cfg Config, opts Options) (*Runner, error) {
	r := &Runner{
		permit:    opts.Permit,
		shell:     opts.Shell,
		maxOutput: opts.MaxOutputBytes,
		sandbox:   opts.Sandbox,
	}
	for _, h := range cfg.Hooks {
		if err := h.validate(); err != nil {
			return nil, &ConfigError{File: h.File, Detail: err.Error()}
		}
		if h.Func != nil {
			return nil, &ConfigError{File: h.File, Detail: "a file hook cannot have a func"}
		}
		if h.Layer != LayerGlobal && h.Layer != LayerProject {
			return nil, &ConfigError{File: h.File, Detail: "a file hook's layer must be global or project"}
		}
		r.file = append(r.file, h)
		r.fileMatch = append(r.fileMatch, matchOf(h))
	}
	if r.shell == "" {
		r.shell = defaultShell
	}
	if _, err := os.Stat(r.shell); err != nil {
		return nil, fmt.Errorf("hook: shell: %w", err)
	}
	if r.maxOutput < 0 {
		return nil, errors.New("hook: negative MaxOutputBytes")
	}
	if r.maxOutput == 0 {
		r.maxOutput = DefaultMaxOutputBytes
	}
	wd := opts.Workdir
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("hook: workdir: %w", err)
		}
	}
	wd, err := filepath.Abs(wd)
	if err != nil {
		return nil, fmt.Errorf("hook: workdir: %w", err)
	}
	r.workdir = wd
	if opts.Env != nil {
		r.env = append(make([]string, 0, len(opts.Env)), opts.Env...)
	} else {
		r.env = []string{}
		for _, name := range DefaultEnvNames() {
			if v, ok := os.LookupEnv(name); ok {
				r.env = append(r.env, name+"="+v)
			}
		}
	}
	for _, h := range opts.Programmatic {
		if _, err := r.Register(h); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Register adds a programmatic hook after those already registered and
// returns the function that removes it again; calling that more than once
// does nothing. Registering the same hook twice makes two independent
// registrations. A Fire already under way is not affected. Register
// returns an error if the hook is invalid.
func (r *Runner) Register(h Hook) (unregister func(), err error) {
	if err := h.validate(); err != nil {
		return nil, fmt.Errorf("hook: %w", err)
	}
	h.Layer = LayerProgrammatic
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nextSeq++
	seq := r.nextSeq
	r.prog = append(r.prog, registration{seq: seq, hook: h, match: matchOf(h)})
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		for i, reg := range r.prog {
			if reg.seq == seq {
				r.prog = append(r.prog[:i:i], r.prog[i+1:]...)
				return
			}
		}
	}, nil
}

// Hooks returns every registered hook in run order: file hooks, then
// programmatic ones.
func (r *Runner) Hooks() []Hook {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]Hook(nil), r.file...)
	for _, reg := range r.prog {
		out = append(out, reg.hook)
	}
	return out
}

// labelled is a hook with its diagnostic label.
type labelled struct {
	hook  Hook
	label string
}

// snapshot returns the hooks that run for p, in order.
func (r *Runner) snapshot(p Payload) []labelled {
	ev, tool := p.Event(), p.toolName()
	matches := func(h Hook, m *glob.Pattern) bool {
		return h.Event == ev && (m == nil || m.Match(tool))
	}
	var out []labelled
	for i, h := range r.file {
		if matches(h, r.fileMatch[i]) {
			out = append(out, labelled{h, string(h.Layer) + ":" + h.File})
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, reg := range r.prog {
		if matches(reg.hook, reg.match) {
			out = append(out, labelled{reg.hook, "programmatic:" + strconv.Itoa(reg.seq)})
		}
	}
	return out
}

// Fire runs, one after another, every hook registered for p's event (and,
// for tool events, matching the tool's name): global file hooks, project
// file hooks, then programmatic hooks, each in registration order. The
// list is taken when Fire starts.
//
// A command hook runs only if the permission check allows it. It runs as
// "<shell> -c <command>" in its own process group, in the workdir, with
// the filtered environment and the payload's JSON and a newline on
// standard input; its output is discarded. A non-zero exit, a timeout, too
// much output, a payload over MaxPayloadBytes, a denial or a failure to
// start fails the hook; a Go hook fails by returning an error or
// panicking. Each failure becomes a [Diagnostic] in the Outcome, and the
// remaining hooks still run. Fire never changes p and has no other effect
// on the caller: hooks observe, they do not decide.
//
// For start events, ctx cancels the hooks (a command's process group is
// killed). For end events (run:end, tool:end, compact:end) only each
// hook's own timeout applies, so they still run after a cancellation.
// Fire is safe for concurrent use.
func (r *Runner) Fire(ctx context.Context, p Payload) Outcome {
	if r == nil || p == nil {
		return Outcome{}
	}
	hooks := r.snapshot(p)
	out := Outcome{Ran: len(hooks)}
	if len(hooks) == 0 {
		return out
	}
	if p.Event().isEnd() {
		ctx = context.WithoutCancel(ctx)
	}
	var (
		payload    []byte
		payloadErr error
		encoded    bool
	)
	for _, lh := range hooks {
		var err error
		if lh.hook.Func != nil {
			err = r.runFunc(ctx, lh.hook, p.clone())
		} else {
			if !encoded {
				payload, payloadErr = encodePayload(p)
				encoded = true
			}
			err = payloadErr
			if err == nil {
				err = r.runCommand(ctx, lh.hook, p, payload)
			}
		}
		if err != nil {
			out.Diagnostics = append(out.Diagnostics, diagnose(p.Event(), lh.label, err))
		}
	}
	return out
}

// encodePayload returns the stdin of a command hook: the JSON and a
// newline.
func encodePayload(p Payload) ([]byte, error) {
	data, err := Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encode payload: %w", err)
	}
	if len(data) > MaxPayloadBytes {
		return nil, ErrPayloadTooLarge
	}
	return append(data, '\n'), nil
}

func diagnose(ev Event, label string, err error) Diagnostic {
	reason := err.Error()
	if errors.Is(err, ErrTimeout) {
		reason = "Hook timed out"
	}
	return Diagnostic{
		Level:   "error",
		Code:    CodeHookFailed,
		Message: string(ev) + " (" + label + "): " + reason,
		Event:   ev,
		Label:   label,
		Err:     err,
	}
}

// withTimeout returns the context one run of h gets.
func withTimeout(ctx context.Context, h Hook) (context.Context, context.CancelFunc) {
	d := h.Timeout
	if d == 0 {
		d = DefaultTimeout
	}
	return context.WithTimeoutCause(ctx, d, ErrTimeout)
}

// runFunc runs a Go hook under its timeout, turning a panic into an error.
func (r *Runner) runFunc(ctx context.Context, h Hook, p Payload) (err error) {
	hctx, cancel := withTimeout(ctx, h)
	defer cancel()
	if err := ctxErr(hctx); err != nil {
		return err
	}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("hook panicked: %v", v)
		}
	}()
	err = h.Func(hctx, p)
	if cerr := ctxErr(hctx); cerr != nil {
		// A hook that returns after its deadline has overrun it, whatever
		// it returns.
		return cerr
	}
	return err
}

// ctxErr returns ErrTimeout when a hook's own deadline passed and the
// parent's error when the parent was cancelled.
func ctxErr(hctx context.Context) error {
	if hctx.Err() == nil {
		return nil
	}
	if cause := context.Cause(hctx); errors.Is(cause, ErrTimeout) {
		return ErrTimeout
	}
	return hctx.Err()
}

// permitInput is the synthetic call's input, in this key order.
type permitInput struct {
	Command    string `json:"command"`
	Event      Event  `json:"event"`
	Source     string `json:"source"`
	ConfigFile string `json:"configFile,omitempty"`
}

// allowed asks the permission check about h, fired for p.
func (r *Runner) allowed(ctx context.Context, h Hook, p Payload) error {
	ev := p.Event()
	if r.permit == nil {
		return fmt.Errorf("%w: no permission check is configured", ErrDenied)
	}
	input, err := encode(permitInput{Command: h.Command, Event: ev, Source: h.Layer.PermissionSource(), ConfigFile: h.File})
	if err != nil {
		return fmt.Errorf("encode permission input: %w", err)
	}
	ok, err := r.permit(ctx, PermitRequest{CallID: "hook-" + newUUID(), Input: input, Hook: h, Event: ev, Payload: p.clone()})
	if cerr := ctxErr(ctx); cerr != nil {
		return cerr
	}
	if err != nil {
		return fmt.Errorf("%w: permission check failed: %v", ErrDenied, err)
	}
	if !ok {
		return ErrDenied
	}
	return nil
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return strings.Join([]string{h[:8], h[8:12], h[12:16], h[16:20], h[20:]}, "-")
}

// runCommand checks the permission for a command hook and runs it.
func (r *Runner) runCommand(ctx context.Context, h Hook, p Payload, stdin []byte) error {
	hctx, cancel := withTimeout(ctx, h)
	defer cancel()
	if err := ctxErr(hctx); err != nil {
		return err
	}
	if err := r.allowed(hctx, h, p); err != nil {
		return err
	}
	return r.exec(hctx, h.Command, stdin)
}
