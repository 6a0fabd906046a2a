package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// runMigrateToStore copies the project the global flags select from its
// data home into the database at url, keeping namespace, project hash and
// codec (see postgres.Project.ImportFiles): the destination project must
// be empty, every record is read back and compared, and a failed copy is
// deleted. The files are only read.
func runMigrateToStore(ctx context.Context, g *globalFlags, url string, asJSON bool, out io.Writer) error {
	if err := checkStoreURL(url); err != nil {
		return usagef("invalid --to-store: %w", err)
	}
	src, err := g.project()
	if err != nil {
		return err
	}
	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer st.Close()
	dst, err := st.Project(src.enc)
	if err != nil {
		return err
	}
	rep, err := dst.ImportFiles(ctx, src.paths)
	if err != nil {
		return err
	}
	return printStoreMigration(out, rep, asJSON, "into the database", src.paths)
}

// runMigrateFromStore copies the project the global flags select from the
// database at url into the data home toHome, keeping namespace, project
// hash and codec (see postgres.Project.ExportFiles). The project
// directory under toHome must not exist or be empty; it carries
// migrate.MarkerName until the copy is verified, and is removed again if
// anything fails. The database is only read.
func runMigrateFromStore(ctx context.Context, g *globalFlags, url, toHome string, asJSON bool, out io.Writer) (err error) {
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
	dir := paths.ProjectDir()
	if ents, err := os.ReadDir(dir); err != nil && !os.IsNotExist(err) {
		return err
	} else if len(ents) > 0 {
		return fmt.Errorf("%s is not empty: migrate only into an empty project directory", dir)
	}
	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer st.Close()
	src, err := st.Project(storage.Encoding{Codec: opts.Codec, Namespace: paths.Namespace, ProjectID: paths.Hash})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			if rerr := os.RemoveAll(dir); rerr != nil {
				err = fmt.Errorf("%w; removing the partial copy also failed: %w", err, rerr)
			}
		}
	}()
	marker := dir + string(os.PathSeparator) + migrate.MarkerName
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		return err
	}
	rep, err := src.ExportFiles(ctx, paths)
	if err != nil {
		return err
	}
	if err := os.Remove(marker); err != nil {
		return err
	}
	return printStoreMigration(out, rep, asJSON, "from the database into "+dir, paths)
}

// printStoreMigration prints the report of migrate --to-store or
// --from-store.
func printStoreMigration(out io.Writer, rep postgres.FilesReport, asJSON bool, where string, p storage.ProjectPaths) error {
	if asJSON {
		return writeJSON(out, rep)
	}
	_, err := fmt.Fprintf(out, "migrated project %s (namespace %s) %s\n  %d sessions (%d records), %d archives, %d task lists (%d tasks), %d spilled bodies\nverified: every record read back equals its source\n",
		p.Hash, p.Namespace, where, rep.Sessions, rep.Records, rep.Archives, rep.TaskLists, rep.Tasks, rep.Spilled)
	return err
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
