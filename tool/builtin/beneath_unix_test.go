//go:build unix

package builtin

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestWalkFallback checks the per-component walk used where openat2 is
// missing, directly: it must refuse a link anywhere, report a missing
// component and make directories only when asked.
func TestWalkFallback(t *testing.T) {
	ws := t.TempDir()
	for _, d := range []string{"a/b", "cfg"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("cfg", filepath.Join(ws, "a", "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "a", "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		rel     string
		create  bool
		wantErr error
		made    string // a directory that must exist afterwards
	}{
		{"a/b", false, nil, ""},
		{"a/link", false, errSymlink, ""},
		{"a/link/x", true, errSymlink, ""},
		{"a/missing/x", false, fs.ErrNotExist, ""},
		{"a/file/x", false, fs.ErrNotExist, ""},
		{"a/new/deeper", true, nil, "a/new/deeper"},
	}
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			root, err := openWorkspace(ws, workspaceID(ws))
			if err != nil {
				t.Fatal(err)
			}
			defer root.close()
			d, err := root.walk(tt.rel, tt.create)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("walk(%q) = %v, want %v", tt.rel, err, tt.wantErr)
				}
				if _, err := os.Stat(filepath.Join(ws, "cfg", "x")); err == nil {
					t.Fatalf("walk(%q) made a directory through the link", tt.rel)
				}
				return
			}
			if err != nil {
				t.Fatalf("walk(%q): %v", tt.rel, err)
			}
			defer d.close()
			info, err := os.Stat(filepath.Join(ws, tt.rel))
			if err != nil {
				t.Fatal(err)
			}
			if idOf(info) != d.id {
				t.Errorf("walk(%q) opened another directory", tt.rel)
			}
			chain, err := d.chain(root, len(splitRel(tt.rel)))
			if err != nil || chain[0] != root.id || chain[len(chain)-1] != d.id {
				t.Errorf("chain = %v, %v", chain, err)
			}
		})
	}
}
