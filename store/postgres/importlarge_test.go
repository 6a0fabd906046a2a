package postgres_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestImportFilesRefusesAnOversizedRecord plants a context archive note and
// a spilled body that are sparse files over safefs.MaxReadBytes (round 128:
// migrate --to-store held a 3 GiB one, which cost no disk, in memory whole,
// 6.8 GB, and did not finish in 75 s). ImportFiles fails with a
// *storage.Error naming the file and copies nothing.
func TestImportFilesRefusesAnOversizedRecord(t *testing.T) {
	ref := strings.Repeat("a", 64)
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, paths storage.ProjectPaths, ctxDir string) string
	}{
		{"archive note", func(t *testing.T, _ storage.ProjectPaths, ctxDir string) string {
			if err := os.MkdirAll(filepath.Join(ctxDir, archive.NotesDir), 0o700); err != nil {
				t.Fatal(err)
			}
			index := fmt.Sprintf(`{"ref":%q,"preview":"x"}`+"\n", ref)
			if err := os.WriteFile(filepath.Join(ctxDir, archive.IndexFile), []byte(index), 0o600); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(ctxDir, archive.NotesDir, ref+archive.NoteSuffix)
		}},
		{"spilled body", func(t *testing.T, paths storage.ProjectPaths, _ string) string {
			if err := os.MkdirAll(paths.SpillDir, 0o700); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(paths.SpillDir, "0123456789abcdef.txt")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			paths, enc, ctxDir := homeWithOneSession(t)
			big := tc.plant(t, paths, ctxDir)
			if err := os.WriteFile(big, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(big, safefs.MaxReadBytes+1); err != nil {
				t.Skip("sparse file:", err)
			}
			p := project(t, enc)
			_, err := p.ImportFiles(t.Context(), paths)
			var se *storage.Error
			if !errors.As(err, &se) || se.File != big || !strings.Contains(se.Message, "larger than 1 GiB") {
				t.Fatalf("ImportFiles = %v, want a *storage.Error naming %s as too large", err, big)
			}
			if empty, err := p.Empty(t.Context()); err != nil || !empty {
				t.Errorf("the project after the refused import: empty %v, %v", empty, err)
			}
		})
	}
}
