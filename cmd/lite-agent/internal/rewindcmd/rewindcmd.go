// Package rewindcmd holds lite-agent's rewind commands: sessions
// checkpoints, sessions restore, sessions fork, and chat's /rewind.
package rewindcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/spf13/cobra"
)

// Agent is what the commands use of a *liteagent.Agent.
type Agent interface {
	Checkpoints(ctx context.Context, id string) ([]liteagent.Checkpoint, error)
	Restore(ctx context.Context, id string, toSeq int64, opts liteagent.RestoreOptions) (liteagent.RestoreResult, error)
	Fork(ctx context.Context, id string, atSeq int64) (string, error)
}

// An Opener returns the agent for session id of the selected project, or
// an error when nothing is stored of the session, and the function that
// releases it.
type Opener func(ctx context.Context, id string) (Agent, func(), error)

// Open returns an agent that serves session operations only: it has a
// model that fails every request, and it loads no hooks, MCP servers or
// subagents and sweeps nothing.
func Open(ctx context.Context, opts liteagent.Options) (*liteagent.Agent, error) {
	opts.Model, opts.ModelName = noModel{}, "none"
	opts.DisableCleanup, opts.DisableAgents, opts.DisableMCPFiles, opts.DisableHookFiles = true, true, true, true
	return liteagent.New(ctx, opts)
}

// noModel answers no request: session operations never call the model.
type noModel struct{}

func (noModel) Stream(context.Context, model.Request) iter.Seq2[model.Chunk, error] {
	return func(yield func(model.Chunk, error) bool) {
		yield(model.Chunk{}, errors.New("lite-agent: this command has no model"))
	}
}

// Commands returns sessions checkpoints, restore and fork. oneID checks
// the session id argument; usagef makes a usage error.
func Commands(open Opener, oneID cobra.PositionalArgs, usagef func(string, ...any) error) []*cobra.Command {
	var asJSON bool
	list := &cobra.Command{
		Use:   "checkpoints ID",
		Short: "List the points a session can be restored to: one before each prompt, with the files changed after it",
		Args:  oneID,
		RunE: func(cmd *cobra.Command, args []string) error {
			a, release, err := open(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer release()
			cps, err := a.Checkpoints(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), cps)
			}
			WriteCheckpoints(cmd.OutOrStdout(), cps)
			return nil
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print the checkpoints as a JSON array")

	var (
		to                          int64
		filesOnly, convOnly, dryRun bool
		restoreJSON                 bool
	)
	restore := &cobra.Command{
		Use:   "restore ID --to SEQ",
		Short: "Put a session's files and conversation back to a checkpoint (bash's changes are not undone)",
		Long: "restore writes back the files the file tools changed after checkpoint SEQ (see sessions\n" +
			"checkpoints), deletes those they created, and drops the log's records after SEQ. It\n" +
			"refuses, changing nothing, when a file was changed since the agent wrote it or has no\n" +
			"usable snapshot (too large to keep, not recording what the write left, or unreadable).\n" +
			"Changes made by bash are not tracked or undone.\n" +
			"--dry-run prints the same plan and changes nothing.",
		Args: oneID,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("to") {
				return usagef("restore needs --to SEQ (sessions checkpoints lists them)")
			}
			if filesOnly && convOnly {
				return usagef("--files-only and --conversation-only exclude each other")
			}
			a, release, err := open(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer release()
			res, err := a.Restore(cmd.Context(), args[0], to, liteagent.RestoreOptions{FilesOnly: filesOnly, ConversationOnly: convOnly, DryRun: dryRun})
			if err != nil {
				return err
			}
			if restoreJSON {
				return writeJSON(cmd.OutOrStdout(), res)
			}
			WritePlan(cmd.OutOrStdout(), res)
			if dryRun {
				fmt.Fprintln(cmd.ErrOrStderr(), "dry run: nothing was changed")
			}
			return nil
		},
	}
	fl := restore.Flags()
	fl.Int64Var(&to, "to", 0, "the checkpoint `SEQ` to go back to (0: the start)")
	fl.BoolVar(&filesOnly, "files-only", false, "restore the files and keep the conversation")
	fl.BoolVar(&convOnly, "conversation-only", false, "restore the conversation and leave the files")
	fl.BoolVar(&dryRun, "dry-run", false, "print the plan and change nothing")
	fl.BoolVar(&restoreJSON, "json", false, "print the result as JSON")

	var at int64
	fork := &cobra.Command{
		Use:   "fork ID [--at SEQ]",
		Short: "Copy a session's conversation (up to SEQ, default all of it) into a new session; prints its id",
		Args:  oneID,
		RunE: func(cmd *cobra.Command, args []string) error {
			seq := liteagent.ForkAtHead
			if cmd.Flags().Changed("at") {
				if at < 0 {
					return usagef("--at must not be negative")
				}
				seq = at
			}
			a, release, err := open(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			defer release()
			id, err := a.Fork(cmd.Context(), args[0], seq)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), id)
			return nil
		},
	}
	fork.Flags().Int64Var(&at, "at", 0, "the last `SEQ` to copy (default: the whole log)")
	return []*cobra.Command{list, restore, fork}
}

