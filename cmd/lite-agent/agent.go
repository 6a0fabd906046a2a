package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/auditcmd"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/otelenv"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/slash"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/mcphost"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

// The values of --provider.
const (
	providerAnthropic = "anthropic"
	providerOpenAI    = "openai"
)

// agentFlags are the flags of the commands that run an agent.
type agentFlags struct {
	provider string
	model    string
	baseURL  string
	resume   string
	newID    string // --session-id
	cont     bool
	maxTurns int
	window   int
	count    bool
	allow    []string
	deny     []string
	cleanup  cleanupFlags

	sandbox      string
	sandboxNet   bool
	sandboxWrite []string
	audit        auditcmd.Flags
	// warn writes the agent's warnings to the command's stderr, such as a
	// summary that failed (sessions compact).
	warn bool
	// flags are the command's flags, to tell a flag given empty from one
	// left out.
	flags *pflag.FlagSet
}

func (f *agentFlags) register(cmd *cobra.Command) {
	f.registerModel(cmd)
	fs := cmd.Flags()
	fs.StringVarP(&f.resume, "resume", "r", "", "continue the stored session `ID`")
	fs.StringVar(&f.newID, "session-id", "", "start a new session with the id `ID` (an error if it exists)")
	fs.BoolVarP(&f.cont, "continue", "c", false, "continue the most recent session of this project")
	fs.IntVar(&f.maxTurns, "max-turns", 0, "bound the model calls of one prompt (default 50)")
	fs.StringArrayVar(&f.allow, "allow", nil, "allow the tools matching `GLOB` without asking (repeatable), such as bash or 'mcp__*'")
	fs.StringArrayVar(&f.deny, "deny", nil, "deny the tools matching `GLOB` (repeatable); deny wins over allow")
	f.cleanup.register(cmd)
	fs.StringVar(&f.sandbox, "sandbox", sandboxAuto, "contain bash and hook commands: auto (bubblewrap when it works, else a notice), bwrap (required) or off")
	fs.BoolVar(&f.sandboxNet, "sandbox-network", false, "let sandboxed commands use the network")
	fs.StringArrayVar(&f.sandboxWrite, "sandbox-write", nil, "let sandboxed commands write `DIR` too (repeatable), such as a build cache")
	f.audit.Register(cmd, usagef)
}

// registerModel registers the model flags, which sessions compact shares.
func (f *agentFlags) registerModel(cmd *cobra.Command) {
	fs := cmd.Flags()
	f.flags = fs
	fs.StringVar(&f.provider, "provider", providerAnthropic, "model `provider`: anthropic or openai (OpenAI-compatible servers)")
	fs.StringVar(&f.model, "model", "", "model id (default: claude-sonnet-4-5 for anthropic, gpt-4.1-mini for openai)")
	fs.StringVar(&f.baseURL, "base-url", "", "API endpoint `URL` (default: ANTHROPIC_BASE_URL / OPENAI_BASE_URL, else the provider's)")
	fs.IntVar(&f.window, "context-window", 0, "the model's context window in `tokens`, within which history is compacted (default: the model's if known, else 32000)")
	fs.BoolVar(&f.count, "count-tokens", false, "scale the size estimates of large requests to Anthropic's token count (one more API call each); sessions compact reports counted figures")
}

// defaultAsk lists what the CLI asks about where no rule and no flag
// decides.
var defaultAsk = []string{"bash", "write_file", "edit_file", "delete_file", "hook", "mcp_connect", "mcp__*"}

// terminalApprover asks on the terminal about each call the policy asks
// about, showing the whole call (writeApproval), reading the answer from
// in: y allows the call, a allows calls with exactly this input for the
// rest of the session (and says so, as the rule it adds), v shows what a
// long call's prompt left out and asks again, anything else denies. It returns nil (deny every ask)
// when in is not a terminal, so that scripts never block on a prompt.
func terminalApprover(in *lineReader, errw io.Writer) permission.ApprovalFunc {
	if in == nil || !in.terminal {
		return nil
	}
	var (
		mu      sync.Mutex
		allowed = map[string]bool{} // the patterns answered with a
	)
	return func(ctx context.Context, req permission.ApprovalRequest) (permission.Decision, error) {
		key, rule := callPattern(req.Call)
		mu.Lock()
		ok := allowed[key]
		mu.Unlock()
		if ok {
			return permission.Allow, nil
		}
		end, ok := in.question(ctx)
		if !ok {
			return permission.Deny, ctx.Err()
		}
		defer end()
		hidden := writeApproval(errw, req, false, screenOf(errw))
		for {
			line, ok := in.answer(ctx)
			if !ok {
				return permission.Deny, ctx.Err()
			}
			switch strings.ToLower(strings.TrimSpace(line)) {
			case "y", "yes":
				return permission.Allow, nil
			case "a", "always":
				mu.Lock()
				allowed[key] = true
				mu.Unlock()
				fmt.Fprintf(errw, "allowed for the rest of this session: %s\n", termtext.Line(rule))
				return permission.Allow, nil
			case "v", "view":
				if hidden {
					writeApproval(errw, req, true, screenOf(errw))
					continue
				}
			}
			return permission.Deny, nil
		}
	}
}

