package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/compactcmd"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/rewindcmd"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/spf13/cobra"
)

func newSessionsCommand(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List, show, delete, compact, restore and fork the project's sessions",
	}
	cmd.AddCommand(newSessionsListCommand(g), newSessionsShowCommand(g), newSessionsDeleteCommand(g), newSessionsCompactCommand(g))
	cmd.AddCommand(rewindcmd.Commands(g.rewindAgent, oneID, usagef)...)
	return group(cmd)
}

// sessionRow is one session in the output of sessions list.
type sessionRow struct {
	ID string `json:"id"`
	// Title is the session's first prompt, on one line, clipped.
	Title string `json:"title"`
	// Modified is the time of the last record (the last activity).
	Modified time.Time `json:"modified"`
	Records  int64     `json:"records"`
	Size     int64     `json:"size"`
	// Torn reports a torn tail, which the next append sets aside.
	Torn  bool   `json:"torn,omitempty"`
	Error string `json:"error,omitempty"`
}

func newSessionsListCommand(g *globalFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the project's sessions, most recently active first",
		Long: "list prints each session's id, last activity, records, size and title (its first prompt).\n" +
			"It reads only the first and last records of each log and takes no lock, so it is fast on\n" +
			"many sessions; it does not validate the logs: use verify for that. A session whose delete did\n" +
			"not finish is not listed; a note on stderr names it and the command that finishes it.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := g.project()
			if err != nil {
				return err
			}
			rows := []sessionRow{}
			var cp *session.FileCheckpointer
			if st, err := g.openStore(cmd.Context()); err != nil || st != nil {
				if err == nil {
					defer g.closeStores()
					rows, err = storeSessionRows(cmd.Context(), st, p)
				}
				if err != nil {
					return err
				}
			} else if cp, err = p.checkpointer(); err != nil {
				return err
			}
			mismatched, founds := map[string]int{}, []string(nil)
			undecodable := 0 // logs under the configured codec id that do not decode
			if cp != nil {
				sums, err := cp.Summaries(cmd.Context())
				if err != nil {
					return err
				}
				for _, s := range sums {
					row := sessionRow{ID: s.ID, Title: s.Title, Modified: s.Updated.UTC(), Records: s.Records, Size: s.Size, Torn: s.Torn}
					if s.Err != nil {
						row.Error = s.Err.Error()
						var se *storage.Error
						if errors.As(s.Err, &se) && se.CodecMismatch() {
							if mismatched[se.Found] == 0 {
								founds = append(founds, se.Found)
							}
							mismatched[se.Found]++
						} else if errors.As(s.Err, &se) && se.Op == "decode" {
							undecodable++
						}
					}
					rows = append(rows, row)
				}
			}
			// Logs written under another codec configuration: one line per
			// codec found, with what to pass, instead of a line per log.
			for _, found := range founds {
				n, what := mismatched[found], "sessions"
				if n == 1 {
					what = "session"
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %d %s: %s\n", n, what, termtext.Line(verify.MismatchHint(found, 0, 0)))
			}
			if cp != nil {
				// Not listed, but not gone: their leftovers wait for the
				// delete's rerun.
				dels, err := deletingSessions(p)
				if err != nil {
					return err
				}
				for _, d := range dels {
					if d.Type != 0 {
						fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", termtext.Line(d.Error()))
						continue
					}
					fmt.Fprintf(cmd.ErrOrStderr(), "note: session %s is being deleted (a delete that did not finish); lite-agent sessions delete %s finishes it\n", termtext.Line(d.SessionID), termtext.Line(d.SessionID))
				}
			}
			if undecodable > 0 {
				why := "damaged records"
				if isAEAD(g.codec) {
					why = "a wrong key or --key-id, or records changed on disk"
				}
				verb := "do"
				if undecodable == 1 {
					verb = "does"
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s %s not decode with the configured codec (%s); lite-agent verify lists the records\n", verify.Plural(undecodable, "session"), verb, why)
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), rows)
			}
			w := bufio.NewWriter(cmd.OutOrStdout())
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tMODIFIED\tRECORDS\tSIZE\tTITLE")
			for _, r := range rows {
				title := r.Title
				switch {
				case r.Error != "":
					title = "unreadable: " + r.Error
				case r.Torn:
					title = "(torn tail) " + title
				}
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", termtext.Line(r.ID), r.Modified.Format(time.RFC3339), r.Records, formatSize(r.Size), termtext.Line(title))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the sessions as a JSON array")
	return cmd
}

