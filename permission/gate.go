package permission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/strictjson"
	"github.com/lite-agent/lite-agent-go/tool"
)

// RuleAmbiguousInput is the rule id of the deny a [Gate] gives a call whose
// input JSON has a key twice in one object (at any depth, however the key
// is escaped) or bytes that are not UTF-8, before any policy is asked. The
// policy reads the last of two duplicate keys, as Go does, and U+FFFD for
// such bytes; the tool (an MCP server, a hook's script, a custom tool) may
// read the first key or the bytes themselves, and so do what no rule
// decided about. The model can send the call again with each key once.
const RuleAmbiguousInput = "ambiguous-input"

// maxInputDepth is the deepest nesting of a call's input the gate checks
// for duplicate keys; encoding/json refuses deeper documents anyway.
const maxInputDepth = 10000

// ambiguousInput returns why input can be read in two ways, or "" when it
// cannot: a duplicate key or bytes that are not UTF-8. Input that is not
// JSON at all is left to the policy and the tool, which both refuse it.
func ambiguousInput(input json.RawMessage) string {
	if len(input) == 0 {
		return ""
	}
	v, err := strictjson.Decode(input, maxInputDepth)
	if err == nil {
		if a, b := foldedDuplicate(v); a != "" {
			return "the input can be read in two ways, so no rule decides it: keys " + clip(strictjson.QuoteKey(a)) + " and " +
				clip(strictjson.QuoteKey(b)) + " are one key to Go's encoding/json, which ignores case; send each key once"
		}
		return ""
	}
	var se *strictjson.Error
	if !errors.As(err, &se) {
		return ""
	}
	switch se.Reason {
	case strictjson.DuplicateKey, strictjson.InvalidUTF8:
		return "the input can be read in two ways, so no rule decides it: " + clip(se.Error()) + "; send each key once, in valid UTF-8"
	}
	return ""
}

// foldedDuplicate returns two keys of one object of v, at any depth, that
// differ but that Go's encoding/json reads as one struct field's name: it
// matches names ignoring case, folding each letter as
// unicode.ToUpper(unicode.ToLower(r)) does (K, U+212A, is k; ſ, U+017F, is
// s). The policy reads keys exactly, so a custom tool or an MCP server in
// Go that decodes its input into a struct would read the last of the two,
// which no rule may have seen. It returns "", "" when there are none.
func foldedDuplicate(v any) (string, string) {
	switch x := v.(type) {
	case *strictjson.Object:
		seen := make(map[string]string, len(x.Keys))
		for _, k := range x.Keys {
			f := goFoldName(k)
			if prev, ok := seen[f]; ok {
				return prev, k
			}
			seen[f] = k
			if a, b := foldedDuplicate(x.Vals[k]); a != "" {
				return a, b
			}
		}
	case []any:
		for _, e := range x {
			if a, b := foldedDuplicate(e); a != "" {
				return a, b
			}
		}
	}
	return "", ""
}

// goFoldName folds key as encoding/json folds a field name when it matches
// one ignoring case: ASCII letters upper-cased, every other rune r turned
// into unicode.ToUpper(unicode.ToLower(r)).
func goFoldName(key string) string {
	var b strings.Builder
	b.Grow(len(key))
	for _, r := range key {
		switch {
		case 'a' <= r && r <= 'z':
			r -= 'a' - 'A'
		case r >= utf8.RuneSelf:
			r = unicode.ToUpper(unicode.ToLower(r))
		}
		b.WriteRune(r)
	}
	return b.String()
}

// The texts of blocked calls, as the model reads them. Each says who
// decided: the policy (and its rule), the user, or nobody.
const (
	blockedText = "Error: blocked by policy"
	deniedText  = "Error: denied by user"
	autoText    = "Error: denied automatically: the call needs approval and no approver answered"
)

// EventType names the kind of an [Event].
type EventType string

// The event types of a gate.
const (
	// EventPermissionDecision reports every final decision, with By.
	EventPermissionDecision EventType = "permission_decision"
	// EventApprovalRequest reports that a call waits for approval.
	EventApprovalRequest EventType = "approval_request"
	// EventApprovalResolved reports the answer, with By "user" or "auto".
	EventApprovalResolved EventType = "approval_resolved"
)

