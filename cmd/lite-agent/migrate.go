package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/migration"
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
		Use:   "migrate --to-home DIR | --to-store URL",
		Short: "Copy the project (or the whole home) to a new home, namespace, workdir or codec, verifying every record",
		Long: "migrate reads every record of the project (with --all-projects, of every project and\n" +
			"the home's configuration files) with the configuration the global flags select, writes\n" +
			"it re-encoded into a separate destination and reads it back before it reports success.\n" +
			"The source is only read. The destination (the project directory under --to-home, or\n" +
			"--to-home itself with --all-projects) must not exist or be empty. Without --to-codec the\n" +
			"destination keeps the source's codec and key. Stop every agent using the data and back\n" +
			"it up first. --to-store URL copies the project into a PostgreSQL database instead, and\n" +
			"--from-store URL copies one out of it into --to-home.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMigrate(cmd, g, &f)
		},
	}
	fs := cmd.Flags()
	fs.Var(&f.toHome, "to-home", "destination data home `DIR` (required unless --to-store)")
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
		return usagef("migrate needs a destination: --to-home DIR (a data home) or --to-store URL (a database)")
	}
	noteTilde(cmd.ErrOrStderr(), "--to-home", f.toHome.value)
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
	pp := migration.NewProgress(stderr, migration.IsTerminal(stderr))
	rep, err := migrate.Run(cmd.Context(), migrate.Options{
		From:           migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:             migrate.Endpoint{Workdir: f.toWorkdir.value, Storage: to},
		AllProjects:    f.all,
		DryRun:         f.dryRun,
		SkipUnreadable: f.skip,
		Progress:       pp.Update,
	})
	pp.Finish()
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
		migration.WriteReport(out, rep)
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
	if f.toKeyID.set {
		if err := checkKeyID("to-key-id", f.toKeyID.value); err != nil {
			return err
		}
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
