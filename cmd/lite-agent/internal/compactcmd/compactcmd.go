// Package compactcmd is the CLI's `lite-agent sessions compact` command and
// the report line it shares with chat's /compact.
package compactcmd

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/termtext"
)

// An Agent compacts its current session.
type Agent interface {
	Compact(ctx context.Context, opts liteagent.CompactOptions) (liteagent.CompactResult, error)
	Subscribe(fn func(liteagent.Notice)) (func(), error)
	SessionID() string
	Close() error
}

// Config is what the command needs from the CLI.
type Config struct {
	// Args checks the arguments: one valid session id.
	Args cobra.PositionalArgs
	// Flags registers the model flags (those of run) on the command.
	Flags func(cmd *cobra.Command)
	// Open builds the agent with session id current, failing for an
	// unknown session.
	Open func(cmd *cobra.Command, id string) (Agent, error)
	// Done, if set, runs after the agent is closed (or failed to open).
	Done func()
}

// New returns `sessions compact ID [--instructions T]`.
func New(c Config) *cobra.Command {
	var instructions string
	cmd := &cobra.Command{
		Use:   "compact ID",
		Short: "Compact a session now: commit a context view that its next run resumes from",
		Long: "compact forces the context engine's levels on the session (and the summary of older\n" +
			"turns, when the model is configured for it) and commits the result as a context view:\n" +
			"the next run --resume starts from it without reading the history it covers. The log\n" +
			"keeps every event. It prints the tokens of the next request before and after:\n" +
			"estimates, or with --count-tokens Anthropic's counts (two count requests, and\n" +
			"one for each summary request), each figure saying which it is. A session with a\n" +
			"run in progress is refused.",
		Args: c.Args,
		RunE: func(cmd *cobra.Command, args []string) error {
			if c.Done != nil {
				defer c.Done()
			}
			a, err := c.Open(cmd, args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			unsub, err := a.Subscribe(func(n liteagent.Notice) { Progress(cmd.ErrOrStderr(), n) })
			if err != nil {
				return err
			}
			defer unsub()
			res, err := a.Compact(cmd.Context(), liteagent.CompactOptions{Instructions: instructions})
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), Describe(args[0], res))
			return nil
		},
	}
	c.Flags(cmd)
	cmd.Flags().StringVar(&instructions, "instructions", "", "extra instructions for the summary of older turns, such as what to keep (`TEXT`)")
	return cmd
}

// Slash runs chat's /compact args on a's current session, writing the
// report line to out.
func Slash(ctx context.Context, a Agent, out io.Writer, args string) error {
	res, err := a.Compact(ctx, liteagent.CompactOptions{Instructions: args})
	if err == nil {
		fmt.Fprintln(out, Describe(a.SessionID(), res))
	}
	return err
}

// Progress writes the stage of a compaction event to w, and after the
// measure stage the session's size, saying whether the provider counted
// it or it is an estimate.
func Progress(w io.Writer, n liteagent.Notice) {
	ev := n.Event.Compaction
	if n.Event.Type != liteagent.EventCompaction || ev == nil || ev.Phase != "progress" {
		return
	}
	switch {
	case ev.Stage != "measure":
		fmt.Fprintf(w, "compact: %s\n", ev.Stage)
	case ev.BeforeCounted:
		fmt.Fprintf(w, "compact: measure: %d tokens (counted by the provider)\n", ev.Before)
	default:
		fmt.Fprintf(w, "compact: measure: about %d tokens (estimated)\n", ev.Before)
	}
}

// Describe is the report of res for session id: a line, whose token
// figures say whether the provider counted them or they are estimates,
// then one for each thing the compaction could not do (a failed summary,
// a failed token count, transcript lines the summary left out, a summary
// cut to fit, turns the view leaves out).
func Describe(id string, res liteagent.CompactResult) string {
	var b strings.Builder
	switch {
	case !res.Committed && res.BeforeCounted:
		fmt.Fprintf(&b, "session %s: nothing to compact (%d tokens, counted by the provider)", id, res.Before)
	case !res.Committed:
		fmt.Fprintf(&b, "session %s: nothing to compact (about %d tokens, estimated)", id, res.Before)
	case res.BeforeCounted && res.AfterCounted:
		fmt.Fprintf(&b, "session %s compacted: %d → %d tokens (counted by the provider; context view generation %d)", id, res.Before, res.After, res.Generation)
	case res.BeforeCounted:
		fmt.Fprintf(&b, "session %s compacted: %d tokens (counted by the provider) → about %d (estimated; context view generation %d)", id, res.Before, res.After, res.Generation)
	case res.AfterCounted: // too long to count before, counted once compacted
		fmt.Fprintf(&b, "session %s compacted: about %d tokens (estimated) → %d (counted by the provider; context view generation %d)", id, res.Before, res.After, res.Generation)
	default:
		fmt.Fprintf(&b, "session %s compacted: about %d → %d tokens (estimated; context view generation %d)", id, res.Before, res.After, res.Generation)
	}
	switch {
	case res.CountErr == nil:
	case res.Committed && !res.BeforeCounted && res.AfterCounted:
		fmt.Fprintf(&b, "\n  token count failed, the figure before estimated: %s", termtext.Line(res.CountErr.Error()))
	case res.Committed && res.BeforeCounted && !res.AfterCounted:
		fmt.Fprintf(&b, "\n  token count failed, the figure after estimated: %s", termtext.Line(res.CountErr.Error()))
	case !res.BeforeCounted || !res.AfterCounted:
		fmt.Fprintf(&b, "\n  token count failed, figures estimated: %s", termtext.Line(res.CountErr.Error()))
	default: // the summary's (a *compaction.CountError)
		fmt.Fprintf(&b, "\n  summary requests planned with estimated tokens: %s", termtext.Line(res.CountErr.Error()))
	}
	if res.SummaryErr != nil {
		fmt.Fprintf(&b, "\n  summary failed, older turns not summarized: %s", termtext.Line(res.SummaryErr.Error()))
	}
	if res.LeftOutLines > 0 {
		fmt.Fprintf(&b, "\n  summary left out the oldest %d transcript line(s) to stay within its request limit", res.LeftOutLines)
	}
	if res.SummaryCut > 0 {
		fmt.Fprintf(&b, "\n  summary cut to a quarter of the context window (%d characters left out of its middle)", res.SummaryCut)
	}
	if res.LeftOutTurns > 0 {
		fmt.Fprintf(&b, "\n  context view leaves out the oldest %d turn(s) to fit the context window", res.LeftOutTurns)
	}
	return b.String()
}