// Who made a decision, in [Event.By] and the audit record.
const (
	ByPolicy = "policy" // the policy allowed or denied
	ByUser   = "user"   // the approval handler answered
	ByAuto   = "auto"   // no handler, a cancelled wait, or a failed handler: deny
)

// An Event is something a gate did. Type says which fields are set. The
// call's Input is already redacted.
type Event struct {
	// Type is what the gate did.
	Type EventType
	// Call is the call the event is about.
	Call Call
	// Decision is the final decision (permission_decision,
	// approval_resolved), or Ask (approval_request).
	Decision Decision
	// By is ByPolicy, ByUser or ByAuto; empty on approval_request.
	By string
	// RuleID, Reason and Layer are the policy's verdict's; Reason is
	// redacted too.
	RuleID, Reason, Layer string
	// Simulated marks a dry-run decision: the tool ran anyway.
	Simulated bool
}

// An ApprovalRequest is what an approval handler is asked about.
type ApprovalRequest struct {
	// Call is the call, with its input as the model sent it (not
	// redacted: the person deciding needs to see it).
	Call Call
	// Verdict is the policy's ask verdict: the rule that asked and why,
	// including the resolved path or command it matched.
	Verdict Verdict
}

// An ApprovalFunc decides about a call the policy asks about. Only Allow
// runs the call; any other decision or an error denies it. It is called
// for one call at a time per [ApprovalQueue], and should return promptly
// once ctx is done: an answer after that is treated as a deny.
type ApprovalFunc func(ctx context.Context, req ApprovalRequest) (Decision, error)

// An ApprovalQueue serializes approval prompts: one handler call at a time,
// in arrival order. Share one queue between the gates of an agent family
// (the root and its subagents) so that their prompts never overlap. The
// zero value is ready to use; it is safe for concurrent use.
type ApprovalQueue struct {
	mu      sync.Mutex
	busy    bool
	waiters []chan struct{}
}

// NewApprovalQueue returns an empty queue.
func NewApprovalQueue() *ApprovalQueue { return &ApprovalQueue{} }

// Ask waits for its turn, calls approve, and returns Allow only when the
// handler allowed and ctx is still live. A ctx done while waiting returns
// Deny and ctx.Err() without calling the handler; a handler error (or
// panic) returns Deny and that error; an answer given after ctx is done
// returns Deny and ctx.Err(). The next prompt starts only after the
// handler returned.
func (q *ApprovalQueue) Ask(ctx context.Context, req ApprovalRequest, approve ApprovalFunc) (Decision, error) {
	if approve == nil {
		return Deny, errors.New("permission: no approval handler")
	}
	if err := q.acquire(ctx); err != nil {
		return Deny, err
	}
	defer q.release()
	if err := ctx.Err(); err != nil {
		return Deny, err
	}
	d, err := callApprove(ctx, req, approve)
	if cerr := ctx.Err(); cerr != nil {
		return Deny, cerr
	}
	if err != nil {
		return Deny, err
	}
	if d != Allow {
		return Deny, nil
	}
	return Allow, nil
}

// callApprove calls the handler, turning a panic into an error so that the
// queue still advances.
func callApprove(ctx context.Context, req ApprovalRequest, approve ApprovalFunc) (d Decision, err error) {
	defer func() {
		if v := recover(); v != nil {
			d, err = Deny, fmt.Errorf("permission: approval handler panicked: %v", v)
		}
	}()
	return approve(ctx, req)
}

func (q *ApprovalQueue) acquire(ctx context.Context) error {
	q.mu.Lock()
	if !q.busy {
		q.busy = true
		q.mu.Unlock()
		return nil
	}
	ch := make(chan struct{})
	q.waiters = append(q.waiters, ch)
	q.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		q.mu.Lock()
		for i, w := range q.waiters {
			if w == ch {
				q.waiters = append(q.waiters[:i], q.waiters[i+1:]...)
				q.mu.Unlock()
				return ctx.Err()
			}
		}
		q.mu.Unlock()
		// The turn was handed over as ctx ended: pass it on.
		q.release()
		return ctx.Err()
	}
}

