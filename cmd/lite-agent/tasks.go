package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
	"github.com/spf13/cobra"
)

func newTasksCommand(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tasks",
		Short: "Inspect the project's task lists",
	}
	cmd.AddCommand(newTasksListCommand(g))
	return group(cmd)
}

// taskList is one list in the output of tasks list.
type taskList struct {
	ID    string      `json:"id"`
	Tasks []task.Task `json:"tasks"`
}

func newTasksListCommand(g *globalFlags) *cobra.Command {
	var (
		asJSON bool
		listID string
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Print the tasks of every list of the project, or of one with --list",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("list") {
				if err := storage.ValidateID(listID); err != nil {
					return invalidID("--list", listID, err)
				}
			}
			p, err := g.project()
			if err != nil {
				return err
			}
			var ids []string
			var open func(id string) (task.Store, error)
			if st, err := g.openStore(cmd.Context()); err != nil {
				return err
			} else if st != nil {
				defer g.closeStores()
				ids, err = storeTaskListIDs(cmd.Context(), st, p, listID)
				if err != nil {
					return err
				}
				open = func(id string) (task.Store, error) { return st.TaskList(cmd.Context(), p.enc, id) }
			} else {
				if err := p.checkLayoutDirs(p.paths.TasksDir); err != nil {
					return err
				}
				if ids, err = verify.TaskLists(p.paths.TasksDir, listID); err != nil {
					return err
				}
				open = func(id string) (task.Store, error) { return task.NewFileStore(p.paths.TasksDir, id, p.enc) }
			}
			if listID != "" && len(ids) == 0 {
				// As ls and git do for a name they do not find: a typo
				// is not an empty listing. (A file list exists once its
				// first task was written.)
				return &noTaskListError{ID: listID, Workdir: p.paths.Workdir(), Hash: p.paths.Hash}
			}
			lists := []taskList{}
			out := cmd.OutOrStdout()
			for i, id := range ids {
				st, err := open(id)
				if err != nil {
					return err
				}
				if asJSON {
					ts, err := st.List(cmd.Context())
					if err != nil {
						return fmt.Errorf("task list %s: %w", id, err)
					}
					if ts == nil {
						ts = []task.Task{} // [] in JSON, never null
					}
					lists = append(lists, taskList{ID: id, Tasks: ts})
					continue
				}
				text, err := renderShown(cmd.Context(), st)
				if err != nil {
					return fmt.Errorf("task list %s: %w", id, err)
				}
				if i > 0 {
					fmt.Fprintln(out)
				}
				fmt.Fprintf(out, "list %s:\n", termtext.Line(id))
				if text == "" {
					text = "(no tasks)"
				}
				for _, line := range strings.Split(text, "\n") {
					fmt.Fprintf(out, "  %s\n", termtext.Line(line))
				}
			}
			if asJSON {
				return writeJSON(out, lists)
			}
			if len(ids) == 0 {
				// Say so rather than print nothing, which reads as a hang
				// or a wrong project. Still exit 0: no list is not a failure.
				fmt.Fprintf(cmd.ErrOrStderr(), "note: no task lists in project %s (%s)\n", p.paths.Workdir(), p.paths.Hash)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the lists as JSON")
	cmd.Flags().StringVar(&listID, "list", "", "only the task list `ID`")
	return cmd
}

// A noTaskListError reports a --list id that names no task list of the
// project.
type noTaskListError struct {
	// ID is the list id asked for.
	ID string
	// Workdir and Hash name the project.
	Workdir, Hash string
}

func (e *noTaskListError) Error() string {
	return fmt.Sprintf("no task list %s in project %s (%s); tasks list without --list shows the project's lists", e.ID, e.Workdir, e.Hash)
}

// renderShown renders the tasks of st as the model sees them, one line per
// task, with the text of each field shown by termtext.Line: a subject the
// model wrote holding a line break, or a terminal escape, stays on its
// task's line and drives nothing. A list whose escaped ids would collide
// (an id holding a control next to one spelling its escape) is rendered
// as it is, each of its lines then escaped.
func renderShown(ctx context.Context, st task.Store) (string, error) {
	tasks, err := st.List(ctx)
	if err != nil {
		return "", err
	}
	shown := make([]task.Task, len(tasks))
	for i, t := range tasks {
		t.ID, t.Subject, t.Owner = termtext.Line(t.ID), termtext.Line(t.Subject), termtext.Line(t.Owner)
		t.BlockedBy = slices.Clone(t.BlockedBy)
		for j, dep := range t.BlockedBy {
			t.BlockedBy[j] = termtext.Line(dep)
		}
		shown[i] = t
	}
	mem := task.NewMemoryStore()
	if err := mem.Import(ctx, shown); err == nil {
		return mem.Render(ctx, task.RenderOptions{})
	}
	text, err := st.Render(ctx, task.RenderOptions{})
	return termtext.Prose(text), err
}
