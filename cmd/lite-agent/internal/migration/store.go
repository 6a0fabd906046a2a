package migration

import (
	"context"
	"fmt"
	"os"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// ToStore copies the project of the data home at paths, whose records are
// encoded as enc says, into the database at url, keeping namespace,
// project hash and codec (see postgres.Project.ImportFiles): the
// destination project must be empty, every record is read back and
// compared, and a failed copy is deleted. The files are only read.
func ToStore(ctx context.Context, url string, enc storage.Encoding, paths storage.ProjectPaths) (postgres.FilesReport, error) {
	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		return postgres.FilesReport{}, fmt.Errorf("open store: %w", err)
	}
	defer st.Close()
	dst, err := st.Project(enc)
	if err != nil {
		return postgres.FilesReport{}, err
	}
	return dst.ImportFiles(ctx, paths)
}

// FromStore copies the project at paths (in the destination data home),
// encoded with codec, from the database at url into that home, keeping
// namespace, project hash and codec (see postgres.Project.ExportFiles).
// The project directory must not exist or be empty; it carries
// migrate.MarkerName until the copy is verified, and is removed again if
// anything fails. The database is only read.
func FromStore(ctx context.Context, url string, codec storage.Codec, paths storage.ProjectPaths) (postgres.FilesReport, error) {
	return fromStore(ctx, url, codec, paths, nil)
}

// fromStore is FromStore with a hook run once the project directory was
// found empty, for tests.
func fromStore(ctx context.Context, url string, codec storage.Codec, paths storage.ProjectPaths, checked func()) (rep postgres.FilesReport, err error) {
	dir := paths.ProjectDir()
	if ents, err := os.ReadDir(dir); err != nil && !os.IsNotExist(err) {
		return rep, err
	} else if len(ents) > 0 {
		return rep, fmt.Errorf("%s is not empty: migrate only into an empty project directory", dir)
	}
	if checked != nil {
		checked()
	}
	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		return rep, fmt.Errorf("open store: %w", err)
	}
	defer st.Close()
	src, err := st.Project(storage.Encoding{Codec: codec, Namespace: paths.Namespace, ProjectID: paths.Hash})
	if err != nil {
		return rep, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return rep, err
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
		return rep, err
	}
	if rep, err = src.ExportFiles(ctx, paths); err != nil {
		return rep, err
	}
	return rep, os.Remove(marker)
}