func (q *ApprovalQueue) release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.waiters) > 0 {
		ch := q.waiters[0]
		q.waiters = q.waiters[1:]
		close(ch)
		return
	}
	q.busy = false
}

// GateOptions configures [NewGate]. The zero value gates with the
// [Default] policy, denies whatever it asks about, redacts with [Redact],
// emits nothing and audits nothing.
type GateOptions struct {
	// Policy decides; nil means [Default]().
	Policy Policy
	// Approve answers the calls the policy asks about; nil denies them
	// (By "auto").
	Approve ApprovalFunc
	// Queue serializes Approve across goroutines; share one between the
	// gates of an agent family. nil gives the gate a queue of its own.
	Queue *ApprovalQueue
	// DryRun records decisions (Simulated) but runs every call, prompting
	// for none.
	DryRun bool
	// Redact hides secrets in inputs before they are emitted or audited;
	// nil means [Redact].
	Redact func(json.RawMessage) json.RawMessage
	// Emit receives the gate's events; nil drops them. c is the tool call
	// decided about, as a tool wrapped by [Gate.Wrap] received it, through
	// which the host reports to the call's turn; nil for a decision made
	// through [Gate.Authorize] or [Gate.Check]. It is called from the
	// goroutine of the call and should not block for long.
	Emit func(ctx context.Context, c *tool.Call, ev Event)
	// Audit, when set, receives every final decision as the
	// [EventPermissionDecision] event that Emit receives next, before
	// the call runs, for the caller to record (the agent appends it to
	// the session log); an error stops the call, which is then not run,
	// and is returned as a failure of the runtime. nil audits nothing.
	// c is the tool call decided about, as for Emit.
	Audit func(ctx context.Context, c *tool.Call, ev Event) error

	// Workdir is the directory bash commands start in: a bash line that
	// writes outside it, or to a file there that is not an ordinary file,
	// is opaque (see [RuleBashAnalysis]). "" means the process's working
	// directory when the gate is built.
	Workdir string
	// HomeDir is the user's home directory, for ~ and $HOME in bash lines;
	// "" means [os.UserHomeDir]. A relative one is made absolute against
	// the process's working directory when the gate is built, as Workdir.
	HomeDir string
	// Protected lists absolute paths that bash lines may never write or
	// delete, each protecting everything beneath it; whatever name, glob,
	// symbolic link or ".." a line uses for them, such a line is denied
	// ([RuleBashProtected]) before the policy is asked. Pass
	// [storage.ProjectPaths.ProtectedPaths] and the managed policy file.
	Protected []string
	// BashEnv, when set, returns the environment ("KEY=value" entries)
	// the bash tool gives the line being decided, read at each decision:
	// with it, a pip or python that PATH finds (pip install -r
	// requirements.txt, python3 -m pip install x) is allowed when, by
	// that environment's PATH, it is the program of a virtual
	// environment of the workdir that a path into its bin directory would
	// be allowed as (an activated .venv); and a pip or uv pip is opaque
	// when it sets a variable that says where they install (PIP_TARGET,
	// PIP_PREFIX, PIP_PYTHON, UV_SYSTEM_PYTHON …). Its HOME and XDG_
	// variables also name the settings files of the user and of the
	// system that pip and uv pip read (~/.config/pip/pip.conf …), which
	// the gate checks; and its variables that move credentials out of the
	// home (GNUPGHOME, GH_CONFIG_DIR, KUBECONFIG …) name secret locations
	// (see [RuleBashSecretRead]). nil means the environment is unknown: a
	// line that needs PATH is opaque, and those files and locations are
	// found by the gate process's own environment and HomeDir. It must be the very
	// environment the tool passes to bash, not the gate process's when
	// they differ.
	BashEnv func() []string
	// SecretEnv names environment variables that hold a secret whatever
	// their names say: the store codec's key variable (the CLI's
	// --key-env MY_STORE), any variable a configuration names as holding
	// a key or token. A bash line that prints one (echo $MY_STORE,
	// printenv MY_STORE) asks under [RuleBashSecretRead], as one printing
	// GITHUB_TOKEN or ANTHROPIC_API_KEY does, which the gate knows by
	// their names.
	SecretEnv []string
}

