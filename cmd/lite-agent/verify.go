package main

import (
	"fmt"
	"io"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/spf13/cobra"
)

func newVerifyCommand(g *globalFlags) *cobra.Command {
	var asJSON, all bool
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check that every runtime record decodes; report each problem (exit 1 if any)",
		Long: "verify reads every session log, context archive, task record and spilled output of\n" +
			"the project (or, with --all, of every project in the data home), decodes each record\n" +
			"with the configured codec and reports every problem with its file and record. It\n" +
			"changes nothing.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := g.project()
			if err != nil {
				return err
			}
			rep := verify.Report{Problems: []verify.Problem{}}
			if st, err := g.openStore(cmd.Context()); err != nil {
				return err
			} else if st != nil {
				defer g.closeStores()
				if all {
					return usagef("--all is not supported with --store: verify one project at a time")
				}
				if err := verify.Store(cmd.Context(), st, p.enc, &rep); err != nil {
					return err
				}
				return finishVerify(cmd.OutOrStdout(), &rep, asJSON)
			}
			if err := safefs.CheckProjectDirs(p.paths); err != nil {
				return err
			}
			noteMissingData(cmd.ErrOrStderr(), p, all)
			dirs := []string{p.paths.ProjectDir()}
			if all {
				if dirs, err = verify.ProjectDirs(storage.ProjectsDir(p.paths.Home)); err != nil {
					return err
				}
			}
			if err := verify.Files(cmd.Context(), p.paths.Home, dirs, p.opts.Codec, p.paths.Namespace, &rep); err != nil {
				return err
			}
			return finishVerify(cmd.OutOrStdout(), &rep, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "verify every project of the data home")
	return cmd
}

// noteMissingData writes a note to w when there is nothing to verify: no
// data home, or (without all) no data of the project in it. verify is the
// check step of every migration recipe, and a mistyped --home or --workdir
// would otherwise pass it with "checked 0 files".
func noteMissingData(w io.Writer, p project, all bool) {
	if ok, err := exists(p.paths.Home); err == nil && !ok {
		fmt.Fprintf(w, "note: the data home %s does not exist\n", p.paths.Home)
		return
	}
	if ok, err := exists(p.paths.ProjectDir()); err == nil && !ok && !all {
		fmt.Fprintf(w, "note: %s holds no data of the project %s (%s)\n", p.paths.Home, p.paths.Workdir(), p.paths.Hash)
	}
}

// finishVerify prints rep and fails when it lists a problem.
func finishVerify(out io.Writer, rep *verify.Report, asJSON bool) error {
	if asJSON {
		if err := writeJSON(out, rep); err != nil {
			return err
		}
	} else {
		rep.WriteText(out)
	}
	if rep.ProblemCount > 0 {
		return errFailed{"verify found " + verify.Plural(rep.ProblemCount, "problem")}
	}
	return nil
}
