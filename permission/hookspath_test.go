package permission

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// core.hooksPath is read as git reads the common forms of its
// configuration files: any letter case of section and key, a key on the
// header's line, quotes, comments; a subsection of core is another
// section. Relative values are below the workdir, ~/ below the home.
// Included files (include.path, includeIf.*.path, relative to the file
// that includes them) are returned and read in turn.
func TestHooksPathDirsReadGitConfig(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	wd, home := filepath.Join(root, "w"), filepath.Join(root, "h")
	files := map[string]string{
		"w/.git/config":        "[core]\n\tbare = false\n[Core \"x\"]\n\thooksPath = sub\n[CORE] HooksPath = \"my hooks\" ; note\n[include]\n\tpath = ../shared.gitconfig\n",
		"w/shared.gitconfig":   "[includeIf \"gitdir:/w/\"]\n\tpath = conf/more\n",
		"w/conf/more":          "[core]\n\thooksPath = deep\n",
		"h/.gitconfig":         "[user]\n\tname = x\n[core]\n\thookspath=~/hk # mine\n",
		"h/.config/git/config": "[core]\n  hooksPath = .husky/_\n",
	}
	writeTree(t, root, files)
	got := hooksPathDirs(wd, home, []string{"HOME=" + home})
	for _, want := range []string{
		filepath.Join(wd, "my hooks"), filepath.Join(home, "hk"), filepath.Join(wd, ".husky/_"),
		filepath.Join(wd, "shared.gitconfig"), filepath.Join(wd, "conf/more"), filepath.Join(wd, "deep"),
	} {
		if !slices.Contains(got, want) {
			t.Errorf("hooksPathDirs = %q, want %q among them", got, want)
		}
	}
	if slices.Contains(got, filepath.Join(wd, "sub")) {
		t.Errorf("hooksPathDirs = %q took core \"x\"'s hooksPath", got)
	}
}

// git skips a UTF-8 byte order mark at the start of a configuration file
// and joins a value continued by a backslash at the end of its line
// (review45g: both hid core.hooksPath, and write_file of
// .githooks/pre-commit was allowed).
func TestHooksPathDirsBOMAndContinuation(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	wd := filepath.Join(root, "w")
	files := map[string]string{
		"w/.git/config": "[include]\n\tpath = ../a.cfg\n\tpath = ../b.cfg\n",
		"w/a.cfg":       "\xef\xbb\xbf[core]\n\thooksPath = .githooks\n",
		"w/b.cfg":       "[core]\n\thooksPath = .other\\\nhooks\n",
	}
	writeTree(t, root, files)
	got := hooksPathDirs(wd, "", []string{})
	for _, want := range []string{filepath.Join(wd, ".githooks"), filepath.Join(wd, ".otherhooks")} {
		if !slices.Contains(got, want) {
			t.Errorf("hooksPathDirs = %q, want %q among them", got, want)
		}
	}
}

// writeTree writes files (paths relative to root, their contents) under
// root, making their directories.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A configuration file git reads but the gate does not read fully (larger
// than maxGitConfigSize) may set core.hooksPath anywhere in the workdir:
// the workdir is returned, so that writes there ask (review45g: a
// hooksPath after 1 MiB of comments was missed and write_file of
// .githooks/pre-commit allowed; real git read it).
func TestHooksPathDirsConfigTooLarge(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	wd := filepath.Join(root, "w")
	big := "[core]\n" + strings.Repeat("# padding\n", maxGitConfigSize/10+1) + "\thooksPath = .githooks\n"
	writeTree(t, root, map[string]string{
		"w/.git/config": "[include]\n\tpath = ../big.cfg\n",
		"w/big.cfg":     big,
	})
	if got := hooksPathDirs(wd, "", []string{}); !slices.Contains(got, wd) && !slices.Contains(got, filepath.Join(wd, ".githooks")) {
		t.Errorf("hooksPathDirs = %q, want the workdir or its .githooks among them", got)
	}
}
