package archive_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
)

func TestNoteRef(t *testing.T) {
	ref := strings.Repeat("ab", 32)
	for _, tt := range []struct {
		name, ref string
		ok        bool
	}{
		{ref + ".md", ref, true},
		{ref, "", false},
		{strings.ToUpper(ref) + ".md", "", false},
		{ref[:63] + ".md", "", false},
		{"." + ref + ".md.0123456789ab.tmp", "", false},
	} {
		if got, ok := archive.NoteRef(tt.name); got != tt.ref || ok != tt.ok {
			t.Errorf("NoteRef(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.ref, tt.ok)
		}
	}
}

// Delete removes an archive that was written (its index and notes), under
// its lock, and leaves no lock behind; the names it wrote are those the
// package exports.
func TestDeleteRemovesTheArchive(t *testing.T) {
	sessions := t.TempDir()
	dir := filepath.Join(sessions, "s1.context")
	a, err := archive.NewFileArchive(dir, archive.Options{SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	e, err := a.Put(t.Context(), "archived text", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{archive.IndexFile, filepath.Join(archive.NotesDir, e.Ref+archive.NoteSuffix)} {
		if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
			t.Errorf("the archive has no %s: %v", rel, err)
		}
	}
	if err := archive.Delete(t.Context(), dir); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(sessions); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
	if err := archive.Delete(t.Context(), dir); err != nil {
		t.Errorf("Delete of a missing archive = %v, want nil", err)
	}
}
