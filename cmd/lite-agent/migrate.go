package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/spf13/cobra"
)

// migrateFlags holds the flags of migrate. The --to-* flags describe the
// destination; the source is what the global flags select.
type migrateFlags struct {
	toHome      optionalString
	toNamespace optionalString
	toWorkdir   optionalString
	toCodec     optionalString
	toKeyEnv    optionalString
	toKeyFile   optionalString
	toKeyID     optionalString
	toStore     optionalString
	fromStore   optionalString
	all         bool
	dryRun      bool
	skip        bool
	asJSON      bool
}

func newMigrateCommand(g *globalFlags) *cobra.Command {
	var f migrateFlags
	cmd := &cobra.Command{
		Use:   "migrate --to-home DIR",
		Short: "Copy the project (or the whole home) to a new home, namespace, workdir or codec, verifying every record",
		Long: "migrate reads every record of the project (with --all-projects, of every project and\n" +
			"the home's configuration files) with the configuration the global flags select, writes\n" +
			"it re-encoded into a separate destination and reads it back before it reports success.\n" +
			"The source is only read. The destination (the project directory under --to-home, or\n" +
			"--to-home itself with --all-projects) must not exist or be empty. Without --to-codec the\n" +
			"destination keeps the source's codec and key. Stop every agent using the data and back\n" +
			"it up first.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMigrate(cmd, g, &f)
		},
	}
	fs := cmd.Flags()
	fs.Var(&f.toHome, "to-home", "destination data home `DIR` (required)")
	fs.Var(&f.toNamespace, "to-namespace", "destination namespace `N` (default: the source's)")
	fs.Var(&f.toWorkdir, "to-workdir", "destination project directory `D`, which changes the project hash (default: the source's)")
	fs.Var(&f.toCodec, "to-codec", "destination record `codec`: "+codecNamesUsage+" (default: the source's codec and key)")
	fs.Var(&f.toKeyEnv, "to-key-env", "read the destination key from environment variable `VAR`")
	fs.Var(&f.toKeyFile, "to-key-file", "read the destination key from file `F`")
	fs.Var(&f.toKeyID, "to-key-id", "key version `ID` in the destination's AEAD codec id (default: "+defaultKeyID+")")
	fs.Var(&f.toStore, "to-store", "copy the project into the PostgreSQL database at `URL` (postgres://…), keeping namespace, project and codec")
	fs.Var(&f.fromStore, "from-store", "copy the project from the PostgreSQL database at `URL` into the data home --to-home, keeping namespace, project and codec")
	fs.BoolVar(&f.all, "all-projects", false, "migrate every project of the home and its configuration files")
	fs.BoolVar(&f.dryRun, "dry-run", false, "read and decode every source record and check the destination, writing nothing")
	fs.BoolVar(&f.skip, "skip-unreadable", false, "leave out, and list, source records that do not decode, symlinks and unknown files")
	fs.BoolVar(&f.asJSON, "json", false, "print the report as JSON")
	return cmd
}

