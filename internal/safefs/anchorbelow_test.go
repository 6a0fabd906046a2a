//go:build linux

package safefs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestAnchorBelowADir covers Dir.Anchor and Dir.AnchorExisting: each
// component is made and opened through the directory above it, and must
// be a directory that is no symlink.
func TestAnchorBelowADir(t *testing.T) {
	cases := []struct {
		name     string
		setup    func(t *testing.T, base, outside string)
		rel      string
		existing bool
		wantErr  string // "" for success
		notExist bool   // the error matches fs.ErrNotExist
	}{
		{name: "creates missing directories", rel: "a/b/c"},
		{name: "takes existing directories", rel: "a/b", existing: true,
			setup: func(t *testing.T, base, _ string) { mkdir(t, filepath.Join(base, "a", "b")) }},
		{name: "empty rel is the directory itself", rel: "", existing: true},
		{name: "missing, not created", rel: "a/b", existing: true,
			wantErr: "cannot inspect storage directory", notExist: true},
		{name: "symlink as the last component", rel: "l",
			setup:   func(t *testing.T, base, outside string) { symlink(t, outside, filepath.Join(base, "l")) },
			wantErr: "Storage directory must not be a symlink"},
		{name: "symlink in the middle", rel: "l/x",
			setup:   func(t *testing.T, base, outside string) { symlink(t, outside, filepath.Join(base, "l")) },
			wantErr: "Storage directory must not be a symlink"},
		{name: "symlink in the middle, existing only", rel: "l/x", existing: true,
			setup: func(t *testing.T, base, outside string) {
				mkdir(t, filepath.Join(outside, "x"))
				symlink(t, outside, filepath.Join(base, "l"))
			},
			wantErr: "Storage directory must not be a symlink"},
		{name: "symlink to a directory inside", rel: "l",
			setup: func(t *testing.T, base, _ string) {
				mkdir(t, filepath.Join(base, "real"))
				symlink(t, "real", filepath.Join(base, "l"))
			},
			wantErr: "Storage directory must not be a symlink"},
		{name: "file in the way", rel: "f/x",
			setup: func(t *testing.T, base, _ string) {
				if err := os.WriteFile(filepath.Join(base, "f"), nil, 0o600); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: "Storage directory is not a directory"},
		{name: "dot-dot", rel: "a/../../x", wantErr: "Path escapes workspace"},
		{name: "absolute", rel: "/etc", wantErr: "Path escapes workspace"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base, outside := t.TempDir(), t.TempDir()
			if tc.setup != nil {
				tc.setup(t, base, outside)
			}
			before := safefstest.TreeHash(t, outside, false)
			d, err := safefs.Anchor(base)
			if err != nil {
				t.Fatal(err)
			}
			anchor := d.Anchor
			if tc.existing {
				anchor = d.AnchorExisting
			}
			sub, err := anchor(tc.rel)
			if safefstest.TreeHash(t, outside, false) != before {
				t.Error("the directory outside changed")
			}
			if tc.wantErr != "" {
				wantStorageError(t, err, tc.wantErr)
				if got := errors.Is(err, fs.ErrNotExist); got != tc.notExist {
					t.Errorf("errors.Is(err, fs.ErrNotExist) = %v, want %v", got, tc.notExist)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := filepath.Join(base, tc.rel)
			if sub.Path() != want {
				t.Errorf("Path() = %q, want %q", sub.Path(), want)
			}
			st, err := os.Lstat(want)
			if err != nil {
				t.Fatal(err)
			}
			if !st.IsDir() || (tc.rel != "" && st.Mode().Perm() != safefs.DirMode) {
				t.Errorf("%s: mode %v, want a directory 0700", want, st.Mode())
			}
			if err := sub.WriteFile("x", []byte("x")); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(want, "x")); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestAnchorFromTheDataHome covers Anchor and AnchorExisting of a path
// below <home>/projects/<hash>: the home may be a symlink, nothing from
// projects/ on may be, with the texts CheckProjectDirs and the stores use.
func TestAnchorFromTheDataHome(t *testing.T) {
	const hash = "0123456789abcdef"
	cases := []struct {
		name     string
		link     string // the component made a symlink to outside ("" for none)
		home     bool   // reach the home through a symlink to it
		existing bool
		wantErr  string
	}{
		{name: "plain"},
		{name: "home through a symlink", home: true},
		{name: "home through a symlink, existing", home: true, existing: true},
		{name: "projects is a symlink", link: "projects", wantErr: "Storage directory must not be a symlink"},
		{name: "projects is a symlink, existing", link: "projects", existing: true, wantErr: "Storage directory must not be a symlink"},
		{name: "project is a symlink", link: "projects/" + hash, wantErr: "Storage directory must not be a symlink"},
		{name: "sessions is a symlink", link: "projects/" + hash + "/sessions", wantErr: "Storage directory must not be a symlink"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home, outside := t.TempDir(), t.TempDir()
			sessions := filepath.Join(home, "projects", hash, "sessions")
			mkdir(t, filepath.Dir(sessions))
			if tc.existing {
				mkdir(t, sessions)
			}
			if tc.link != "" {
				// The outside is laid out as the home, so that a followed
				// link would find every directory it needs.
				mkdir(t, filepath.Join(outside, "projects", hash, "sessions"))
				target := filepath.Join(outside, tc.link)
				p := filepath.Join(home, tc.link)
				if err := os.RemoveAll(p); err != nil {
					t.Fatal(err)
				}
				symlink(t, target, p)
			}
			given := home
			if tc.home {
				given = filepath.Join(t.TempDir(), "home-link")
				symlink(t, home, given)
			}
			path := filepath.Join(given, "projects", hash, "sessions")
			before := safefstest.TreeHash(t, outside, false)
			anchor := safefs.Anchor
			if tc.existing {
				anchor = safefs.AnchorExisting
			}
			d, err := anchor(path)
			if safefstest.TreeHash(t, outside, false) != before {
				t.Error("the directory outside changed")
			}
			if tc.wantErr != "" {
				wantStorageError(t, err, tc.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Path() != path {
				t.Errorf("Path() = %q, want %q", d.Path(), path)
			}
			if err := d.Append("s.jsonl", []byte("{}\n"), true); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(sessions, "s.jsonl")); err != nil {
				t.Fatal(err)
			}
			var se *storage.Error
			if err := d.Check(); errors.As(err, &se) {
				t.Fatalf("Check: %v", err)
			}
		})
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o700); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}