// A Gate checks tool calls against a policy before they run: it asks the
// approval handler when the policy says ask, emits events, audits
// decisions, and turns refusals into error results for the model. It is
// safe for concurrent use.
type Gate struct {
	opts GateOptions
	// workdir and home are the resolved GateOptions.Workdir and HomeDir
	// ("" when unknown); protected the clean absolute Protected paths.
	workdir, home string
	protected     []string
	// secrets are the paths a bash line asks to read (see
	// [RuleBashSecretRead]).
	secrets []string
	// line holds the file system lookups of one bash decision (see
	// [Gate.withSecretSet]); nil outside one.
	line *lineLookups
	// bashTurn holds one token, which a bash call of a wrapped tool takes
	// from before it is decided until it returns; a child gate shares it.
	bashTurn chan struct{}
	// history remembers the repository history git lines were judged
	// against (see protectedGitMayBring); copies of the gate share it.
	history *historyCache
}

// NewGate returns a gate.
func NewGate(opts GateOptions) *Gate {
	if opts.Policy == nil {
		opts.Policy = Default()
	}
	if opts.Queue == nil {
		opts.Queue = NewApprovalQueue()
	}
	if opts.Redact == nil {
		opts.Redact = Redact
	}
	g := &Gate{opts: opts, workdir: opts.Workdir, home: opts.HomeDir, bashTurn: make(chan struct{}, 1), history: &historyCache{}}
	if g.workdir == "" {
		g.workdir, _ = os.Getwd()
	}
	if g.workdir != "" {
		if abs, err := filepath.Abs(g.workdir); err == nil {
			g.workdir = abs
		} else {
			g.workdir = ""
		}
	}
	g.home = absHome(g.home)
	for _, p := range opts.Protected {
		if abs, err := filepath.Abs(p); err == nil && p != "" {
			g.protected = append(g.protected, abs)
		}
	}
	g.protected = append(g.protected, g.hooksPathProtected()...)
	g.secrets = secretLocations(g.home, g.workdir, g.protected)
	return g
}

// Policy returns the gate's policy.
func (g *Gate) Policy() Policy { return g.opts.Policy }

// Child returns a gate for a subagent: the same options and approval
// queue, with the policy Compose(g's policy, p), which can never allow what
// g's policy does not. A nil p keeps g's policy.
func (g *Gate) Child(p Policy) *Gate {
	c := *g
	if p != nil {
		c.opts.Policy = Compose(g.opts.Policy, p)
	}
	return &c
}

// An Outcome is the gate's final word on one call.
type Outcome struct {
	// Verdict is the policy's verdict.
	Verdict Verdict
	// Decision is the final decision: the policy's allow or deny, or the
	// approval's answer (Allow or Deny). In a dry run it is the policy's
	// decision, ask included.
	Decision Decision
	// By is ByPolicy, ByUser or ByAuto.
	By string
	// Simulated marks a dry run.
	Simulated bool
	// Run reports whether the call may run.
	Run bool
}

// Result returns the error result a blocked call gives the model, saying
// who decided: "Error: blocked by policy" (with " rule <id>" and ": <reason>"
// when the verdict has them) when the policy denied, "Error: denied by user"
// when the approval handler did, and "Error: denied automatically: …" when
// no handler answered (none was set, the wait was cancelled, or it failed),
// followed by the rule and reason of a [RuleBashAnalysis] ask.
func (o Outcome) Result() tool.Result {
	switch o.By {
	case ByPolicy:
		text := blockedText
		if o.Verdict.RuleID != "" {
			text += " rule " + o.Verdict.RuleID
		}
		if o.Verdict.Reason != "" {
			text += ": " + o.Verdict.Reason
		}
		return tool.Result{Content: text, IsError: true}
	case ByAuto:
		text := autoText
		if o.Verdict.RuleID == RuleBashAnalysis {
			text += "; rule " + RuleBashAnalysis + ": " + o.Verdict.Reason
		}
		return tool.Result{Content: text, IsError: true}
	}
	return tool.Result{Content: deniedText, IsError: true}
}

