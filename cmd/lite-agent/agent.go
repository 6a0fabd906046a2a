package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/anthropic"
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
}

func (f *agentFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.provider, "provider", providerAnthropic, "model `provider`: anthropic or openai (OpenAI-compatible servers)")
	fs.StringVar(&f.model, "model", "", "model id (default: claude-sonnet-4-5 for anthropic, gpt-4.1-mini for openai)")
	fs.StringVar(&f.baseURL, "base-url", "", "API endpoint `URL` (default: ANTHROPIC_BASE_URL / OPENAI_BASE_URL, else the provider's)")
	fs.StringVar(&f.resume, "resume", "", "continue the session `ID`")
	fs.BoolVar(&f.cont, "continue", false, "continue the most recent session of this project")
	fs.IntVar(&f.maxTurns, "max-turns", 0, "bound the model calls of one prompt (default 50)")
}

// newAgent builds the agent the flags describe and selects its session.
func newAgent(ctx context.Context, g *globalFlags, f *agentFlags) (*liteagent.Agent, error) {
	if f.resume != "" && f.cont {
		return nil, usagef("--resume and --continue are mutually exclusive")
	}
	if f.maxTurns < 0 {
		return nil, usagef("--max-turns must not be negative")
	}
	p, err := g.project()
	if err != nil {
		return nil, err
	}
	provider, name, err := buildProvider(f)
	if err != nil {
		return nil, err
	}
	a, err := liteagent.New(ctx, liteagent.Options{
		Model:     provider,
		ModelName: name,
		Workdir:   filepath.Dir(p.paths.ProjectConfigDir),
		Storage:   p.opts,
		MaxTurns:  f.maxTurns,
	})
	if err != nil {
		return nil, err
	}
	switch {
	case f.resume != "":
		err = a.Resume(f.resume)
	case f.cont:
		var sessions []sessionInfo
		if sessions, err = latest(ctx, a); err == nil && len(sessions) > 0 {
			err = a.Resume(sessions[0].ID)
		}
	}
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

type sessionInfo struct{ ID string }

// latest lists the agent's sessions, most recent first, leaving out child
// sessions.
func latest(ctx context.Context, a *liteagent.Agent) ([]sessionInfo, error) {
	infos, err := a.ListSessions(ctx)
	if err != nil {
		return nil, err
	}
	var out []sessionInfo
	for _, in := range infos {
		if !strings.HasPrefix(in.ID, "agent-") {
			out = append(out, sessionInfo{ID: in.ID})
		}
	}
	return out, nil
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
		return p, cmpOr(f.model, "claude-sonnet-4-5"), nil
	case providerOpenAI:
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
			a, err := newAgent(cmd.Context(), g, f)
			if err != nil {
				return err
			}
			defer a.Close()
			err = turn(cmd.Context(), a, args[0], cmd.OutOrStdout(), cmd.ErrOrStderr())
			fmt.Fprintf(cmd.ErrOrStderr(), "session %s\n", a.SessionID())
			return err
		},
	}
	f.register(cmd)
	return cmd
}

func newChatCommand(g *globalFlags) *cobra.Command {
	f := &agentFlags{}
	cmd := &cobra.Command{
		Use:   "chat",
		Short: "Talk with the agent in one session; an empty line or EOF ends",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := newAgent(cmd.Context(), g, f)
			if err != nil {
				return err
			}
			defer a.Close()
			out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
			fmt.Fprintf(errw, "session %s (empty line or Ctrl-D to quit)\n", a.SessionID())
			in := bufio.NewScanner(cmd.InOrStdin())
			in.Buffer(make([]byte, 64<<10), 1<<20)
			for {
				fmt.Fprint(errw, "> ")
				if !in.Scan() {
					break
				}
				line := strings.TrimSpace(in.Text())
				if line == "" || line == "/exit" {
					break
				}
				if err := turn(cmd.Context(), a, line, out, errw); err != nil {
					if cmd.Context().Err() != nil {
						return err
					}
					fmt.Fprintf(errw, "error: %s\n", oneLine(err.Error()))
				}
			}
			fmt.Fprintln(errw)
			return in.Err()
		},
	}
	f.register(cmd)
	return cmd
}

// turn runs one prompt, writing answer text to out and tool activity to
// errw.
func turn(ctx context.Context, a *liteagent.Agent, prompt string, out, errw io.Writer) error {
	wroteText := false
	for ev, err := range a.Run(ctx, prompt) {
		if err != nil {
			if wroteText {
				fmt.Fprintln(out)
			}
			return err
		}
		switch ev.Type {
		case engine.EventTextDelta:
			fmt.Fprint(out, ev.Text)
			wroteText = true
		case engine.EventMessage:
			if wroteText {
				fmt.Fprintln(out)
				wroteText = false
			}
		case engine.EventToolCallStart:
			fmt.Fprintf(errw, "→ %s %s\n", ev.Call.Name, clipJSON(ev.Call.Input))
		case engine.EventToolResult:
			mark := "←"
			if ev.Result.IsError {
				mark = "← error:"
			}
			fmt.Fprintf(errw, "%s %s\n", mark, clip(ev.Result.Content))
		case engine.EventTaskUpdate:
			fmt.Fprintf(errw, "task #%s %s\n", ev.TaskID, ev.Status)
		case engine.EventDone:
			if ev.Done.StopReason != engine.StopDone {
				fmt.Fprintf(errw, "stopped: %s\n", ev.Done.StopReason)
			}
		}
	}
	return nil
}

func clipJSON(raw json.RawMessage) string { return clip(string(raw)) }