// callPattern returns the pattern of call that an "a" answer allows: the
// tool with exactly this input. key compares patterns; rule shows the
// pattern as a permissions.json rule, which would allow it for good.
func callPattern(call permission.Call) (key, rule string) {
	var input map[string]json.RawMessage
	if err := json.Unmarshal(rawOrEmpty(call.Input), &input); err != nil || input == nil {
		input = map[string]json.RawMessage{}
	}
	when := map[string]map[string]json.RawMessage{}
	canon := map[string]string{}
	for k, v := range input {
		// The key compares the value as the model wrote it, compacted:
		// decoded, 9007199254740993 would be 9007199254740992 and the
		// lone surrogates "\ud800" and "\udbff" both U+FFFD, and a
		// program in another language may read them apart.
		var exact bytes.Buffer
		if json.Compact(&exact, v) != nil {
			exact.Reset()
			exact.Write(v)
		}
		canon[k] = exact.String()
		var x any
		dec := json.NewDecoder(bytes.NewReader(v))
		dec.UseNumber()
		dec.Decode(&x)
		c, _ := json.Marshal(x) // compact, object keys sorted
		when[k] = map[string]json.RawMessage{"equals": c}
	}
	k, _ := json.Marshal(canon)
	r := map[string]any{"tool": call.Name, "effect": "allow"}
	if len(when) > 0 {
		r["when"] = when
	}
	rb, _ := json.Marshal(r)
	return call.Name + "\x00" + string(k), string(rb)
}

// terminalAsker answers the model's ask_user questions from in when it is
// a terminal; nil otherwise, and the model is offered no ask_user.
func terminalAsker(in *lineReader, errw io.Writer) liteagent.AskUserFunc {
	if in == nil || !in.terminal {
		return nil
	}
	return func(ctx context.Context, q liteagent.Question) (liteagent.Answer, error) {
		end, ok := in.question(ctx)
		if !ok {
			return liteagent.Answer{}, ctx.Err()
		}
		defer end()
		fmt.Fprintf(errw, "? %s\n", termtext.Line(q.Text))
		for i, o := range q.Options {
			fmt.Fprintf(errw, "  %d) %s\n", i+1, termtext.Line(o))
		}
		switch {
		case len(q.Options) > 0 && q.MultiSelect:
			fmt.Fprint(errw, "numbers separated by commas, or an answer: ")
		case len(q.Options) > 0:
			fmt.Fprint(errw, "a number, or an answer: ")
		default:
			fmt.Fprint(errw, "answer: ")
		}
		line, ok := in.answer(ctx)
		if !ok {
			if err := ctx.Err(); err != nil {
				return liteagent.Answer{}, err
			}
			return liteagent.Answer{}, errors.New("no input to answer from")
		}
		return parseAnswer(line, q), nil
	}
}

// parseAnswer reads line as the numbers of q's options (one unless
// MultiSelect) when it is exactly that, else as a free answer.
func parseAnswer(line string, q liteagent.Question) liteagent.Answer {
	line = strings.TrimSpace(line)
	if len(q.Options) > 0 && line != "" {
		fields := strings.Split(line, ",")
		if len(fields) == 1 || q.MultiSelect {
			var sel []string
			for _, f := range fields {
				n, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil || n < 1 || n > len(q.Options) {
					sel = nil
					break
				}
				sel = append(sel, q.Options[n-1])
			}
			if sel != nil {
				return liteagent.Answer{Selected: sel}
			}
		}
	}
	return liteagent.Answer{Text: line}
}

// lineReader reads lines from the command's input for chat's prompts and
// for questions (approvals, ask_user), which may come from background
// turns while chat waits for a prompt. One goroutine, started at the first
// read, scans the input; each line goes to a waiting question first, else
// to chat, so that no two readers ever share the scanner and a question's
// answer never becomes a prompt.
type lineReader struct {
	r        io.Reader
	terminal bool
	// ask holds a token while a question runs, from its prompt to its
	// answer, so that two questions never take each other's lines.
	ask chan struct{}

	start   sync.Once
	chat    chan string   // lines for chat
	answers chan string   // lines for a question
	done    chan struct{} // closed at the end of input; err is set then
	err     error
}

func newLineReader(r io.Reader) *lineReader {
	lr := &lineReader{r: r, ask: make(chan struct{}, 1), chat: make(chan string), answers: make(chan string), done: make(chan struct{})}
	lr.terminal = inputIsTerminal(r)
	return lr
}

// scan hands each line to a question waiting for one, else to whoever
// reads first.
func (l *lineReader) scan() {
	sc := bufio.NewScanner(l.r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		select {
		case l.answers <- line:
			continue
		default:
		}
		select {
		case l.answers <- line:
		case l.chat <- line:
		}
	}
	l.err = sc.Err()
	close(l.done)
}

// lines returns the channels readLine reads: chat's lines, and one closed
// at the end of input.
func (l *lineReader) lines() (<-chan string, <-chan struct{}) {
	l.start.Do(func() { go l.scan() })
	return l.chat, l.done
}