// Authorize decides about call: it asks the policy (an error of the policy
// is a deny with the reason "policy error: <message>"), asks the approval
// handler through the queue when the policy says ask, emits the events and
// audits the decision. It returns an error only when ctx is done before the
// policy decided or the audit failed; the call must then not run.
func (g *Gate) Authorize(ctx context.Context, call Call) (Outcome, error) {
	return g.authorize(ctx, call, nil)
}

// authorize is Authorize for the tool call tc, which the gate's events and
// audit records are handed with; tc is nil for a call that is not a tool
// call of a turn.
func (g *Gate) authorize(ctx context.Context, call Call, tc *tool.Call) (Outcome, error) {
	v, err := g.Decide(ctx, call)
	if err != nil {
		return Outcome{}, err
	}
	shown := call
	shown.ws = nil
	shown.Input = g.opts.Redact(call.Input)
	reason := g.redactText(v.Reason)
	out := Outcome{Verdict: v, Decision: v.Decision, By: ByPolicy}
	if g.opts.DryRun {
		out.Simulated, out.Run = true, true
		return out, g.decided(ctx, tc, shown, out, reason)
	}
	switch v.Decision {
	case Allow:
		out.Run = true
		return out, g.decided(ctx, tc, shown, out, reason)
	case Deny:
		return out, g.decided(ctx, tc, shown, out, reason)
	}
	g.emit(ctx, tc, Event{Type: EventApprovalRequest, Call: shown, Decision: Ask, RuleID: v.RuleID, Reason: reason, Layer: v.Layer})
	out.Decision, out.By = Deny, ByAuto
	if g.opts.Approve != nil {
		req := ApprovalRequest{Call: call, Verdict: v}
		req.Call.ws = nil
		d, err := g.opts.Queue.Ask(ctx, req, g.opts.Approve)
		if err == nil {
			out.Decision, out.By = d, ByUser
		}
	}
	out.Run = out.Decision == Allow
	g.emit(ctx, tc, Event{Type: EventApprovalResolved, Call: shown, Decision: out.Decision, By: out.By, RuleID: v.RuleID, Reason: reason, Layer: v.Layer})
	return out, g.decided(ctx, tc, shown, out, reason)
}

// Decide returns the gate's verdict about call before any approval, and
// emits and audits nothing: for an input with a duplicate key or bytes
// that are not UTF-8, the deny of [RuleAmbiguousInput] without asking the
// policy; for a bash line that writes a protected path,
// the deny of [RuleBashProtected] without asking the policy; otherwise the
// policy's verdict (an error of the policy is a deny with the reason
// "policy error: <message>"), turned into the ask of [RuleBashAnalysis]
// when the policy allows a bash line the analysis does not fully
// understand. It returns an error only when ctx is done before the policy
// decided.
func (g *Gate) Decide(ctx context.Context, call Call) (Verdict, error) {
	if reason := ambiguousInput(call.Input); reason != "" {
		return Verdict{Decision: Deny, RuleID: RuleAmbiguousInput, Layer: LayerSelfProtection, Reason: reason}, nil
	}
	var screen bashScreen
	if call.Name == "bash" {
		screen = g.screenBash(call)
	}
	if screen.protected != "" {
		return Verdict{Decision: Deny, RuleID: RuleBashProtected, Layer: LayerSelfProtection,
			Reason: "the command writes or deletes a protected path: " + clip(screen.protected)}, nil
	}
	v, err := g.opts.Policy.Check(ctx, call)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return Verdict{}, cerr
		}
		v = Verdict{Decision: Deny, Reason: "policy error: " + err.Error()}
	} else if !v.Decision.Valid() {
		v = Verdict{Decision: Deny, Reason: "policy error: no decision"}
	}
	if v.Decision == Allow {
		rv, err := g.changeReads(ctx, call)
		if err != nil {
			return Verdict{}, err
		}
		if rv != nil {
			v = *rv
		}
	}
	if v.Decision == Allow && screen.opaque != "" {
		v = Verdict{Decision: Ask, RuleID: RuleBashAnalysis,
			Reason: "the command cannot be fully analyzed: " + screen.opaque}
	}
	if v.Decision == Allow && screen.secret != "" {
		v = Verdict{Decision: Ask, RuleID: RuleBashSecretRead, Reason: secretReadReason(screen.secret)}
	}
	if v.Decision == Allow {
		if p := g.fileSecretRead(call); p != "" {
			reason := "the tool reads a path that holds credentials (or a directory holding one): "
			if call.Name != "read_file" && call.Name != "grep" {
				reason = "the tool changes a path that holds credentials, whose previous content its answer and snapshot show: "
			}
			v = Verdict{Decision: Ask, RuleID: RuleFileSecretRead, Reason: reason + clip(p)}
		} else if p := g.fileInGitDir(call); p != "" {
			v = Verdict{Decision: Ask, RuleID: RuleGitDir,
				Reason: "the tool changes a file inside a .git directory, whose configuration and hooks git runs: " + clip(p)}
		} else if p := g.fileInHooksDir(call); p != "" {
			v = Verdict{Decision: Ask, RuleID: RuleGitDir,
				Reason: "the tool changes a hook or a configuration file of the repository's git configuration (core.hooksPath, include.path), which git runs or reads: " + clip(p)}
		}
	}
	return v, nil
}