// deletingSessions returns the project's sessions whose delete did not
// finish (their logs set aside as <id>.jsonl.deleting), in name order, and
// those with something else at that name (a directory, a symlink, a named
// pipe: Type says what, and it needs removing by hand), which are refused
// as being deleted all the same.
func deletingSessions(p project) ([]*session.DeletingError, error) {
	ents, err := os.ReadDir(p.paths.SessionsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*session.DeletingError
	for _, e := range ents {
		if id, ok := session.DeletingID(e.Name()); ok {
			out = append(out, &session.DeletingError{SessionID: id, File: filepath.Join(p.paths.SessionsDir, e.Name()), Type: e.Type()})
		}
	}
	return out, nil
}

// formatSize renders n bytes for a listing: 512B, 4.0K, 1.2M, 3.4G.
func formatSize(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%dB", n)
	}
	f, unit := float64(n)/1024, "K"
	for _, u := range []string{"M", "G", "T"} {
		if f < 1024 {
			break
		}
		f, unit = f/1024, u
	}
	return fmt.Sprintf("%.1f%s", f, unit)
}

func newSessionsShowCommand(g *globalFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Print a session's records; stops at the first unreadable one (exit 1), notes a torn tail on stderr",
		Args:  oneID,
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			p, err := g.project()
			if err != nil {
				return err
			}
			if st, err := g.openStore(cmd.Context()); err != nil {
				return err
			} else if st != nil {
				defer g.closeStores()
				return storeShow(cmd.Context(), st, p, id, asJSON, cmd.OutOrStdout())
			}
			cp, err := p.checkpointer()
			if err != nil {
				return err
			}
			if ok, err := sessionExists(p, id); err != nil {
				return err
			} else if !ok || cp == nil {
				if err := beingDeleted(p, id); err != nil {
					return err
				}
				return &session.NotFoundError{SessionID: id}
			}
			out := cmd.OutOrStdout()
			var records []json.RawMessage
			var failure error
			for ev, err := range cp.Scan(cmd.Context(), id, 0) {
				var torn *session.TornTailError
				if errors.As(err, &torn) {
					// Never acknowledged, so not a record: note it, exit 0.
					fmt.Fprintf(cmd.ErrOrStderr(), "note: session %s ends with a torn tail of %d bytes after record %d (an append that never completed); the next append sets it aside as %s.jsonl.torn-<ms>\n",
						id, torn.Bytes, torn.Head, id)
					break
				}
				if err != nil {
					failure = err
					break
				}
				if asJSON {
					b, err := json.Marshal(ev)
					if err != nil {
						return err
					}
					records = append(records, b)
					continue
				}
				fmt.Fprintf(out, "%d\t%s\t%s\t%s\n", ev.Seq, ev.Time.UTC().Format("2006-01-02T15:04:05.000Z"), ev.Event.EventType(), termtext.Line(summarize(ev.Event)))
			}
			if asJSON {
				if records == nil {
					records = []json.RawMessage{}
				}
				if err := writeJSON(out, records); err != nil {
					return err
				}
			}
			return failure
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the readable records as a JSON array")
	return cmd
}

