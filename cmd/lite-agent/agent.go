package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/hook"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/spf13/cobra"
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
	cont     bool
	maxTurns int
	window   int
	count    bool
	allow    []string
	deny     []string
}

func (f *agentFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.provider, "provider", providerAnthropic, "model `provider`: anthropic or openai (OpenAI-compatible servers)")
	fs.StringVar(&f.model, "model", "", "model id (default: claude-sonnet-4-5 for anthropic, gpt-4.1-mini for openai)")
	fs.StringVar(&f.baseURL, "base-url", "", "API endpoint `URL` (default: ANTHROPIC_BASE_URL / OPENAI_BASE_URL, else the provider's)")
	fs.StringVar(&f.resume, "resume", "", "continue the session `ID`")
	fs.BoolVar(&f.cont, "continue", false, "continue the most recent session of this project")
	fs.IntVar(&f.maxTurns, "max-turns", 0, "bound the model calls of one prompt (default 50)")
	fs.IntVar(&f.window, "context-window", 0, "the model's context window in `tokens`, within which history is compacted (default: the model's if known, else 32000)")
	fs.BoolVar(&f.count, "count-tokens", false, "scale the size estimates of large requests to Anthropic's token count (one more API call each)")
	fs.StringArrayVar(&f.allow, "allow", nil, "allow the tools matching `GLOB` without asking (repeatable), such as bash or 'mcp__*'")
	fs.StringArrayVar(&f.deny, "deny", nil, "deny the tools matching `GLOB` (repeatable); deny wins over allow")
}

// defaultAsk lists what the default policy asks about.
var defaultAsk = []string{"bash", "write_file", "edit_file", "delete_file", "hook", "mcp_connect", "mcp__*"}

// policy returns the permission policy of a command: the flags' policy
// (see flagPolicy) composed with the permission files of the project and
// the data home, which can only make it more restrictive.
func (f *agentFlags) policy(p project) (permission.Policy, error) {
	fp, err := f.flagPolicy()
	if err != nil {
		return nil, err
	}
	files, err := permission.NewFilePolicy(permission.FileOptions{
		Workdir: filepath.Dir(p.paths.ProjectConfigDir),
		Storage: storage.Options{Namespace: p.paths.Namespace, Home: p.paths.Home},
		Default: permission.Allow,
	})
	if err != nil {
		return nil, err
	}
	return permission.Compose(fp, files), nil
}

// flagPolicy returns the permission policy of the flags: deny what --deny
// names, allow what --allow names, ask about the rest of the default
// policy's list, allow everything else.
func (f *agentFlags) flagPolicy() (permission.Policy, error) {
	var ask []string
	for _, name := range defaultAsk {
		if !slices.Contains(f.allow, name) {
			ask = append(ask, name)
		}
	}
	p, err := permission.New(permission.Options{Allow: f.allow, Ask: ask, Deny: f.deny, Default: permission.Allow})
	if err != nil {
		return nil, usagef("invalid --allow or --deny: %w", err)
	}
	// --allow hook and --allow mcp_connect grant the user's and the host's
	// own hooks and servers, not a cloned repository's.
	own, err := ownConfigOnly(f.allow)
	if err != nil || own == nil {
		return p, err
	}
	return permission.Compose(p, own), nil
}

// terminalApprover asks on the terminal about each call the policy asks
// about, reading the answer from in. It returns nil (deny every ask) when
// in is not a terminal, so that scripts never block on a prompt.
func terminalApprover(in *lineReader, errw io.Writer) permission.ApprovalFunc {
	if in == nil || !in.terminal {
		return nil
	}
	return func(ctx context.Context, req permission.ApprovalRequest) (permission.Decision, error) {
		end, ok := in.question(ctx)
		if !ok {
			return permission.Deny, ctx.Err()
		}
		defer end()
		fmt.Fprintf(errw, "allow %s %s? [y/N] ", req.Call.Name, clip(string(req.Call.Input)))
		line, ok := in.answer(ctx)
		if ok && (strings.EqualFold(strings.TrimSpace(line), "y") || strings.EqualFold(strings.TrimSpace(line), "yes")) {
			return permission.Allow, nil
		}
		return permission.Deny, nil
	}
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
		fmt.Fprintf(errw, "? %s\n", oneLine(q.Text))
		for i, o := range q.Options {
			fmt.Fprintf(errw, "  %d) %s\n", i+1, oneLine(o))
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
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			lr.terminal = true
		}
	}
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