// changeReads returns, for an edit_file, write_file or delete_file call
// the policy allowed, the policy's verdict on read_file of the same path
// when that is not allow; nil otherwise. A change shows what the file
// held: edit_file answers whether old_text occurs ("Edited" or "Text not
// found", an oracle that gives a file away a character at a time), and
// every change records the previous content in its snapshot, which the
// session log keeps and read_file reads back. So a path read_file may not
// read may not be changed either without the same approval (a rule that
// denies reading .env denied read_file .env while edit_file .env told its
// content, rt132files). A FilePolicy's default, given when no rule
// matched (Layer "default"), does not count. A write_file of a file that does
// not exist shows nothing and is not affected. It returns an error only when ctx is done.
func (g *Gate) changeReads(ctx context.Context, call Call) (*Verdict, error) {
	p := fileToolPath(call)
	if p == "" {
		return nil, nil
	}
	if call.Name == "write_file" {
		if target := g.absTarget("", p); target != "" {
			if _, err := os.Lstat(target); errors.Is(err, fs.ErrNotExist) {
				return nil, nil
			}
		}
	}
	input, err := json.Marshal(map[string]string{"path": p})
	if err != nil {
		return nil, nil
	}
	rv, err := g.opts.Policy.Check(ctx, Call{ID: call.ID, Name: "read_file", Input: input, SessionID: call.SessionID})
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		rv = Verdict{Decision: Deny, Reason: "policy error: " + err.Error()}
	}
	if rv.Decision == Allow || rv.Layer == "default" && rv.Decision.Valid() {
		// Allowed, or refused because no rule matched (a FilePolicy's
		// default for what its rules do not name): a host that allows
		// changes and has no rule about reading the path has not said
		// the file is not to be seen.
		return nil, nil
	}
	if !rv.Decision.Valid() {
		rv = Verdict{Decision: Deny, Reason: "policy error: no decision"}
	}
	what := "is denied"
	if rv.Decision == Ask {
		what = "needs an approval"
	}
	reason := "the tool shows what the file holds (edit_file's answer, the snapshot of the change) and read_file of it " + what
	if rv.Reason != "" {
		reason += ": " + rv.Reason
	}
	rv.Reason = reason
	return &rv, nil
}

// fileInGitDir returns the path of a write_file, edit_file or delete_file
// call when it, as given or with its symbolic links resolved, lies inside
// a .git directory or is one; "" otherwise.
func (g *Gate) fileInGitDir(call Call) string {
	p := fileToolPath(call)
	if p == "" {
		return ""
	}
	if gitDirComponent(p) {
		return p
	}
	if target := g.absTarget("", p); target != "" && gitDirComponent(g.lookups().Resolve(target)) {
		return p
	}
	return ""
}

// decided audits and emits a final decision.
func (g *Gate) decided(ctx context.Context, tc *tool.Call, shown Call, out Outcome, reason string) error {
	v := out.Verdict
	ev := Event{Type: EventPermissionDecision, Call: shown, Decision: out.Decision, By: out.By,
		RuleID: v.RuleID, Reason: reason, Layer: v.Layer, Simulated: out.Simulated}
	if g.opts.Audit != nil {
		if err := g.opts.Audit(ctx, tc, ev); err != nil {
			return fmt.Errorf("permission: audit %s: %w", shown.Name, err)
		}
	}
	g.emit(ctx, tc, ev)
	return nil
}