// readLine returns chat's next line; false at the end of input.
func (l *lineReader) readLine() (string, bool) {
	l.start.Do(func() { go l.scan() })
	select {
	case s := <-l.chat:
		return s, true
	case <-l.done:
		return "", false
	}
}

// answer returns a question's answer line; false at the end of input or
// when ctx is done.
func (l *lineReader) answer(ctx context.Context) (string, bool) {
	l.start.Do(func() { go l.scan() })
	select {
	case s := <-l.answers:
		return s, true
	case <-l.done:
	case <-ctx.Done():
	}
	return "", false
}

// question waits for its turn to ask (false when ctx ends first) and
// returns what ends it.
func (l *lineReader) question(ctx context.Context) (func(), bool) {
	select {
	case l.ask <- struct{}{}:
		return func() { <-l.ask }, true
	case <-ctx.Done():
		return nil, false
	}
}

// Err returns the error that ended the input, if any, once it ended.
func (l *lineReader) Err() error {
	select {
	case <-l.done:
		return l.err
	default:
		return nil
	}
}

// inputIsTerminal reports whether r is a terminal. A character device that is
// not one, such as /dev/null, is not.
func inputIsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newAgent builds the agent the flags describe and selects its session.
// Approval questions are read from in when it is a terminal.
func newAgent(ctx context.Context, g *globalFlags, f *agentFlags, in *lineReader, errw io.Writer) (*liteagent.Agent, error) {
	if f.flags != nil && f.flags.Changed("model") && strings.TrimSpace(f.model) == "" {
		// Most likely an unset variable ("--model $MODEL"): running the
		// default model instead would hide it.
		return nil, usagef("--model must not be empty: give a model id, or leave the flag out for the provider's default")
	}
	if n := countTrue(f.resume != "", f.cont, f.newID != ""); n > 1 {
		return nil, usagef("--resume, --continue and --session-id are mutually exclusive")
	}
	for _, id := range []struct{ flag, id string }{{"--resume", f.resume}, {"--session-id", f.newID}} {
		if id.id != "" {
			if err := storage.ValidateID(id.id); err != nil {
				return nil, invalidID(id.flag, id.id, err)
			}
		}
	}
	if f.maxTurns < 0 {
		return nil, usagef("--max-turns must not be negative")
	}
	if f.window < 0 {
		return nil, usagef("--context-window must not be negative")
	}
	if f.sandbox != sandboxAuto && f.sandbox != sandboxBwrap && f.sandbox != sandboxOff {
		return nil, usagef("--sandbox must be auto, bwrap or off, not %q", f.sandbox)
	}
	p, err := g.project()
	if err != nil {
		return nil, err
	}
	st, err := g.openStore(ctx)
	if err != nil {
		return nil, err
	}
	if st == nil {
		// Before anything is written or a model called: the stores
		// would find such a file only at their first write, after the
		// session's first record or a model call.
		if err := p.checkLayoutDirs(p.paths.SessionsDir, p.paths.TasksDir, p.paths.SpillDir); err != nil {
			return nil, err
		}
	}
	if f.resume != "" || f.newID != "" {
		// Checked before the agent exists, which creates the store.
		id := cmpOr(f.resume, f.newID)
		ok, err := sessionExists(p, id)
		if st != nil {
			ok, err = storeSessionExists(ctx, st, p, id)
		}
		switch {
		case err != nil:
			return nil, err
		case f.resume != "" && !ok:
			if st == nil {
				if err := beingDeleted(p, id); err != nil {
					return nil, err
				}
			}
			return nil, &noSessionError{ID: id}
		case f.newID != "" && ok:
			return nil, fmt.Errorf("session %s already exists; continue it with --resume %s", id, id)
		case f.newID != "" && st == nil:
			// The id of a session being deleted is not free: the file
			// store refuses its first append, and what is left of the
			// old session must go first.
			if err := beingDeleted(p, id); err != nil {
				return nil, err
			}
		}
		if f.resume != "" && st == nil {
			if err := p.checkSessionDirs(f.resume); err != nil {
				return nil, err
			}
			if err := keepFromSweep(p, f.resume); err != nil {
				return nil, err
			}
		}
	}
	sessionChecked := false // checkSessionDirs ran for the session continued
	if f.cont && st == nil {
		// The session --continue picks, kept from the sweep like a
		// resumed one; being then the most recently changed, it is still
		// the one picked after the sweep.
		cp, err := p.checkpointer()
		if err != nil {
			return nil, err
		}
		if cp != nil {
			id, err := latestSession(ctx, cp.List)
			if err != nil {
				return nil, err
			}
			if id != "" {
				sessionChecked = true
				if err := p.checkSessionDirs(id); err != nil {
					return nil, err
				}
				if err := keepFromSweep(p, id); err != nil {
					return nil, err
				}
			}
		}
	}
	if st == nil && f.resume == "" && !sessionChecked {
		if err := p.checkSessionDirs(""); err != nil {
			return nil, err
		}
	}
	policy, err := f.policy(p)
	if err != nil {
		return nil, err
	}
	provider, name, err := buildProvider(f)
	if err != nil {
		return nil, err
	}
	sb, err := f.buildSandbox(ctx, p, errw)
	if err != nil {
		return nil, err
	}
	opts := liteagent.Options{
		Model:         provider,
		ModelName:     name,
		Workdir:       p.paths.Workdir(),
		Storage:       p.opts,
		MaxTurns:      f.maxTurns,
		ContextWindow: f.window,
		Permission:    policy,
		OnApproval:    terminalApprover(in, errw),
		OnAskUser:     terminalAsker(in, errw),
		Sandbox:       sb,
		SecretEnv:     p.secretEnv,
	}
	if e := f.audit.KeyEnv(); e != "" {
		opts.SecretEnv = slices.Concat(p.secretEnv, []string{e}) // the audit log's key
	}
	opts.CompactSummary = true // sessions compact and chat's /compact summarize with the model
	if f.warn {
		opts.Logger = slog.New(slog.NewTextHandler(errw, &slog.HandlerOptions{Level: slog.LevelWarn,
			ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
				if len(groups) == 0 && a.Key == slog.TimeKey {
					return slog.Attr{} // a terminal line, not a log record
				}
				return a
			}}))
	}
	if st != nil {
		opts.Store = st
	}
	otel, err := otelenv.FromEnv(ctx, os.Getenv, errw)
	if err != nil {
		return nil, err
	}
	if otel != nil {
		opts.Telemetry = otel.Options()
		g.opened = append(g.opened, otel) // flushed by closeStores, after the agent's Close
	}
	if err := f.cleanup.apply(&opts, errw); err != nil {
		return nil, err
	}
	a, err := liteagent.New(ctx, opts)
	if err != nil {
		return nil, err
	}
	// New loaded the same files: only the warnings are new here.
	if cfg, err := mcphost.LoadConfigContext(ctx, mcphost.LoadOptions{Paths: p.paths}); err == nil {
		warnSkippedMCP(errw, cfg)
	}
	switch {
	case f.resume != "":
		// Checked again, and held until the first turn loads the log: a
		// delete of the session meanwhile (sessions delete in another
		// process) makes this run fail instead of starting it over.
		err = a.ResumeStored(ctx, f.resume)
	case f.newID != "":
		// Checked again, and held until the session's first record: a
		// fork to the id, or another run starting it, that writes its
		// log first makes this run fail instead of continuing it.
		err = a.StartSession(ctx, f.newID)
	case f.cont:
		var id string
		if id, err = latestSession(ctx, a.ListSessions); err == nil && id != "" {
			err = a.ResumeStored(ctx, id)
		}
	}
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, f.audit.Attach(a, errw)
}