// newAgent builds the agent the flags describe and selects its session.
// Approval questions are read from in when it is a terminal.
func newAgent(ctx context.Context, g *globalFlags, f *agentFlags, in *lineReader, errw io.Writer) (*liteagent.Agent, error) {
	if f.resume != "" && f.cont {
		return nil, usagef("--resume and --continue are mutually exclusive")
	}
	if f.maxTurns < 0 {
		return nil, usagef("--max-turns must not be negative")
	}
	if f.window < 0 {
		return nil, usagef("--context-window must not be negative")
	}
	p, err := g.project()
	if err != nil {
		return nil, err
	}
	policy, err := f.policy(p)
	if err != nil {
		return nil, err
	}
	provider, name, err := buildProvider(f)
	if err != nil {
		return nil, err
	}
	a, err := liteagent.New(ctx, liteagent.Options{
		Model:         provider,
		ModelName:     name,
		Workdir:       filepath.Dir(p.paths.ProjectConfigDir),
		Storage:       p.opts,
		MaxTurns:      f.maxTurns,
		ContextWindow: f.window,
		Permission:    policy,
		OnApproval:    terminalApprover(in, errw),
		OnAskUser:     terminalAsker(in, errw),
	})
	if err != nil {
		return nil, err
	}
	switch {
	case f.resume != "":
		err = a.Resume(f.resume)
	case f.cont:
		var id string
		if id, err = latestSession(ctx, a); err == nil && id != "" {
			err = a.Resume(id)
		}
	}
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// latestSession returns the most recently changed session of the project
// that is not a subagent's, or "" when there is none.
func latestSession(ctx context.Context, a *liteagent.Agent) (string, error) {
	infos, err := a.ListSessions(ctx)
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
	cmd := &cobra.Command{
		Use:   "run PROMPT",
		Short: "Run one prompt: the answer streams to stdout, tool activity to stderr",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 || strings.TrimSpace(args[0]) == "" {
				return usagef("run takes one prompt")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := newAgent(cmd.Context(), g, f, newLineReader(cmd.InOrStdin()), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer a.Close()
			p := &printer{out: cmd.OutOrStdout(), errw: cmd.ErrOrStderr()}
			unsubscribe, err := p.showBackground(a)
			if err != nil {
				return err
			}
			defer unsubscribe()
			err = turn(cmd.Context(), a, args[0], p)
			if err == nil {
				err = awaitBackground(cmd.Context(), a, p)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "session %s\n", a.SessionID())
			return err
		},
	}
	f.register(cmd)
	return cmd
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
			a, err := newAgent(cmd.Context(), g, f, in, errw)
			if err != nil {
				return err
			}
			defer a.Close()
			p := &printer{out: out, errw: errw}
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
			var next []string // lines typed during a turn that it could not take
			for {
				var text string
				if len(next) > 0 {
					text, next = next[0], next[1:]
					fmt.Fprintf(errw, "> %s\n", text) // typed earlier: shown as it is sent
				} else {
					p.showPrompt()
					line, ok := in.readLine()
					p.leavePrompt()
					if !ok {
						break
					}
					text = line
				}
				line := strings.TrimSpace(text)
				if line == "" || line == "/exit" {
					break
				}
				var err error
				if steer {
					var more []string
					more, err = steeredTurn(cmd.Context(), a, line, in, p)
					next = append(next, more...)
				} else {
					err = turn(cmd.Context(), a, line, p)
				}
				if err != nil {
					if cmd.Context().Err() != nil {
						return err
					}
					fmt.Fprintf(errw, "error: %s\n", oneLine(err.Error()))
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
			end := strings.TrimSpace(line) == "" || strings.TrimSpace(line) == "/exit"
			switch {
			case len(left) == 0 && !end && a.Steer(line) == nil:
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
	wroteText bool // a line of answer text is open
	atPrompt  bool // chat shows its input marker and waits for a line
	reprompt  bool // background output moved off the marker: show it again after
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
		switch n.Event.Type {
		case engine.EventBackgroundCompleted:
			p.mu.Lock()
			if p.atPrompt { // off chat's marker, which comes back after
				fmt.Fprintln(p.errw)
				p.atPrompt, p.reprompt = false, true
			}
			p.endTextLocked()
			fmt.Fprintln(p.errw, "background work finished; the agent continues")
			p.mu.Unlock()
		case engine.EventError:
			p.mu.Lock()
			p.endTextLocked()
			fmt.Fprintf(p.errw, "background turn failed: %s\n", oneLine(n.Event.Err.Error()))
			p.backToPromptLocked()
			p.mu.Unlock()
		case engine.EventDone:
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
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev.Type {
	case engine.EventTextDelta:
		fmt.Fprint(p.out, ev.Text)
		p.wroteText = true
	case engine.EventMessage:
		p.endTextLocked()
	case engine.EventToolCallStart:
		fmt.Fprintf(p.errw, "→ %s %s\n", ev.Call.Name, clipJSON(ev.Call.Input))
	case engine.EventToolResult:
		mark := "←"
		if ev.Result.IsError {
			mark = "← error:"
		}
		fmt.Fprintf(p.errw, "%s %s\n", mark, clip(ev.Result.Content))
	case engine.EventPermission:
		if ev.Decision == "deny" {
			fmt.Fprintf(p.errw, "denied %s (%s)\n", ev.Call.Name, cmpOr(ev.Reason, "by "+ev.By))
		}
	case engine.EventRetry:
		p.endTextLocked()
		fmt.Fprintf(p.errw, "retry %d in %s: %s\n", ev.Attempt, waitText(ev.Wait), ev.Reason)
	case engine.EventTaskUpdate:
		fmt.Fprintf(p.errw, "task #%s %s\n", ev.TaskID, ev.Status)
	case engine.EventContextStatus:
		if ev.Context.AfterTokens < ev.Context.BeforeTokens { // something was compacted
			fmt.Fprintf(p.errw, "context: level %d, %d → %d tokens\n", ev.Context.Level, ev.Context.BeforeTokens, ev.Context.AfterTokens)
		}
	case engine.EventDone:
		if ev.Done.StopReason != engine.StopDone {
			fmt.Fprintf(p.errw, "stopped: %s\n", ev.Done.StopReason)
		}
	}
}

func clipJSON(raw json.RawMessage) string { return clip(string(raw)) }

// workdirOf returns the project directory of p, absolute and clean.
func workdirOf(p project) string { return filepath.Dir(p.paths.ProjectConfigDir) }