// WriteCheckpoints writes cps as a table.
func WriteCheckpoints(w io.Writer, cps []liteagent.Checkpoint) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tTIME\tPROMPT\tFILES")
	for _, c := range cps {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", c.Seq, c.Time.UTC().Format("2006-01-02T15:04:05Z"), clip(c.Prompt), files(c))
	}
	tw.Flush()
}

// files lists the files of a checkpoint, marking those it cannot restore
// (rewind.Checkpoint.UnavailableFiles: a snapshot too large to keep, or one
// a file restore cannot check or read, which the list does not tell apart).
func files(c liteagent.Checkpoint) string {
	if len(c.Files) == 0 {
		return "-"
	}
	out := make([]string, len(c.Files))
	for i, f := range c.Files {
		out[i] = shown(f)
		for _, u := range c.UnavailableFiles {
			if u == f {
				out[i] += " (no usable snapshot: conversation only)"
			}
		}
	}
	return strings.Join(out, ", ")
}

// WritePlan writes what a restore did, or for a dry run would do, one
// step a line: the same lines either way.
func WritePlan(w io.Writer, res liteagent.RestoreResult) {
	for _, f := range res.Files {
		verb := "restore"
		if f.Delete {
			verb = "delete"
		}
		fmt.Fprintf(w, "%s %s\n", verb, shown(f.Path))
	}
	if res.ConversationRestored {
		if res.DroppedEvents == 0 {
			fmt.Fprintf(w, "keep all %d events\n", res.Head)
		} else {
			fmt.Fprintf(w, "drop events %d..%d (%d)\n", res.ToSeq+1, res.Head, res.DroppedEvents)
		}
	}
}

// Chat runs chat's /rewind on session id: it lists the checkpoints, asks
// which (args may name it by its number), shows the plan and restores
// after a confirmation. ask shows a question and reads the answer; false
// means no answer.
func Chat(ctx context.Context, a Agent, id, args string, ask func(string) (string, bool), w io.Writer) error {
	cps, err := a.Checkpoints(ctx, id)
	if err != nil {
		return err
	}
	if len(cps) == 0 {
		fmt.Fprintln(w, "no checkpoints yet: they are made before each prompt")
		return nil
	}
	for i, c := range cps {
		fmt.Fprintf(w, "  %d) %s  %s  [%s]\n", i+1, c.Time.Local().Format("15:04:05"), clip(c.Prompt), files(c))
	}
	choice := args
	if choice == "" {
		var ok bool
		if choice, ok = ask(fmt.Sprintf("Go back to before which prompt? (1-%d, empty to cancel)", len(cps))); !ok || choice == "" {
			fmt.Fprintln(w, "(rewind cancelled)")
			return nil
		}
	}
	n, err := strconv.Atoi(choice)
	if err != nil || n < 1 || n > len(cps) {
		return fmt.Errorf("/rewind: %q is not a checkpoint number (1-%d)", choice, len(cps))
	}
	cp := cps[n-1]
	plan, err := a.Restore(ctx, id, cp.Seq, liteagent.RestoreOptions{DryRun: true})
	var opts liteagent.RestoreOptions
	question := "Restore files and conversation? [y]es, [f]iles only, [c]onversation only, [N]o"
	if err != nil {
		// A file that cannot be put back leaves the conversation.
		fmt.Fprintf(w, "files cannot be restored: %s\n", termtext.Line(err.Error()))
		opts.ConversationOnly = true
		if plan, err = a.Restore(ctx, id, cp.Seq, liteagent.RestoreOptions{DryRun: true, ConversationOnly: true}); err != nil {
			return err
		}
		question = "Restore the conversation only? [y]es, [N]o"
	}
	WritePlan(w, plan)
	answer, ok := ask(question)
	switch answer = strings.ToLower(answer); {
	case !ok:
	case answer == "y" || answer == "yes":
	case answer == "f" && !opts.ConversationOnly:
		opts.FilesOnly = true
	case answer == "c":
		opts.ConversationOnly = true
	default:
		ok = false
	}
	if !ok {
		fmt.Fprintln(w, "(rewind cancelled: nothing changed)")
		return nil
	}
	res, err := a.Restore(ctx, id, cp.Seq, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "(rewound: %d file(s) restored; ", len(res.Files))
	if res.ConversationRestored {
		fmt.Fprintf(w, "the conversation continues from before %q)\n", trim(cp.Prompt))
	} else {
		fmt.Fprintln(w, "the conversation is unchanged)")
	}
	return nil
}

// clip renders a prompt on one line of at most 60 runes, quoted when it
// holds characters that are not printable.
func clip(s string) string { return shown(trim(s)) }

// trim returns s on one line, cut to 60 characters.
func trim(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}

// shown returns s, or s quoted when it holds a character that is not
// printable (a line break, a terminal escape, a bidirectional override):
// paths and prompts come from the session log, which whoever can write
// the data home can forge, and must not draw lines of their own or drive
// the terminal.
func shown(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0 {
		return s
	}
	return strconv.Quote(s)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
