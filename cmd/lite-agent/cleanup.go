package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/spf13/cobra"
)

func newCleanupCommand(g *globalFlags) *cobra.Command {
	var (
		asJSON   bool
		dryRun   bool
		maxAge   string
		maxBytes int64
	)
	cmd := &cobra.Command{
		Use:   "cleanup",
		Short: "Remove stale session logs, archives and spilled output from the data home",
		Long: "cleanup sweeps every project of the data home: entries of sessions/ and spill/\n" +
			"older than --max-age go, then the oldest files until the rest fits in --max-bytes.\n" +
			"Stores' temporary files (.<name>.<12 hex>.tmp) left by killed writers go after an\n" +
			"hour, task lists included. A task list a fork killed part-way left (marked\n" +
			".fork-incomplete, with no session log) goes once older than --max-age; nothing\n" +
			"else in task lists is touched. It never decodes\n" +
			"records, never follows symlinks and skips anything locked.\n\n" +
			"Anything under projects/ that the layout has no place for (a file, a symlink, a\n" +
			"directory not named by a project hash, an entry of a project other than sessions,\n" +
			"tasks and spill, a directory that cannot be listed) makes cleanup remove nothing\n" +
			"and exit 1 naming it; an entry of sessions/ or spill/ it had to leave (a FIFO, one\n" +
			"it could not remove) is named too, exit 1, after the rest is cleaned. A migration's\n" +
			"lock in a project (.migration-incomplete.lock) left by a killed migrate goes once\n" +
			"stale (10 s unrefreshed), as a rerun of migrate would take it; while a migrate\n" +
			"holds it, cleanup removes nothing and exits 1.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			age, err := parseAge(maxAge)
			if err != nil {
				return usagef("invalid --max-age %q: %w", maxAge, err)
			}
			limit := cmd.Flags().Changed("max-bytes")
			if limit && maxBytes < 0 {
				return usagef("--max-bytes must not be negative")
			}
			p, err := g.project()
			if err != nil {
				return err
			}
			if st, err := g.openStore(cmd.Context()); err != nil {
				return err
			} else if st != nil {
				defer g.closeStores()
				return storeCleanup(cmd.Context(), st, p, postgres.SweepOptions{MaxAge: age, MaxBytes: maxBytes, LimitBytes: limit, DryRun: dryRun}, asJSON, cmd.OutOrStdout())
			}
			locked, err := checkLayout(cmd.Context(), p.paths.Home)
			if err != nil {
				return err
			}
			locks, err := clearMigrationLocks(cmd.Context(), locked, dryRun)
			if err != nil {
				return err
			}
			rep, err := retention.Sweep(cmd.Context(), retention.Options{
				Home: p.paths.Home, MaxAge: age, MaxBytes: maxBytes, LimitBytes: limit, DryRun: dryRun,
			})
			if err != nil {
				return err
			}
			rep.Removed = append(locks, rep.Removed...)
			out := cmd.OutOrStdout()
			if asJSON {
				if err := writeJSON(out, rep); err != nil {
					return err
				}
				return leftError(rep)
			}
			verb := "removed"
			if dryRun {
				verb = "would remove"
			}
			for _, e := range rep.Removed {
				fmt.Fprintf(out, "%s %s (%s, %d bytes)\n", verb, termtext.Line(e.Path), e.Reason, e.Size)
			}
			for _, s := range rep.Skipped {
				if s.Err != nil {
					fmt.Fprintf(out, "skipped %s (%s: %s)\n", termtext.Line(s.Path), s.Reason, termtext.Line(s.Err.Error()))
				}
			}
			fmt.Fprintf(out, "%s %d entries, %d bytes; scanned %d, skipped %d\n", verb, len(rep.Removed), rep.BytesFreed, rep.Scanned, len(rep.Skipped))
			return leftError(rep)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "report what would be removed and remove nothing")
	cmd.Flags().StringVar(&maxAge, "max-age", "30d", "remove entries older than `AGE` (such as 30d, 12h, 90m)")
	cmd.Flags().Int64Var(&maxBytes, "max-bytes", 0, "then remove the oldest files until the rest is at most `N` bytes")
	return cmd
}

// parseAge parses a duration that may also be given in days ("30d").
func parseAge(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("want a positive number of days")
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("want a positive duration such as 30d or 12h")
	}
	return d, nil
}