// A noSessionError reports a session id that names no stored session of
// the project.
type noSessionError struct {
	ID string
}

func (e *noSessionError) Error() string { return "no session " + e.ID }

// sessionExists reports whether the project stores a log for session id.
// It creates nothing.
func sessionExists(p project, id string) (bool, error) {
	return exists(filepath.Join(p.paths.SessionsDir, id+session.LogSuffix))
}

// beingDeleted returns a *session.DeletingError when the log of session
// id, which has none, was set aside by a delete that did not finish
// (<id>.jsonl.deleting): such a session is not missing, its data is half
// removed, and the error says how to finish the delete. It returns nil
// otherwise.
func beingDeleted(p project, id string) error {
	name := filepath.Join(p.paths.SessionsDir, session.DeletingName(id))
	st, err := os.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	}
	return &session.DeletingError{SessionID: id, File: name, Type: st.Mode().Type()}
}

// countTrue returns how many of bs are true.
func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// latestSession returns the most recently changed session of the project
// that is not a subagent's, or "" when there is none.
func latestSession(ctx context.Context, list func(context.Context) ([]session.Info, error)) (string, error) {
	infos, err := list(ctx)
	if err != nil {
		return "", err
	}
	for _, in := range infos {
		if !strings.HasPrefix(in.ID, "agent-") {
			return in.ID, nil
		}
	}
	return "", nil
}

