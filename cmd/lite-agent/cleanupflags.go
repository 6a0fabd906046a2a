package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/migration"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/spf13/cobra"
)

// cleanupFlags control the sweep of stale runtime files that starting an
// agent runs (see package retention).
type cleanupFlags struct {
	days daysValue
	off  bool
}

// daysValue is the value of --cleanup-days; it remembers being set.
type daysValue struct {
	n   int
	set bool
}

func (d *daysValue) String() string { return strconv.Itoa(d.n) }
func (d *daysValue) Type() string   { return "int" }

func (d *daysValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 100_000 {
		return fmt.Errorf("want a whole number of days, 0 to turn the sweep off")
	}
	d.n, d.set = n, true
	return nil
}

func (c *cleanupFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.Var(&c.days, "cleanup-days", "at startup, remove the session logs, context archives and spilled output of every project of the data home unchanged for `N` days (default 30, or "+liteagent.CleanupDaysEnv+" in the default namespace); 0 turns the sweep off")
	fs.BoolVar(&c.off, "no-cleanup", false, "do not sweep stale runtime files at startup")
}

// apply sets the cleanup fields of opts from the flags, and makes the sweep
// report on errw, in one line, what it removed.
func (c *cleanupFlags) apply(opts *liteagent.Options, errw io.Writer) error {
	switch {
	case c.off && c.days.set:
		return usagef("--no-cleanup and --cleanup-days are mutually exclusive")
	case c.off || c.days.set && c.days.n == 0:
		opts.DisableCleanup = true
		return nil
	case c.days.set:
		opts.Cleanup.MaxAge = time.Duration(c.days.n) * 24 * time.Hour
	}
	opts.OnCleanup = func(r retention.Report) {
		if len(r.Removed) > 0 {
			entries := "entries"
			if len(r.Removed) == 1 {
				entries = "entry"
			}
			fmt.Fprintf(errw, "cleanup: removed %d stale %s (%s) from %s; --cleanup-days N or --no-cleanup to change\n",
				len(r.Removed), entries, migration.FormatBytes(r.BytesFreed), termtext.Line(r.Home))
		}
	}
	return nil
}

// keepFromSweep marks the log and context archive of session id, which the
// user is resuming, as used now, so that the startup sweep, which removes
// what has not changed for the cleanup age, does not remove the very
// session being resumed (and the run then start an empty one under its
// id). Only regular files and directories are touched, never through a
// symlink, and a log with more than one hard link is refused as the store
// refuses to append to it (safefs.IsHardLinked): its other name may lie
// outside the data home.
func keepFromSweep(p project, id string) error {
	dir, err := safefs.AnchorExisting(p.paths.SessionsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	now := time.Now()
	for _, rel := range []string{id + session.LogSuffix, filepath.Base(p.paths.ArchiveDir(id))} {
		fi, err := dir.Lstat(rel)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if fi.Mode().IsRegular() || fi.IsDir() {
			if err := dir.Touch(rel, now); err != nil {
				return err
			}
		}
	}
	return nil
}
