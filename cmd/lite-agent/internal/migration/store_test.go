package migration

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// TestFromStoreRefusesAProjectThatIsNotEmpty: the check comes before the
// database is opened, and the files already there stay.
func TestFromStoreRefusesAProjectThatIsNotEmpty(t *testing.T) {
	home := t.TempDir()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/app", Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(paths.ProjectDir(), "keep")
	if err := os.MkdirAll(paths.ProjectDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keep, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = FromStore(context.Background(), "postgres://127.0.0.1:1/none", nil, paths)
	if err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("FromStore into a project that is not empty: %v", err)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "x" {
		t.Errorf("the file already there: %q, %v", b, err)
	}
}
