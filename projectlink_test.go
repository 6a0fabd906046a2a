package liteagent_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// New refuses a data home whose projects directory, or the project's
// directory in it, is a symbolic link, with a *storage.Error, and writes
// nothing where the link leads.
func TestNewRefusesALinkedProjectsOrProjectDir(t *testing.T) {
	for _, which := range []string{"projects", "project"} {
		t.Run(which, func(t *testing.T) {
			home, wd, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
			so := storage.Options{Home: home}
			paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: wd, Storage: so})
			if err != nil {
				t.Fatal(err)
			}
			link := storage.ProjectsDir(home)
			if which == "project" {
				link = paths.ProjectDir()
				if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(elsewhere, link); err != nil {
				t.Fatal(err)
			}
			a, err := liteagent.New(t.Context(), liteagent.Options{Model: modeltest.New(), ModelName: "m", Workdir: wd, Storage: so})
			if err == nil {
				a.Close()
				t.Fatal("New succeeded through a linked directory")
			}
			var se *storage.Error
			if !errors.As(err, &se) || se.File != link {
				t.Errorf("New: %v, want a *storage.Error naming %s", err, link)
			}
			if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
				t.Errorf("New wrote %d entries where the link leads", len(ents))
			}
		})
	}
}