// buildProvider returns the model provider and model id the flags select.
// A missing API key is reported here, in one line naming the variable.
func buildProvider(f *agentFlags) (model.Provider, string, error) {
	if f.baseURL != "" {
		if u, err := url.Parse(f.baseURL); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
			return nil, "", usagef("invalid --base-url %q: want an absolute http:// or https:// URL, such as http://localhost:8080/v1", f.baseURL)
		}
	}
	switch f.provider {
	case providerAnthropic:
		p := anthropic.New(anthropic.Options{BaseURL: f.baseURL})
		if err := p.CheckKey(); err != nil {
			if errors.Is(err, anthropic.ErrNoAPIKey) {
				return nil, "", errors.New("no Anthropic API key: set ANTHROPIC_API_KEY (or use --provider openai --base-url for a local server)")
			}
			return nil, "", err
		}
		if f.count {
			return p.WithTokenCounting(), cmpOr(f.model, "claude-sonnet-4-5"), nil
		}
		return p, cmpOr(f.model, "claude-sonnet-4-5"), nil
	case providerOpenAI:
		if f.count {
			return nil, "", usagef("--count-tokens needs --provider anthropic")
		}
		return buildOpenAI(f)
	}
	return nil, "", usagef("invalid --provider %q: want anthropic or openai", f.provider)
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func newRunCommand(g *globalFlags) *cobra.Command {
	f := &agentFlags{}
	var output string
	cmd := &cobra.Command{
		Use:   "run PROMPT | run -",
		Short: "Run one prompt: the answer streams to stdout, tool activity to stderr",
		Long: "run sends one prompt to the agent and prints its answer. With \"-\" the prompt is read\n" +
			"from standard input. --output json prints one JSON object at the end, --output\n" +
			"stream-json one JSON event per line as the run goes (see the README for the fields).\n" +
			"An interrupt (Ctrl-C) stops the run and exits 130.",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 || strings.TrimSpace(args[0]) == "" {
				return usagef("run takes one prompt, or - to read it from standard input")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			switch output {
			case outputText, outputJSON, outputStreamJSON:
			default:
				return usagef("invalid --output %q: want %s, %s or %s", output, outputText, outputJSON, outputStreamJSON)
			}
			var out *jsonOutput
			if output != outputText {
				out = &jsonOutput{w: cmd.OutOrStdout(), stream: output == outputStreamJSON}
			}
			id, err := runPrompt(cmd, g, f, args[0], out)
			var ue *usageError
			if out != nil && !errors.As(err, &ue) {
				// One result object on every outcome but a usage error
				// (exit 2, its line on stderr), the agent started or not.
				ferr := err
				if g.intr.Interrupted() {
					ferr = errInterrupted
				}
				out.finish(id, ferr)
			}
			if id != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "session %s\n", id)
			}
			return err
		},
	}
	f.register(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", outputText, "output `format`: text, json (one object at the end) or stream-json (one event per line)")
	return cmd
}

// runPrompt runs run's prompt (args[0] of cmd: "-" reads it from standard
// input) and waits for the background work it started, its events going
// to out when set (--output json or stream-json). It returns the id of the
// session, "" when the agent did not start, and why the run failed.
func runPrompt(cmd *cobra.Command, g *globalFlags, f *agentFlags, prompt string, out *jsonOutput) (string, error) {
	in := newLineReader(cmd.InOrStdin())
	if prompt == "-" {
		var err error
		if prompt, err = readPrompt(cmd.InOrStdin()); err != nil {
			return "", err
		}
		in = nil // standard input is spent: nobody is there to approve
	}
	defer g.closeStores() // after the agent's Close
	a, err := newAgent(cmd.Context(), g, f, in, cmd.ErrOrStderr())
	if err != nil {
		return "", err
	}
	defer a.Close()
	p := &printer{out: cmd.OutOrStdout(), errw: cmd.ErrOrStderr(), paths: a.Paths(), asks: in != nil && in.terminal, json: out}
	unsubscribe, err := p.showBackground(a)
	if err != nil {
		return a.SessionID(), err
	}
	defer unsubscribe()
	err = turn(cmd.Context(), a, prompt, p)
	if err == nil {
		err = awaitBackground(cmd.Context(), a, p)
	}
	return a.SessionID(), err
}

// maxPromptBytes bounds a prompt read from standard input.
const maxPromptBytes = 8 << 20

// readPrompt reads run's prompt from r, to its end.
func readPrompt(r io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxPromptBytes+1))
	if err != nil {
		return "", fmt.Errorf("read the prompt from standard input: %w", err)
	}
	if len(b) > maxPromptBytes {
		return "", usagef("the prompt on standard input is over %d bytes", maxPromptBytes)
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", usagef("run -: standard input holds no prompt")
	}
	return strings.TrimRight(string(b), "\n"), nil
}

