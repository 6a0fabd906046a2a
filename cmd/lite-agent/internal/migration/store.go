package migration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
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
// migrate.MarkerName until the copy is verified. If anything fails, what
// the export made is removed again (see postgres.Project.ExportFiles): not
// the files an agent of the project may have written there meanwhile. The
// database is only read.
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
	created := safefs.MissingDirs(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return rep, err
	}
	marker := filepath.Join(dir, migrate.MarkerName)
	markerMade := false
	defer func() {
		if err == nil {
			return
		}
		// Only what this export made goes: ExportFiles removed its own
		// files; an agent of the project may have written its own there
		// since the check, and they stay, with the directories holding
		// them. If some of the export's files stay, so does the marker.
		if markerMade && !errors.Is(err, postgres.ErrExportLeftFiles) {
			if rerr := os.Remove(marker); rerr != nil {
				err = fmt.Errorf("%w; removing the marker also failed: %w", err, rerr)
			}
		}
		for i := len(created) - 1; i >= 0; i-- {
			if syscall.Rmdir(created[i]) != nil {
				break
			}
		}
	}()
	f, err := os.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return rep, err
	}
	markerMade = true
	if err := f.Close(); err != nil {
		return rep, err
	}
	if rep, err = src.ExportFiles(ctx, paths); err != nil {
		return rep, err
	}
	return rep, os.Remove(marker)
}
