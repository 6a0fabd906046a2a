package task

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// TestOversizedRecordIsRefused plants a task file that is a sparse file
// over safefs.MaxReadBytes (round 128: lite-agent tasks list, and an
// agent resuming the session, which reads its list for a reminder, ran
// out of memory on a 4 GiB one that cost no disk). Every operation that
// reads it fails with a *storage.Error naming it, and nothing changes.
func TestOversizedRecordIsRefused(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "list", plain)
	mustCreate(t, s, "one")
	big := filepath.Join(dir, "list", "2.json")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, safefs.MaxReadBytes+1); err != nil {
		t.Skip("sparse file:", err)
	}
	before, err := os.Stat(big)
	if err != nil {
		t.Fatal(err)
	}
	for name, fn := range map[string]func() error{
		"Get":  func() error { _, _, err := s.Get(t.Context(), "2"); return err },
		"List": func() error { _, err := s.List(t.Context()); return err },
		"Update": func() error {
			_, err := s.Update(t.Context(), "2", UpdateInput{Subject: ptr("overwritten")})
			return err
		},
	} {
		se := asStorageError(t, fn(), "larger than 1 GiB")
		if filepath.Base(se.File) != "2.json" {
			t.Errorf("%s: error names %q", name, se.File)
		}
	}
	if after, err := os.Stat(big); err != nil || after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the planted file changed: %v", err)
	}
}