func newChatCommand(g *globalFlags) *cobra.Command {
	f := &agentFlags{}
	var steerFlag bool
	cmd := &cobra.Command{
		Use:   "chat",
		Short: "Talk with the agent in one session; an empty line or EOF ends",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
			in := newLineReader(cmd.InOrStdin())
			defer g.closeStores() // after the agent's Close
			a, err := newAgent(cmd.Context(), g, f, in, errw)
			if err != nil {
				return err
			}
			defer a.Close()
			p := &printer{out: out, errw: errw, paths: a.Paths(), asks: in.terminal}
			unsubscribe, err := p.showBackground(a)
			if err != nil {
				return err
			}
			defer unsubscribe()
			// Steering reads lines while a prompt runs: on a terminal they
			// are the user's second thoughts; piped input is a script
			// of prompts, one after the other.
			steer := in.terminal
			if cmd.Flags().Changed("steer") {
				steer = steerFlag
			}
			hint := ""
			if steer {
				hint = "; type while the agent works to steer it"
			}
			fmt.Fprintf(errw, "session %s (empty line or Ctrl-D to quit%s)\n", a.SessionID(), hint)
			ctx := cmd.Context()
			var next []string // lines typed during a turn that it could not take
			for {
				var text string
				if len(next) > 0 {
					text, next = next[0], next[1:]
					fmt.Fprintf(errw, "> %s\n", text) // typed earlier: shown as it is sent
				} else {
					line, ok := readChatLine(ctx, in, p, g.intr)
					if !ok {
						break
					}
					text = line
				}
				line := strings.TrimSpace(text)
				if line == "" {
					break
				}
				if slash.IsCommand(line) {
					quit, err := slash.Run(slashCommands(), &slashEnv{ctx: ctx, a: a, in: in, p: p, intr: g.intr, out: out, errw: errw}, line)
					if err != nil {
						fmt.Fprintf(errw, "error: %s\n", termtext.Line(err.Error()))
					}
					if quit {
						break
					}
					continue
				}
				// Ctrl-C aborts this turn only; a second one while it
				// winds down ends chat at once.
				turnCtx, cancelTurn := context.WithCancel(ctx)
				var aborted atomic.Bool
				restore := g.intr.Handle(func() {
					if aborted.Swap(true) {
						g.intr.exitNow()
						return
					}
					cancelTurn()
				})
				var err error
				if steer {
					var more []string
					more, err = steeredTurn(turnCtx, a, line, in, p)
					next = append(next, more...)
				} else {
					err = turn(turnCtx, a, line, p)
				}
				restore()
				cancelTurn()
				switch {
				case ctx.Err() != nil:
					if err == nil {
						err = ctx.Err()
					}
					return err
				case aborted.Load():
					next = nil // what was typed for the aborted turn goes too
					p.note("(interrupted: the turn stopped; what it said so far is kept)")
				case err != nil:
					fmt.Fprintf(errw, "error: %s\n", termtext.Line(err.Error()))
				}
			}
			fmt.Fprintln(errw)
			if err := awaitBackground(cmd.Context(), a, p); err != nil {
				return err
			}
			return in.Err()
		},
	}
	cmd.Flags().BoolVar(&steerFlag, "steer", false, "send lines typed while the agent works to the running prompt (default: when standard input is a terminal)")
	f.register(cmd)
	return cmd
}

// readChatLine shows chat's marker and reads the next line. An interrupt
// at the marker shows how to leave, and a second one in a row leaves;
// false means leave (that, or the end of input).
func readChatLine(ctx context.Context, in *lineReader, p *printer, intr *interrupter) (string, bool) {
	interrupts := make(chan struct{}, 1)
	restore := intr.Handle(func() {
		select {
		case interrupts <- struct{}{}:
		default:
		}
	})
	defer restore()
	lines, eof := in.lines()
	p.showPrompt()
	defer p.leavePrompt()
	warned := false
	for {
		select {
		case line := <-lines:
			return line, true
		case <-eof:
			return "", false
		case <-ctx.Done():
			return "", false
		case <-interrupts:
			if warned {
				return "", false
			}
			warned = true
			p.note("\n(press Ctrl-C again, Ctrl-D or an empty line to quit)")
			p.showPrompt()
		}
	}
}

// turn runs one prompt, writing its events with p.
func turn(ctx context.Context, a *liteagent.Agent, prompt string, p *printer) error {
	for ev, err := range a.Run(ctx, prompt) {
		if err != nil {
			p.endText()
			return err
		}
		p.event(ev)
	}
	return nil
}

// steeredTurn runs one prompt like turn, while lines typed meanwhile
// steer it (Agent.Steer). It returns the lines the prompt could not take
// (it was at its last call or had ended), in order, for chat to send next.
func steeredTurn(ctx context.Context, a *liteagent.Agent, prompt string, in *lineReader, p *printer) ([]string, error) {
	done := make(chan error, 1)
	go func() { done <- turn(ctx, a, prompt, p) }()
	var (
		left    []string
		steered bool
	)
	lines, eof := in.lines()
	for {
		select {
		case err := <-done:
			if err != nil && steered {
				p.note("(the prompt failed: what you typed during it may not have been read)")
			}
			return left, err
		case line := <-lines:
			// An empty line or /exit ends chat after this prompt, and so
			// does whatever follows it: lines keep their order.
			// A command waits for the prompt's end too; it never steers.
			end := slash.EndsChat(line)
			switch {
			case len(left) == 0 && !end && !slash.IsCommand(strings.TrimSpace(line)) && a.Steer(line) == nil:
				steered = true
				p.note("(steering: the agent reads that next)")
			default:
				if !end && len(left) == 0 {
					p.note("(that will be the next prompt)")
				}
				left = append(left, line)
			}
		case <-eof:
			lines, eof = nil, nil // nothing more to read; the turn goes on
		}
	}
}

// awaitBackground waits for the subagent groups the session's prompts
// started and for the turns that deliver their results, which p shows: a
// command that closed the agent first would cancel them. Background
// commands are not waited for; closing the agent kills them.
func awaitBackground(ctx context.Context, a *liteagent.Agent, p *printer) error {
	err := a.AwaitIdle(ctx)
	p.endText()
	return err
}

// printer writes run events: answer text to out, tool activity to errw.
// Autonomous turns print through it from their own goroutines, so it
// serializes its writes.
type printer struct {
	mu        sync.Mutex
	out, errw io.Writer
	json      *jsonOutput          // set: events go to it instead, as JSON
	paths     storage.ProjectPaths // where the permission files are, for hints
	wroteText bool                 // a line of answer text is open
	asks      bool                 // approvals are asked on the terminal
	hinted    bool                 // the hint about a denial was shown
	atPrompt  bool                 // chat shows its input marker and waits for a line
	reprompt  bool                 // background output moved off the marker: show it again after
	// lowered maps a session to the max_tokens wanted that its last
	// "max_tokens lowered" line was about: the line is said once per
	// session, and again when that changes, not at every model call.
	lowered map[string]int
}