func runMigrate(cmd *cobra.Command, g *globalFlags, f *migrateFlags) error {
	if f.fromStore.set {
		if err := checkStoreMigrationFlags(cmd.Flags().Changed, true); err != nil {
			return err
		}
		return runMigrateFromStore(cmd.Context(), g, strings.TrimSpace(f.fromStore.value), f.toHome.value, f.asJSON, cmd.OutOrStdout())
	}
	if f.toStore.set {
		if err := checkStoreMigrationFlags(cmd.Flags().Changed, false); err != nil {
			return err
		}
		return runMigrateToStore(cmd.Context(), g, strings.TrimSpace(f.toStore.value), f.asJSON, cmd.OutOrStdout())
	}
	// Check the command line before anything reads a key or a file.
	if !f.toHome.set || strings.TrimSpace(f.toHome.value) == "" {
		return usagef("migrate needs --to-home DIR, the destination data home")
	}
	if f.toNamespace.set {
		if err := storage.ValidateNamespace(f.toNamespace.value); err != nil {
			return usagef("invalid --to-namespace %q: %w", f.toNamespace.value, err)
		}
	}
	if f.toWorkdir.set {
		switch {
		case f.all:
			return usagef("--to-workdir changes one project's hash; it cannot be combined with --all-projects")
		case strings.TrimSpace(f.toWorkdir.value) == "":
			return usagef("--to-workdir must not be empty")
		}
	}
	if err := f.checkCodecFlags(); err != nil {
		return err
	}
	src, err := g.project()
	if err != nil {
		return err
	}
	workdir, err := g.workdirOption()
	if err != nil {
		return err
	}
	to := storage.Options{Namespace: src.paths.Namespace, Home: f.toHome.value, Codec: src.opts.Codec}
	if f.toNamespace.set {
		to.Namespace = f.toNamespace.value
	}
	if f.toCodec.set {
		if to.Codec, err = f.codec(); err != nil {
			return err
		}
	}

	stderr := cmd.ErrOrStderr()
	pp := newProgressPrinter(stderr, isTerminal(stderr))
	rep, err := migrate.Run(cmd.Context(), migrate.Options{
		From:           migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:             migrate.Endpoint{Workdir: f.toWorkdir.value, Storage: to},
		AllProjects:    f.all,
		DryRun:         f.dryRun,
		SkipUnreadable: f.skip,
		Progress:       pp.update,
	})
	pp.finish()
	switch {
	case errors.Is(err, migrate.ErrOptions):
		return &usageError{err: err}
	case errors.Is(err, migrate.ErrUnreadable) && f.skip:
		return err // every record was unreadable: the message says to check the codec and key
	case errors.Is(err, migrate.ErrUnreadable):
		return fmt.Errorf("%w (if the source's --codec and key are right and only some records are damaged, --skip-unreadable leaves them out and lists them)", err)
	case errors.Is(err, migrate.ErrUnrecognized):
		return fmt.Errorf("%w (--skip-unreadable leaves such entries out and lists them)", err)
	case err != nil && !errors.Is(err, migrate.ErrVerification):
		return err
	}
	out := cmd.OutOrStdout()
	if f.asJSON {
		if werr := writeJSON(out, rep); werr != nil {
			return werr
		}
	} else {
		printMigrateReport(out, rep)
	}
	return err
}

// checkCodecFlags checks the --to-codec and --to-key-* flags for usage
// errors: an unknown codec, two key sources, a key without an encrypting
// codec or the reverse, key flags without --to-codec.
func (f *migrateFlags) checkCodecFlags() error {
	keyFlags := f.toKeyEnv.set || f.toKeyFile.set || f.toKeyID.set
	if !f.toCodec.set {
		if keyFlags {
			return usagef("--to-key-env, --to-key-file and --to-key-id need --to-codec")
		}
		return nil
	}
	name := f.toCodec.value
	if !slices.Contains(codecNames, name) {
		return usagef("invalid --to-codec %q: want one of %s", name, strings.Join(codecNames, ", "))
	}
	key, err := f.keySource()
	if err != nil {
		return err
	}
	switch {
	case isAEAD(name) && key.isZero():
		return usagef("--to-codec %s needs a key: give --to-key-env or --to-key-file", name)
	case !isAEAD(name) && (!key.isZero() || f.toKeyID.set):
		return usagef("--to-key-env, --to-key-file and --to-key-id need an encrypting --to-codec (%s or %s), not %s", codecXChaCha, codecAES256GCM, name)
	}
	return nil
}

// keySource returns where --to-key-env or --to-key-file say the key is.
func (f *migrateFlags) keySource() (keySource, error) {
	switch {
	case f.toKeyEnv.set && f.toKeyFile.set:
		return keySource{}, usagef("--to-key-env and --to-key-file are mutually exclusive")
	case f.toKeyEnv.set:
		if strings.TrimSpace(f.toKeyEnv.value) == "" || strings.Contains(f.toKeyEnv.value, "=") {
			return keySource{}, usagef("--to-key-env must name an environment variable")
		}
		return keySource{env: f.toKeyEnv.value}, nil
	case f.toKeyFile.set:
		if strings.TrimSpace(f.toKeyFile.value) == "" {
			return keySource{}, usagef("--to-key-file must not be empty")
		}
		return keySource{file: f.toKeyFile.value}, nil
	}
	return keySource{}, nil
}

