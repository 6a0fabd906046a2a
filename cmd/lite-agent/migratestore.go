package main

import (
	"context"
	"io"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/migration"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// runMigrateToStore copies the project the global flags select from its
// data home into the database at url (see migration.ToStore).
func runMigrateToStore(ctx context.Context, g *globalFlags, url string, asJSON bool, out io.Writer) error {
	if err := checkStoreURL(url); err != nil {
		return usagef("invalid --to-store: %w", err)
	}
	src, err := g.project()
	if err != nil {
		return err
	}
	rep, err := migration.ToStore(ctx, url, src.enc, src.paths)
	if err != nil {
		return err
	}
	return printStoreMigration(out, rep, asJSON, "into the database", src.paths)
}

// runMigrateFromStore copies the project the global flags select from the
// database at url into the data home toHome (see migration.FromStore).
func runMigrateFromStore(ctx context.Context, g *globalFlags, url, toHome string, asJSON bool, out io.Writer) error {
	if err := checkStoreURL(url); err != nil {
		return usagef("invalid --from-store: %w", err)
	}
	workdir, err := g.workdirOption()
	if err != nil {
		return err
	}
	opts, err := g.storageOptions()
	if err != nil {
		return err
	}
	opts.Home = toHome
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: opts})
	if err != nil {
		return err
	}
	rep, err := migration.FromStore(ctx, url, opts.Codec, paths)
	if err != nil {
		return err
	}
	return printStoreMigration(out, rep, asJSON, "from the database into "+paths.ProjectDir(), paths)
}

// printStoreMigration prints the report of migrate --to-store or
// --from-store.
func printStoreMigration(out io.Writer, rep postgres.FilesReport, asJSON bool, where string, p storage.ProjectPaths) error {
	if asJSON {
		return writeJSON(out, rep)
	}
	return migration.WriteStoreReport(out, rep, where, p)
}

// storeMigrationFlags lists the migrate flags that --to-store cannot take:
// it keeps namespace, project and codec.
var storeMigrationFlags = []string{"to-home", "to-namespace", "to-workdir", "to-codec", "to-key-env", "to-key-file", "to-key-id", "all-projects", "dry-run", "skip-unreadable"}

// checkStoreMigrationFlags rejects the flags that --to-store (or, when
// fromStore, --from-store, which takes --to-home) cannot be combined with.
func checkStoreMigrationFlags(changed func(string) bool, fromStore bool) error {
	flag := "--to-store"
	if fromStore {
		flag = "--from-store"
		if changed("to-store") {
			return usagef("--from-store and --to-store are mutually exclusive")
		}
		if !changed("to-home") {
			return usagef("--from-store needs --to-home DIR, the destination data home")
		}
	}
	for _, name := range storeMigrationFlags {
		if changed(name) && !(fromStore && name == "to-home") {
			return usagef("%s copies one project as it is: --%s cannot be combined with it", flag, name)
		}
	}
	return nil
}