// showPrompt shows chat's input marker.
func (p *printer) showPrompt() {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.errw, "> ")
	p.atPrompt = true
}

// leavePrompt records that chat read a line.
func (p *printer) leavePrompt() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.atPrompt, p.reprompt = false, false
}

// showBackground makes p print the autonomous turns that deliver the
// results of background work (subagent groups, background commands) to the
// agent's sessions; the returned function stops it.
func (p *printer) showBackground(a *liteagent.Agent) (func(), error) {
	return a.Subscribe(func(n liteagent.Notice) {
		if n.Source != hook.SourceBackground {
			return
		}
		if p.json != nil {
			p.json.event(n.Event)
			return
		}
		switch n.Event.Type {
		case liteagent.EventBackgroundCompleted:
			p.mu.Lock()
			if p.atPrompt { // off chat's marker, which comes back after
				fmt.Fprintln(p.errw)
				p.atPrompt, p.reprompt = false, true
			}
			p.endTextLocked()
			fmt.Fprintln(p.errw, "background work finished; the agent continues")
			p.mu.Unlock()
		case liteagent.EventError:
			p.mu.Lock()
			p.endTextLocked()
			fmt.Fprintf(p.errw, "background turn failed: %s\n", termtext.Line(n.Event.Err.Error()))
			p.backToPromptLocked()
			p.mu.Unlock()
		case liteagent.EventDone:
			p.event(n.Event)
			p.mu.Lock()
			p.endTextLocked()
			p.backToPromptLocked()
			p.mu.Unlock()
		default:
			p.event(n.Event)
		}
	})
}

// backToPromptLocked shows chat's marker again if background output
// moved off it.
func (p *printer) backToPromptLocked() {
	if p.reprompt {
		fmt.Fprint(p.errw, "> ")
		p.atPrompt, p.reprompt = true, false
	}
}

// note writes a line of the CLI's own to errw; answer text on out is left
// as it is.
func (p *printer) note(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.errw, s)
}

// endText ends an open line of answer text.
func (p *printer) endText() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endTextLocked()
}

func (p *printer) endTextLocked() {
	if p.wroteText {
		fmt.Fprintln(p.out)
		p.wroteText = false
	}
}