// codec builds the destination codec the flags name; checkCodecFlags has
// accepted them.
func (f *migrateFlags) codec() (storage.Codec, error) {
	key, err := f.keySource()
	if err != nil {
		return nil, err
	}
	keyID := defaultKeyID
	if f.toKeyID.set {
		keyID = f.toKeyID.value
	}
	c, err := buildCodec(f.toCodec.value, key, keyID)
	if err != nil {
		return nil, err
	}
	if c != nil {
		if err := storage.ValidateCodec(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// printMigrateReport writes the text form of a migration report.
func printMigrateReport(w io.Writer, rep migrate.Report) {
	what := "project " + rep.Source.Hash
	if rep.Source.Hash == "" {
		what = fmt.Sprintf("%d projects", len(rep.Projects))
	}
	verb := "migrated"
	if rep.DryRun {
		verb = "dry run: would migrate"
	}
	fmt.Fprintf(w, "%s %s\n  from %s (%s)\n  to   %s (%s)\n", verb, what,
		rep.Source.Root, describeSide(rep.Source), rep.Destination.Root, describeSide(rep.Destination))
	kinds := []storage.Kind{storage.KindCheckpoint, storage.KindArchiveIndex, storage.KindArchive, storage.KindTask, storage.KindSpill}
	for _, k := range kinds {
		c := rep.Kinds[k]
		fmt.Fprintf(w, "  %-14s %6d files %8d records %12s\n", k, c.Files, c.Records, formatBytes(c.Bytes))
	}
	if rep.Config.Files > 0 {
		fmt.Fprintf(w, "  %-14s %6d files %8s %12s\n", "config", rep.Config.Files, "", formatBytes(rep.Config.Bytes))
	}
	fmt.Fprintf(w, "  %d records, %s in %s\n", rep.Records, formatBytes(rep.Bytes), rep.Elapsed.Round(time.Millisecond))
	for _, s := range rep.Skipped {
		rec := ""
		if s.Record != "" {
			rec = " record " + s.Record
		}
		fmt.Fprintf(w, "skipped %s%s: %s\n", s.File, rec, s.Reason)
	}
	for _, p := range rep.Problems {
		rec := ""
		if p.Record != "" {
			rec = " record " + p.Record
		}
		fmt.Fprintf(w, "problem %s%s: %s\n", p.File, rec, p.Message)
	}
	switch {
	case rep.Verified && len(rep.Skipped) > 0:
		fmt.Fprintf(w, "verified: every record copied reads back as its source; the %d source entries listed as skipped are not in the destination\n", len(rep.Skipped))
	case rep.Verified:
		fmt.Fprintln(w, "verified: every record read back decodes with the destination configuration and equals its source")
	case len(rep.Problems) > 0:
		fmt.Fprintf(w, "verification failed: %d problems; the destination stays marked incomplete\n", len(rep.Problems))
	}
}

func describeSide(s migrate.Side) string {
	codec := s.Codec
	if codec == "" {
		codec = "plaintext"
	}
	return "namespace " + s.Namespace + ", " + codec
}

// formatBytes renders n bytes with a binary unit.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// isTerminal reports whether w is a character device, such as a terminal,
// that a redrawn progress bar suits. Anything else gets plain lines.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressPrinter shows the progress of a migration on standard error: on a
// terminal, one line redrawn at most ten times a second; elsewhere, a plain
// line every second. Nothing is printed for a migration that ends within
// its first interval.
type progressPrinter struct {
	w        io.Writer
	tty      bool
	interval time.Duration
	now      func() time.Time

	start time.Time
	last  time.Time
	drawn bool // a bar is on the terminal's current line
}

func newProgressPrinter(w io.Writer, tty bool) *progressPrinter {
	p := &progressPrinter{w: w, tty: tty, interval: time.Second, now: time.Now}
	if tty {
		p.interval = 100 * time.Millisecond
	}
	return p
}

// update is the migration's Progress callback.
func (p *progressPrinter) update(pr migrate.Progress) {
	now := p.now()
	if p.start.IsZero() {
		p.start, p.last = now, now
	}
	if now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	line := progressLine(pr)
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.drawn = true
		return
	}
	fmt.Fprintln(p.w, line)
}

// finish ends the bar's line, so that what follows starts on its own.
func (p *progressPrinter) finish() {
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// progressLine renders one progress report: records done of the total, with
// a percentage, files, and the read rate.
func progressLine(pr migrate.Progress) string {
	pct := 100.0
	if pr.TotalRecords > 0 {
		pct = 100 * float64(pr.Records) / float64(pr.TotalRecords)
	}
	rate := 0.0
	if s := pr.Elapsed.Seconds(); s > 0 {
		rate = float64(pr.Bytes) / s
	}
	return fmt.Sprintf("migrate: %d/%d records (%.0f%%), %d/%d files, %s/s",
		pr.Records, pr.TotalRecords, pct, pr.Files, pr.TotalFiles, formatBytes(int64(rate)))
}
