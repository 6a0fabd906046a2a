package shellscan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCdByEnvironment checks that a cd the environment may send elsewhere
// (Options.Env) leaves the working directory unknown, so that a relative
// write after it is opaque (redteam130: with CDPATH=.:~, cd .ssh && echo
// k >> authorized_keys wrote ~/.ssh/authorized_keys in real bash), while
// a cd the environment leaves where its operand says is followed as
// before. HOME in env stands for the home.
func TestCdByEnvironment(t *testing.T) {
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "w")
	for _, d := range []string{filepath.Join(home, ".ssh"), filepath.Join(home, "x"), filepath.Join(wd, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(home, "x"), filepath.Join(wd, "sub", "deep")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env, line string
		opaque    bool
	}{
		{"CDPATH=.:HOME", "cd .ssh && echo k >> authorized_keys", true},
		{"CDPATH=HOME", "pushd .ssh; echo k >> authorized_keys", true},
		{"CDPATH=:HOME", "cd .ssh/ && echo k >> authorized_keys", true},
		{"CDPATH=rel", "cd sub && echo x > f", true},
		{"CDPATH=.:HOME", "mkdir -p sub/x && cd x && echo x > f", true},
		{"BASHOPTS=cdable_vars:checkwinsize", "cd HOME && echo x >> .bashrc", true},
		{"SHELLOPTS=braceexpand:physical", "cd sub/deep/.. && echo x >> .bashrc", true},
		{"CDPATH=.:HOME", "cd sub && echo x > f", false},
		{"CDPATH=.:HOME", "cd x && echo x > f", true},
		{"CDPATH=HOME:.", "cd x && echo x > f", true},
		{"CDPATH=HOME", "cd x && echo x > f", true},
		{"CDPATH=:HOME", "cd sub && echo x > f", false},
		{"CDPATH=HOME", "cd sub && echo x > f", false},
		{"CDPATH=.:HOME", "cd ./.ssh && echo x > f", false},
		{"CDPATH=.", "cd .ssh && echo x > f", false},
		{"BASHOPTS=cdable_vars", "cd sub && echo x > f", false},
		{"SHELLOPTS=braceexpand", "cd sub/deep/.. && echo x >> .bashrc", false},
		{"SHELLOPTS=physical", "cd sub && echo x > f", false},
	} {
		env := []string{"HOME=" + home, strings.ReplaceAll(c.env, "HOME", home)}
		a := Analyze(c.line, Options{Home: home, Workdir: wd, Env: env})
		if a.Opaque != c.opaque {
			t.Errorf("%q with %s: opaque %v (%q), want %v", c.line, c.env, a.Opaque, a.Reasons, c.opaque)
		}
	}
}

// TestCdInLoop checks that a cd of a relative operand in a loop, which
// may run again from where it led, leaves the working directory unknown
// (redteam130: for i in 1 2; do cd sub; done; echo x >> .bashrc, with
// sub/sub a link to the home, wrote ~/.bashrc in real bash), while a cd
// that leads to the same place each time, or one after the loop, is
// followed as before.
func TestCdInLoop(t *testing.T) {
	for _, c := range []struct {
		line   string
		opaque bool
	}{
		{"for i in 1 2; do cd sub; done; echo x >> .bashrc", true},
		{"while cd sub; do :; done; echo x >> .bashrc", true},
		{"until ! pushd sub; do :; done; echo x >> .bashrc", true},
		{"for i in 1 2; do echo x >> .bashrc; cd sub; done", true},
		{"for i in 1 2; do cd sub && echo x > f; done", true},
		{"for i in 1 2; do cd ..; done; echo x > f", true},
		{"for i in 1 2; do cd /w/sub; echo x > f; done", false},
		{"for i in 1 2; do cd .; echo x > f; done", false},
		{"for f in a b; do cat $f; done; cd sub && echo x > f", false},
	} {
		if a := Analyze(c.line, Options{Home: "/h", Workdir: "/w"}); a.Opaque != c.opaque {
			t.Errorf("%q: opaque %v (%q), want %v", c.line, a.Opaque, a.Reasons, c.opaque)
		}
	}
}

// TestPathFromWorkingDirectory checks that a program run by its bare name
// that the line wrote into a directory of the environment's PATH taken
// from the working directory (".", an empty entry, bin) makes the line
// opaque (redteam130: with PATH=.:/usr/bin, printf … > cat && chmod +x
// cat && cat README.md ran the cat it wrote), while one written
// elsewhere, or under an absolute PATH, is judged as before.
func TestPathFromWorkingDirectory(t *testing.T) {
	for _, c := range []struct {
		path, line string
		opaque     bool
	}{
		{".:/usr/bin", "printf x > cat && chmod +x cat && cat README.md", true},
		{"/usr/bin:", "printf x > lint-all && chmod +x lint-all && lint-all", true},
		{"/usr/bin::/bin", "cp kit/tool git && git status", true},
		{"node_modules/.bin:/usr/bin", "printf x > node_modules/.bin/grep && grep -r x .", true},
		{"./bin:/usr/bin", "cp -r kit/bin . && ls", true},
		{".:/usr/bin", "printf x > sub/ls && cd sub && ls", true},
		{".:/usr/bin", "printf x > sub/ls && ls", false},
		{"./bin:/usr/bin", "printf x > cat && cat README.md", false},
		{"/usr/bin:/bin", "printf x > cat && cat README.md", false},
		{".:/usr/bin", "python3 -m spacy info", false},
		{".:/usr/bin", "rm -f cat && cat README.md", false},
	} {
		a := Analyze(c.line, Options{Home: "/h", Workdir: "/w", Env: []string{"PATH=" + c.path}})
		if a.Opaque != c.opaque {
			t.Errorf("%q with PATH=%s: opaque %v (%q), want %v", c.line, c.path, a.Opaque, a.Reasons, c.opaque)
		}
	}
}