// summarize renders one event as a short single line for sessions show.
func summarize(ev session.Event) string {
	switch e := ev.(type) {
	case session.UserEvent:
		return clip(e.Message.PlainText())
	case session.AssistantEvent:
		s := clip(e.Message.PlainText())
		for _, b := range e.Message.Blocks {
			if b.Type == model.BlockToolCall {
				s += " [call " + b.Name + " " + b.ID + "]"
			}
		}
		return strings.TrimSpace(s)
	case session.ToolResultEvent:
		s := e.Result.ID + ": " + clip(e.Result.Content)
		if e.Result.IsError {
			s += " (error)"
		}
		return s
	case session.FileSnapshotEvent:
		return e.Path
	}
	return ""
}

// clip shortens s to one line of at most 100 runes.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 100 {
		return string(r[:99]) + "…"
	}
	return s
}

func newSessionsDeleteCommand(g *globalFlags) *cobra.Command {
	var sharedList string
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "delete ID",
		Short: "Delete a session: its log, its context archive and its private task list",
		Long: "delete removes the session's log, the copies of it set aside by repairs\n" +
			"(<ID>.jsonl.broken-*, <ID>.jsonl.torn-*; <ID>.broken-*, <ID>.torn-* for an id too\n" +
			"long for those names), its context archive and its private task\n" +
			"list (tasks/<ID>). Shared task lists are never removed: neither a list marked shared\n" +
			"by the agents that use it, nor, with --task-list, any list (the session is taken to\n" +
			"have used that shared list). In the default namespace, " + liteagent.TaskListEnv + "\n" +
			"stands in for a missing --task-list, as it does for agents. A session with nothing\n" +
			"stored is an error (exit 1) and nothing is removed; --dry-run lists what would go.",
		Args: oneID,
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			if cmd.Flags().Changed("task-list") {
				if err := storage.ValidateID(sharedList); err != nil {
					return invalidID("--task-list", sharedList, err)
				}
			}
			p, err := g.project()
			if err != nil {
				return err
			}
			shared := sharedList
			if !cmd.Flags().Changed("task-list") && p.paths.Namespace == storage.DefaultNamespace {
				shared = os.Getenv(liteagent.TaskListEnv)
				if shared != "" {
					if err := storage.ValidateID(shared); err != nil {
						return &idError{what: liteagent.TaskListEnv, id: shared, err: err}
					}
				}
			}
			if st, err := g.openStore(cmd.Context()); err != nil {
				return err
			} else if st != nil {
				defer g.closeStores()
				return storeDelete(cmd.Context(), st, p, id, shared, dryRun, cmd.OutOrStdout())
			}
			cp, err := p.checkpointer()
			if err != nil {
				return err
			}
			if cp == nil {
				return &session.NotFoundError{SessionID: id} // nothing stored in this project
			}
			removed, err := liteagent.DeleteSessionData(cmd.Context(), p.paths, cp, id, liteagent.DeleteDataOptions{SharedTaskList: shared, DryRun: dryRun})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if dryRun {
				for _, path := range removed {
					fmt.Fprintf(out, "would remove %s\n", termtext.Line(path))
				}
				return nil
			}
			fmt.Fprintf(out, "deleted session %s\n", id)
			return nil
		},
	}
	cmd.Flags().StringVar(&sharedList, "task-list", "", "the shared task list the session used (kept)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "list what would be removed and remove nothing")
	return cmd
}

// oneID accepts exactly one argument, a valid session id.
func oneID(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usagef("%s takes one session id", cmd.Name())
	}
	if err := storage.ValidateID(args[0]); err != nil {
		return invalidID("session id", args[0], err)
	}
	return nil
}

// newSessionsCompactCommand is `sessions compact ID`, with run's model flags.
func newSessionsCompactCommand(g *globalFlags) *cobra.Command {
	// A summary that fails leaves the turns as they were: say so.
	f := &agentFlags{sandbox: sandboxAuto, warn: true}
	return compactcmd.New(compactcmd.Config{Args: oneID, Flags: f.registerModel, Done: g.closeStores,
		Open: func(cmd *cobra.Command, id string) (compactcmd.Agent, error) {
			f.resume = id
			return newAgent(cmd.Context(), g, f, nil, cmd.ErrOrStderr())
		}})
}
