package task

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

func TestRecordStem(t *testing.T) {
	for _, tt := range []struct {
		name, stem string
		ok         bool
	}{
		{"1.json", "1", true},
		{".._secret.json", ".._secret", true},
		{".json", "", false},
		{"1.json.tmp", "", false},
		{SharedMarker, "", false},
	} {
		if stem, ok := RecordStem(tt.name); stem != tt.stem || ok != tt.ok {
			t.Errorf("RecordStem(%q) = %q, %v; want %q, %v", tt.name, stem, ok, tt.stem, tt.ok)
		}
	}
}

func TestDeleteList(t *testing.T) {
	tasksDir := t.TempDir()
	for _, id := range []string{"mine", "other"} {
		st, err := NewFileStore(tasksDir, id, storage.Encoding{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Create(t.Context(), CreateInput{Subject: "s"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := DeleteList(t.Context(), tasksDir, "mine"); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(tasksDir)
	if len(ents) != 1 || ents[0].Name() != "other" {
		t.Errorf("left %v, want only the other list", ents)
	}
	if err := DeleteList(t.Context(), tasksDir, "mine"); err != nil {
		t.Errorf("deleting a missing list = %v, want nil", err)
	}
	var se *storage.Error
	if err := DeleteList(t.Context(), tasksDir, "../other"); !errors.As(err, &se) {
		t.Errorf("an invalid list id = %v, want a *storage.Error", err)
	}
	if _, err := os.Stat(filepath.Join(tasksDir, "other")); err != nil {
		t.Errorf("the other list is gone: %v", err)
	}
}
