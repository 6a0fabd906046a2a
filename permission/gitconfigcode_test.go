package permission

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// gitRepoCode asks, without waiting, when the repository's configuration
// or its common directory's name cannot be read fully (a FIFO, a
// directory, a file over maxGitConfigSize), and names the key and file of
// a command it finds; keys git uses only with a remote count only for
// the subcommands that reach one.
func TestGitRepoCode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, sub, want string
		make            func(t *testing.T, git string)
	}{
		{"none", "status", "", func(t *testing.T, git string) {}},
		{"fifo config", "status", "cannot read", func(t *testing.T, git string) {
			if err := syscall.Mkfifo(filepath.Join(git, "config"), 0o644); err != nil {
				t.Skip("mkfifo:", err)
			}
		}},
		{"fifo commondir", "status", "common directory", func(t *testing.T, git string) {
			if err := syscall.Mkfifo(filepath.Join(git, "commondir"), 0o644); err != nil {
				t.Skip("mkfifo:", err)
			}
		}},
		{"directory config", "diff", "cannot read", func(t *testing.T, git string) {
			mkdirAll(t, filepath.Join(git, "config"))
		}},
		{"large config", "log", "cannot read", func(t *testing.T, git string) {
			writeFile(t, filepath.Join(git, "config"), strings.Repeat("#", maxGitConfigSize+1))
		}},
		{"fsmonitor", "status", "core.fsmonitor = ./mon", func(t *testing.T, git string) {
			writeFile(t, filepath.Join(git, "config"), "[core]\n\tfsmonitor = ./mon\n")
		}},
		{"ssh for status", "status", "", func(t *testing.T, git string) {
			writeFile(t, filepath.Join(git, "config"), "[core]\n\tsshCommand = ./x\n")
		}},
		{"ssh for fetch", "fetch", "core.sshcommand", func(t *testing.T, git string) {
			writeFile(t, filepath.Join(git, "config"), "[core]\n\tsshCommand = ./x\n")
		}},
		// A tab between the words of a value is a space to git before
		// 2.45 and a tab to later versions: the gate reads neither (it
		// read a space before internal/gitconfig).
		{"tab inside a value", "status", "cannot read whole or parse", func(t *testing.T, git string) {
			writeFile(t, filepath.Join(git, "config"), "[alias]\n\tl = log\t--oneline\n")
		}},
		{"tab around a value", "status", "", func(t *testing.T, git string) {
			writeFile(t, filepath.Join(git, "config"), "[alias]\n\tl =\tlog --oneline\t\n")
		}},
		{"NUL ends a subsection", "status", "core.fsmonitor = ./mon", func(t *testing.T, git string) {
			writeFile(t, filepath.Join(git, "config"), "[core \"fsmonitor\x00\"]\n\tx = ./mon\n")
		}},
		{"key with a comment", "status", "cannot read whole or parse", func(t *testing.T, git string) {
			writeFile(t, filepath.Join(git, "config"), "[core]\n\tbare # c\n")
		}},
		{"include loop", "status", "", func(t *testing.T, git string) {
			writeFile(t, filepath.Join(git, "config"), "[include]\n\tpath = config\n")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			wd := t.TempDir()
			git := filepath.Join(wd, ".git")
			mkdirAll(t, git)
			c.make(t, git)
			g := &Gate{workdir: wd}
			got := g.gitRepoCode(gitNetwork(c.sub), false, false)
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("gitRepoCode(%q) = %q, want %q in it", c.sub, got, c.want)
			}
		})
	}
}

// gitPlainSSH takes ssh with options only; shell syntax, a configuration
// file and options that run commands are not plain.
func TestGitPlainSSH(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{
		"ssh": true,
		"ssh -i ~/.ssh/work -o IdentitiesOnly=yes": true,
		"/usr/bin/ssh -p 2222":                     true,
		"ssh -o ProxyCommand=nc":                   false,
		"ssh -oLocalCommand=x":                     false,
		"ssh -o KnownHostsCommand=x":               false,
		"ssh -F cfg":                               false,
		"ssh -vF cfg":                              false,
		"ssh -o 'ProxyCommand nc'":                 false,
		"ssh $X":                                   false,
		"ssh; cat x":                               false,
		"sh -c ssh":                                false,
		"./ssh":                                    false,
		"ssh -i ~other/key":                        false,
	} {
		if got := gitPlainSSH(v, strings.Fields(v)); got != want {
			t.Errorf("gitPlainSSH(%q) = %v, want %v", v, got, want)
		}
	}
}

func mkdirAll(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gitlinks reads the submodules of index files real git wrote: versions
// 2, 3 (an intent-to-add entry's extended flags) and 4 (prefix-compressed
// names), with SHA-1 or SHA-256 object names; it refuses a split index,
// whose entries live in another file.
func TestGitlinksReadsGitsIndex(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, c := range []struct {
		name, init, after string
		hashSize          int
		split             bool
	}{
		{name: "v2", hashSize: 20},
		{name: "v3", after: "echo n > new && git add -N new", hashSize: 20},
		{name: "v4", after: "git update-index --index-version 4", hashSize: 20},
		// Before zz, a name of over 127 bytes: git's varint of the
		// length stripped takes two bytes, and differs from LEB128.
		{name: "v4 long name", after: "mkdir -p " + strings.Repeat("e", 150) + " && touch " + strings.Repeat("e", 150) + "/f && git add . && git update-index --index-version 4", hashSize: 20},
		{name: "sha256 v4", init: "--object-format=sha256", after: "git update-index --index-version 4", hashSize: 32},
		{name: "sha256 v3", init: "--object-format=sha256", after: "echo n > new && git add -N new", hashSize: 32},
		{name: "split", after: "git update-index --split-index", hashSize: 20, split: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			wd := t.TempDir()
			script := `set -e; git init -q ` + c.init + ` .
for d in a/long/dir/one a/long/dir/two zz; do mkdir -p $d; git -C $d init -q ` + c.init + `; echo x > $d/f; git -C $d add f; git -C $d -c user.name=a -c user.email=a@b commit -qm m; done
for f in a/long/dir/file1 a/long/dir/file2 b; do echo y > $f; done
git add a b zz 2>/dev/null
` + c.after
			cmd := exec.Command("/bin/bash", "-c", script)
			cmd.Dir = wd
			cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+wd)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Skipf("git: %v: %s", err, out)
			}
			got, err := gitlinks(filepath.Join(wd, ".git", "index"), c.hashSize)
			if c.split {
				if err == nil {
					t.Fatalf("gitlinks of a split index = %q, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"a/long/dir/one", "a/long/dir/two", "zz"}
			if !slices.Equal(got, want) {
				t.Errorf("gitlinks = %q, want %q", got, want)
			}
		})
	}
}