func (g *Gate) emit(ctx context.Context, tc *tool.Call, ev Event) {
	if g.opts.Emit != nil {
		g.opts.Emit(ctx, tc, ev)
	}
}

// redactText redacts a reason with the gate's redactor.
func (g *Gate) redactText(s string) string {
	if s == "" {
		return ""
	}
	b, err := json.Marshal(s)
	if err != nil {
		return RedactString(s)
	}
	var out string
	if err := json.Unmarshal(g.opts.Redact(b), &out); err != nil {
		return RedactString(s)
	}
	return out
}

// Check authorizes a call that is not a tool call of the model, such as a
// hook command (name "hook") or an MCP connection (name "mcp_connect"),
// with input marshaled to JSON (a json.RawMessage is used as it is). It
// returns the final verdict: Decision is Allow only when the operation may
// go ahead. The call has no session id.
func (g *Gate) Check(ctx context.Context, name string, input any) (Verdict, error) {
	var raw json.RawMessage
	switch x := input.(type) {
	case json.RawMessage:
		raw = x
	case nil:
		raw = json.RawMessage("{}")
	default:
		b, err := json.Marshal(input)
		if err != nil {
			return Verdict{}, fmt.Errorf("permission: input of %s: %w", name, err)
		}
		raw = b
	}
	call := Call{Name: name, Input: raw}
	out, err := g.Authorize(ctx, call)
	if err != nil {
		return Verdict{}, err
	}
	v := out.Verdict
	v.Decision = out.Decision
	if !out.Run {
		v.Decision = Deny
	}
	return v, nil
}

// Wrap returns t gated: its Call authorizes the call first and runs t only
// when the gate allows it (or in a dry run); otherwise it returns the
// blocked result ([Outcome.Result]) without calling t. Name, Description
// and Schema are t's.
func (g *Gate) Wrap(t tool.Tool) tool.Tool { return &gatedTool{g: g, t: t} }

// WrapAll wraps every tool of ts.
func (g *Gate) WrapAll(ts []tool.Tool) []tool.Tool {
	out := make([]tool.Tool, len(ts))
	for i, t := range ts {
		out[i] = g.Wrap(t)
	}
	return out
}

type gatedTool struct {
	g *Gate
	t tool.Tool
}

var _ tool.Tool = (*gatedTool)(nil)

func (w *gatedTool) Name() string            { return w.t.Name() }
func (w *gatedTool) Description() string     { return w.t.Description() }
func (w *gatedTool) Schema() json.RawMessage { return w.t.Schema() }

// Unwrap returns the gated tool.
func (w *gatedTool) Unwrap() tool.Tool { return w.t }

func (w *gatedTool) Call(ctx context.Context, c *tool.Call, input json.RawMessage) (tool.Result, error) {
	call := Call{Name: w.t.Name(), Input: input}
	if c != nil {
		call.ID, call.SessionID = c.ID, c.SessionID
	}
	var seen seenPath
	if fileTools[call.Name] || call.Name == "grep" {
		call.seen = &seen
	}
	if call.Name == "bash" && w.g.bashTurn != nil {
		// The engine runs a turn's calls at once, and a bash line is
		// decided on the files as they are when it is: a line another one
		// runs beside it may make a path it writes lead elsewhere (sleep
		// 1; echo x > sub/l/config beside cp -P dotgit sub/l). Bash calls
		// are decided and run one at a time.
		select {
		case w.g.bashTurn <- struct{}{}:
			defer func() { <-w.g.bashTurn }()
		case <-ctx.Done():
			return tool.Result{}, ctx.Err()
		}
	}
	out, err := w.g.authorize(ctx, call, c)
	if err != nil {
		return tool.Result{}, err
	}
	if !out.Run {
		return out.Result(), nil
	}
	if checked := seen.get(); checked != "" && !out.Simulated {
		call.seen = nil
		ctx = tool.WithPathCheck(ctx, w.g.openedCheck(call, checked))
	}
	return w.t.Call(ctx, c, input)
}
