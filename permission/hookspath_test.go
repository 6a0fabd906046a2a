package permission

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// core.hooksPath is read as git reads the common forms of its
// configuration files: any letter case of section and key, a key on the
// header's line, quotes, comments; a subsection of core is another
// section. Relative values are below the workdir, ~/ below the home.
// Included files (include.path, includeIf.*.path, relative to the file
// that includes them) are returned and read in turn.
func TestHooksPathDirsReadGitConfig(t *testing.T) {
	root := t.TempDir()
	wd, home := filepath.Join(root, "w"), filepath.Join(root, "h")
	files := map[string]string{
		"w/.git/config":        "[core]\n\tbare = false\n[Core \"x\"]\n\thooksPath = sub\n[CORE] HooksPath = \"my hooks\" ; note\n[include]\n\tpath = ../shared.gitconfig\n",
		"w/shared.gitconfig":   "[includeIf \"gitdir:/w/\"]\n\tpath = conf/more\n",
		"w/conf/more":          "[core]\n\thooksPath = deep\n",
		"h/.gitconfig":         "[user]\n\tname = x\n[core]\n\thookspath=~/hk # mine\n",
		"h/.config/git/config": "[core]\n  hooksPath = .husky/_\n",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
