package safefs_test

import (
	"errors"
	"os"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestStoresRefuseAnEmptyDirectory checks that the file stores built on
// Anchor refuse an empty directory path with a *storage.Error, as
// task.NewFileStore does, instead of taking the working directory, and
// write nothing there.
func TestStoresRefuseAnEmptyDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	opens := map[string]func() error{
		"session.NewFileCheckpointer": func() error { _, err := session.NewFileCheckpointer("", session.FileOptions{}); return err },
		"archive.NewFileArchive":      func() error { _, err := archive.NewFileArchive("", archive.Options{}); return err },
		"spill.NewFileStore":          func() error { _, err := spill.NewFileStore("", storage.Encoding{}); return err },
	}
	for name, open := range opens {
		var se *storage.Error
		if err := open(); !errors.As(err, &se) {
			t.Errorf("%s(\"\"): err = %v, want a *storage.Error", name, err)
		}
	}
	if ents, err := os.ReadDir("."); err != nil || len(ents) != 0 {
		t.Errorf("the working directory holds %v (%v)", ents, err)
	}
}
