package postgres

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
)

// A failed export removes the files it wrote and the directories it made,
// and nothing else: a file another process put in one of its directories
// stays (with the directory), and so does one of the export's files that
// was written to since (named in the error, matching ErrExportLeftFiles).
func TestAbandonRemovesOnlyWhatTheExportWrote(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	w := &exportWriter{root: project}
	mtime := time.Now().Add(-time.Hour).Truncate(time.Second)
	files := map[string]string{
		"sessions/a.jsonl":           "a\n",
		"sessions/b.jsonl":           "b\n",
		"sessions/a.context/i.json":  "i\n",
		"spill/0123456789abcdef.txt": "body",
	}
	for rel, data := range files {
		if err := w.write(filepath.Join(project, rel), []byte(data), mtime); err != nil {
			t.Fatal(err)
		}
	}
	// Another process: a file of its own in a directory the export made,
	// and an append to one of the export's files.
	theirs := filepath.Join(project, "spill", "fedcba9876543210.txt")
	if err := os.WriteFile(theirs, []byte("theirs"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(project, "sessions", "b.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("appended\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	failed := errors.New("export failed")
	err = w.abandon(failed)
	if !errors.Is(err, failed) || !errors.Is(err, ErrExportLeftFiles) {
		t.Errorf("abandon: %v; want the export's error and ErrExportLeftFiles", err)
	}
	for rel, there := range map[string]bool{
		"sessions/a.jsonl":           false,
		"sessions/a.context":         false,
		"spill/0123456789abcdef.txt": false,
		"sessions/b.jsonl":           true,
		"spill/fedcba9876543210.txt": true,
	} {
		if _, err := os.Lstat(filepath.Join(project, rel)); (err == nil) != there {
			t.Errorf("%s: there %v, want %v", rel, err == nil, there)
		}
	}
	if b, err := os.ReadFile(theirs); err != nil || string(b) != "theirs" {
		t.Errorf("the other process's file: %q %v", b, err)
	}
}

// The writer never writes outside its destination, whatever path an
// export hands it: such a path is a *storage.Error and nothing is made.
func TestExportWriterStaysInItsDestination(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "home", "project")
	for _, rel := range []string{"../outside.txt", "../../outside.txt", "sessions/../../outside.txt", ".."} {
		w := &exportWriter{root: project}
		err := w.write(filepath.Join(project, rel), []byte("x"), time.Time{})
		var se *storage.Error
		if !errors.As(err, &se) {
			t.Errorf("write %s: %v, want a *storage.Error", rel, err)
		}
		if len(w.files) != 0 || len(w.dirs) != 0 {
			t.Errorf("write %s made %v %v", rel, w.files, w.dirs)
		}
	}
	if got, err := os.ReadDir(root); err != nil || len(got) != 0 {
		t.Errorf("the refused writes made %v (%v)", got, err)
	}
}
