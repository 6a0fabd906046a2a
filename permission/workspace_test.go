package permission

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestRealPathResolvesLinksIncludingDanglingOnes(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755))
	must(os.Symlink("real", filepath.Join(dir, "rel")))
	must(os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "abs")))
	must(os.Symlink("missing/target", filepath.Join(dir, "dangling")))
	must(os.Symlink("loop", filepath.Join(dir, "loop")))
	must(os.Symlink("../real/sub", filepath.Join(dir, "real", "up")))
	must(os.WriteFile(filepath.Join(dir, "file"), nil, 0o644))
	tests := []struct {
		in, want string
	}{
		{"real/sub", "real/sub"},
		{"rel/sub/x", "real/sub/x"},
		{"abs/sub", "real/sub"},
		{"dangling", "missing/target"},
		{"dangling/more", "missing/target/more"},
		{"real/up/y", "real/sub/y"},
		{"rel/../file", "file"}, // .. after a link is taken from the link's target
		{"file/x", "file/x"},
		{"nope/a/b", "nope/a/b"},
	}
	for _, tt := range tests {
		got, err := realPath(filepath.Join(dir, tt.in))
		if err != nil {
			t.Errorf("realPath(%s): %v", tt.in, err)
			continue
		}
		if want := filepath.Join(dir, tt.want); got != want {
			t.Errorf("realPath(%s) = %s, want %s", tt.in, got, want)
		}
	}
	if _, err := realPath(filepath.Join(dir, "loop", "x")); err == nil {
		t.Error("a link loop resolved")
	}
}

func TestSpellingsSeparateCanonicalFromOtherForms(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "private"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("private", filepath.Join(ws, "alias")); err != nil {
		t.Fatal(err)
	}
	r, err := newFSResolver(ws, "/home/u")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := r.spell("alias/../alias/secret")
	if err != nil {
		t.Fatal(err)
	}
	wantTrusted := []string{filepath.ToSlash(filepath.Join(ws, "private/secret")), "private/secret"}
	if !slices.Equal(sp.trusted, wantTrusted) {
		t.Errorf("trusted = %q, want %q", sp.trusted, wantTrusted)
	}
	for _, s := range []string{"alias/secret", "alias/../alias/secret", filepath.ToSlash(filepath.Join(ws, "alias/secret"))} {
		if !slices.Contains(sp.other, s) {
			t.Errorf("other %q lacks %q", sp.other, s)
		}
	}
	sp, _ = r.spell("~/x")
	if !slices.Contains(sp.other, "/home/u/x") {
		t.Errorf("other %q lacks the ~ expansion", sp.other)
	}
}

func TestCaseFoldingOnlyOnCaseInsensitiveVolumes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if caseInsensitive(dir) {
		t.Skip("the temporary directory is on a case-insensitive volume")
	}
	// On this volume .env and .ENV are different files: nothing is folded.
	r, err := newFSResolver(dir, "/h")
	if err != nil {
		t.Fatal(err)
	}
	if r.fold {
		t.Fatal("fold set on a case-sensitive volume")
	}
	if err := os.WriteFile(filepath.Join(dir, ".env"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	sp, _ := r.spell(".ENV")
	if slices.Contains(sp.trusted, ".env") {
		t.Errorf("trusted %q folded .ENV on a case-sensitive volume", sp.trusted)
	}
	// diskCase is what a case-insensitive volume uses: it spells each
	// existing component as the directory lists it.
	if err := os.MkdirAll(filepath.Join(dir, "Dir", "SSH"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, want := diskCase(filepath.Join(dir, "dir", "ssh", "ID_RSA")), filepath.Join(dir, "Dir", "SSH", "ID_RSA"); got != want {
		t.Errorf("diskCase = %s, want %s", got, want)
	}
	if got, want := diskCase(filepath.Join(dir, ".ENV")), filepath.Join(dir, ".env"); got != want {
		t.Errorf("diskCase = %s, want %s", got, want)
	}
}

func TestFlipCase(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"abc": "Abc", "ABC": "aBC", "123x": "123X", "123": "123", "": "", "é": "É"} {
		if got := flipCase(in); got != want {
			t.Errorf("flipCase(%q) = %q, want %q", in, got, want)
		}
	}
}