// event writes one event.
func (p *printer) event(ev liteagent.Event) {
	if ev.Type == liteagent.EventPermission && denied(ev) {
		p.hint(ev)
	}
	if p.json != nil {
		p.json.event(ev)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev.Type {
	case liteagent.EventTextDelta:
		// The answer keeps its own lines; whatever else could drive the
		// terminal or reorder what it shows is escaped.
		fmt.Fprint(p.out, termtext.Prose(ev.Text))
		p.wroteText = true
	case liteagent.EventMessage:
		p.endTextLocked()
	case liteagent.EventToolCallStart:
		if ev.Tool != nil && ev.Tool.Call != nil {
			fmt.Fprintf(p.errw, "→ %s %s\n", termtext.Line(ev.Tool.Call.Name), clipLine(string(ev.Tool.Call.Input)))
		}
	case liteagent.EventToolResult:
		if ev.Tool == nil || ev.Tool.Result == nil {
			break
		}
		mark := "←"
		if ev.Tool.Result.IsError {
			mark = "← error:"
		}
		fmt.Fprintf(p.errw, "%s %s\n", mark, clipLine(ev.Tool.Result.Content))
	case liteagent.EventPermission:
		if denied(ev) && ev.Tool != nil && ev.Tool.Call != nil {
			fmt.Fprintf(p.errw, "denied %s (%s)\n", termtext.Line(ev.Tool.Call.Name), termtext.Line(cmpOr(ev.Permission.Reason, "by "+string(ev.Permission.By))))
		}
	case liteagent.EventRetry:
		if ev.Retry != nil {
			p.endTextLocked()
			fmt.Fprintf(p.errw, "retry %d in %s: %s\n", ev.Retry.Attempt, waitText(ev.Retry.Wait), termtext.Line(ev.Retry.Reason))
		}
	case liteagent.EventTaskUpdate:
		if ev.Task != nil {
			fmt.Fprintf(p.errw, "task #%s %s\n", termtext.Line(ev.Task.ID), termtext.Line(string(ev.Task.Status)))
		}
	case liteagent.EventContextStatus:
		c := ev.Context
		switch {
		case c.AfterTokens >= c.BeforeTokens: // nothing was compacted
		case c.Counted:
			fmt.Fprintf(p.errw, "context: level %d, %d → about %d tokens (counted by the provider, then estimated)\n", c.Level, c.BeforeTokens, c.AfterTokens)
		default:
			fmt.Fprintf(p.errw, "context: level %d, about %d → %d tokens (estimated)\n", c.Level, c.BeforeTokens, c.AfterTokens)
		}
	case liteagent.EventModelCallStart:
		if m := ev.ModelCall; m != nil && m.MaxTokensFrom > 0 && p.lowered[ev.SessionID] != m.MaxTokensFrom {
			if p.lowered == nil {
				p.lowered = make(map[string]int)
			}
			p.lowered[ev.SessionID] = m.MaxTokensFrom
			input := fmt.Sprintf("about %d input tokens (estimated)", m.InputTokens)
			if m.InputCounted {
				input = fmt.Sprintf("%d input tokens (counted by the provider)", m.InputTokens)
			}
			p.endTextLocked()
			fmt.Fprintf(p.errw, "max_tokens lowered from %d to %d to fit the context window beside %s\n", m.MaxTokensFrom, m.MaxTokens, input)
		}
	case liteagent.EventDone:
		if ev.Result.StopReason != liteagent.StopDone {
			fmt.Fprintf(p.errw, "stopped: %s\n", termtext.Line(string(ev.Result.StopReason)))
		}
	}
}

// denied reports whether ev is a permission decision that denied its call.
func denied(ev liteagent.Event) bool {
	return ev.Permission != nil && ev.Permission.Decision == liteagent.DecisionDeny
}

// hint writes, once per run, how the call a denial refused could be
// allowed: the --allow flag, or the rule that denied it.
func (p *printer) hint(ev liteagent.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hinted || ev.Tool == nil || ev.Tool.Call == nil || ev.Permission == nil {
		return
	}
	call, pe := ev.Tool.Call, ev.Permission
	name := call.Name
	var text string
	switch {
	case pe.By == liteagent.ByAuto && p.asks:
		return // the question was cancelled: the user knows
	case pe.By == liteagent.ByAuto && p.opaque(call):
		text = fmt.Sprintf("%s: the line cannot be fully analyzed, so no --allow flag or rule allows it; only an approval on a terminal can run it", name)
	case pe.By == liteagent.ByAuto && projectConfigured(call):
		// --allow hook and --allow mcp_connect grant the user's own hooks
		// and servers only (ownConfigOnly): naming the flag would send
		// the user round in a circle.
		_, rule := callPattern(permission.Call{Name: name, Input: call.Input})
		text = fmt.Sprintf("%s of the project directory needs approval, and only a terminal can give it; --allow %s covers only your own, so to allow it add %s to %s",
			name, name, rule, filepath.Join(p.paths.Home, permission.FileName))
	case pe.By == liteagent.ByAuto:
		_, rule := callPattern(permission.Call{Name: name, Input: call.Input})
		text = fmt.Sprintf("%s needs approval, and only a terminal can give it; to allow it, pass --allow %s, or add %s to %s",
			name, name, rule, filepath.Join(p.paths.Home, permission.FileName))
	case pe.By != liteagent.ByPolicy || pe.RuleID == "" || pe.RuleID == permission.LayerSelfProtection:
		return // the user said no, or nothing can allow it
	case strings.HasPrefix(pe.RuleID, "--deny "):
		text = fmt.Sprintf("%s was denied by %s; leave it out to allow %s", name, pe.RuleID, name)
	default:
		file := ""
		switch layer, _, _ := strings.Cut(pe.RuleID, ":"); layer {
		case permission.LayerUser:
			file = " in " + filepath.Join(p.paths.Home, permission.FileName)
		case permission.LayerProject:
			file = " in " + filepath.Join(p.paths.ProjectConfigDir, permission.FileName)
		}
		text = fmt.Sprintf("%s was denied by the rule %s%s; --allow cannot override a rule, change the rule to allow it", name, pe.RuleID, file)
	}
	p.hinted = true
	p.endTextLocked()
	fmt.Fprintf(p.errw, "hint: %s\n", termtext.Line(text))
}

// projectConfigured reports whether call runs a hook or connects an MCP
// server that the project directory configured (its input's source is
// "project"), which --allow does not grant (see ownConfigOnly).
func projectConfigured(call *model.Block) bool {
	if !slices.Contains(configPermissions, call.Name) {
		return false
	}
	var in struct {
		Source string `json:"source"`
	}
	return json.Unmarshal(call.Input, &in) == nil && in.Source == permission.SourceProject
}

// opaque reports whether call is a bash line that the gate's analysis
// does not fully understand, which it never lets a flag or rule allow.
func (p *printer) opaque(call *model.Block) bool {
	if call.Name != "bash" {
		return false
	}
	allow := permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
		return permission.Verdict{Decision: permission.Allow}, nil
	})
	gate := permission.NewGate(permission.GateOptions{Policy: allow, Workdir: p.paths.Workdir(), Protected: p.paths.ProtectedPaths(),
		BashEnv: os.Environ})
	v, err := gate.Decide(context.Background(), permission.Call{Name: call.Name, Input: call.Input})
	return err == nil && v.RuleID == permission.RuleBashAnalysis
}

// clipLine returns s clipped to one line (clip) with every character that
// is not printable escaped (termtext.Line), for text that the model or a tool
// wrote.
func clipLine(s string) string { return termtext.Line(clip(s)) }

// workdirOf returns the project directory of p, absolute and clean.
func workdirOf(p project) string { return p.paths.Workdir() }
