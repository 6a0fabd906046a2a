package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/spf13/cobra"
)

// newPathsCommand returns the paths command, which prints the layout the
// global flags select.
func newPathsCommand(g *globalFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "paths",
		Short: "Print the resolved storage layout of the project",
		Long: "paths prints where the project's runtime state lives under the selected\n" +
			"namespace and data home. It creates nothing on disk.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			workdir, err := g.workdirOption()
			if err != nil {
				return err
			}
			opts, err := g.storageOptions()
			if err != nil {
				return err
			}
			p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: opts})
			if err != nil {
				return err
			}
			if asJSON {
				return writePathsJSON(cmd.OutOrStdout(), p)
			}
			return writePathsText(cmd.OutOrStdout(), p)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the layout as a JSON object")
	return cmd
}

// writePathsJSON writes p as a JSON object indented by two spaces, followed
// by a newline.
func writePathsJSON(w io.Writer, p storage.ProjectPaths) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}

// writePathsText writes p as aligned "name  value" lines, named and ordered
// as in the JSON form.
func writePathsText(w io.Writer, p storage.ProjectPaths) error {
	rows := pathRows(p)
	width := 0
	for _, r := range rows {
		width = max(width, len(r.name))
	}
	for _, r := range rows {
		if _, err := fmt.Fprintf(w, "%-*s  %s\n", width, r.name, r.value); err != nil {
			return err
		}
	}
	return nil
}

// A pathRow is one line of the plain output of paths.
type pathRow struct {
	name, value string
}

// pathRows lists the fields of p under their JSON names, in JSON order.
func pathRows(p storage.ProjectPaths) []pathRow {
	return []pathRow{
		{"home", p.Home},
		{"namespace", p.Namespace},
		{"projectConfigDir", p.ProjectConfigDir},
		{"hash", p.Hash},
		{"sessionsDir", p.SessionsDir},
		{"tasksDir", p.TasksDir},
		{"spillDir", p.SpillDir},
		{"globalSkillsDir", p.GlobalSkillsDir},
		{"projectSkillsDir", p.ProjectSkillsDir},
		{"globalAgentsDir", p.GlobalAgentsDir},
		{"projectAgentsDir", p.ProjectAgentsDir},
	}
}
