package postgres_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestFilesRefuseALinkedProjectsOrProjectDir plants a projects/ or
// projects/<hash> that is a symlink to a directory outside the data home
// (round 128): ImportFiles read the project the link led to, and
// ExportFiles (migrate --from-store --to-home) wrote the project there.
// Both now fail with migrate.ErrSymlink; the import copies nothing and the
// export leaves the directory the link leads to empty.
func TestFilesRefuseALinkedProjectsOrProjectDir(t *testing.T) {
	for _, link := range []string{"projects", "project"} {
		linkOf := func(paths storage.ProjectPaths) string {
			if link == "projects" {
				return storage.ProjectsDir(paths.Home)
			}
			return paths.ProjectDir()
		}
		t.Run("import "+link, func(t *testing.T) {
			paths, enc, _ := homeWithOneSession(t)
			dir := linkOf(paths)
			outside := filepath.Join(t.TempDir(), "elsewhere")
			if err := os.Rename(dir, outside); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, dir); err != nil {
				t.Fatal(err)
			}
			p := project(t, enc)
			_, err := p.ImportFiles(t.Context(), paths)
			if !errors.Is(err, migrate.ErrSymlink) {
				t.Fatalf("ImportFiles = %v, want ErrSymlink", err)
			}
			if se := (*storage.Error)(nil); !errors.As(err, &se) || se.File != dir {
				t.Errorf("ImportFiles = %v, want a *storage.Error naming %s", err, dir)
			}
			if empty, err := p.Empty(t.Context()); err != nil || !empty {
				t.Errorf("the project after the refused import: empty %v, %v", empty, err)
			}
		})
		t.Run("export "+link, func(t *testing.T) {
			src, enc, _ := homeWithOneSession(t)
			p := project(t, enc)
			if _, err := p.ImportFiles(t.Context(), src); err != nil {
				t.Fatal(err)
			}
			paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/app", Storage: storage.Options{Home: t.TempDir()}})
			if err != nil {
				t.Fatal(err)
			}
			dir := linkOf(paths)
			if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
				t.Fatal(err)
			}
			outside := t.TempDir()
			if err := os.Symlink(outside, dir); err != nil {
				t.Fatal(err)
			}
			_, err = p.ExportFiles(t.Context(), paths)
			if !errors.Is(err, migrate.ErrSymlink) {
				t.Fatalf("ExportFiles = %v, want ErrSymlink", err)
			}
			if se := (*storage.Error)(nil); !errors.As(err, &se) || se.File != dir {
				t.Errorf("ExportFiles = %v, want a *storage.Error naming %s", err, dir)
			}
			if ents, err := os.ReadDir(outside); err != nil || len(ents) != 0 {
				t.Errorf("the directory the link leads to holds %v (%v), want it empty", ents, err)
			}
		})
	}
}
