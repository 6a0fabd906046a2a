package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readGitlinks finds the gitlinks of indexes git writes: versions 2, 3
// (an intent-to-add entry has the extended flags) and 4 (names
// prefix-compressed), with SHA-1 and SHA-256 object names, among long and
// short names that share prefixes.
func TestReadGitlinksOfRealIndexes(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for _, format := range []string{"sha1", "sha256"} {
		for _, version := range []string{"2", "3", "4"} {
			t.Run(format+"/v"+version, func(t *testing.T) {
				dir := t.TempDir()
				git := func(args ...string) {
					t.Helper()
					cmd := exec.Command("git", args...)
					cmd.Dir = dir
					cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("git %v: %v\n%s", args, err, out)
					}
				}
				git("init", "-q", "--object-format="+format, ".")
				var want []string
				for i := range 40 {
					name := fmt.Sprintf("pkg/%s/file%02d.txt", strings.Repeat("d", i%7+1), i)
					if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				// A long name before a short one: version 4 strips more
				// than 127 bytes, which takes git's varint two bytes.
				long := filepath.Join(dir, "pkg", strings.Repeat("e", 150), "f.txt")
				if err := os.MkdirAll(filepath.Dir(long), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(long, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				git("add", "pkg")
				git("update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("cd", hashLenOf(format))+",pkh/sub")
				want = append(want, "pkh/sub")
				for i := 0; i < 40; i += 9 {
					// Added after git add, which would drop them: no directory.
					link := fmt.Sprintf("pkg/%s/sub%02d", strings.Repeat("d", i%7+1), i)
					hash := strings.Repeat("ab", 20)
					if format == "sha256" {
						hash = strings.Repeat("ab", 32)
					}
					git("update-index", "--add", "--cacheinfo", "160000,"+hash+","+link)
					want = append(want, link)
				}
				if version == "3" {
					if err := os.WriteFile(filepath.Join(dir, "later.txt"), nil, 0o644); err != nil {
						t.Fatal(err)
					}
					git("add", "-N", "later.txt")
				}
				git("update-index", "--index-version", version)
				data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
				if err != nil {
					t.Fatal(err)
				}
				if got := data[7]; fmt.Sprint(got) != version {
					t.Fatalf("index version %d, want %s", got, version)
				}
				hashLen := hashLenOf(format)
				got, err := readGitlinks(data, hashLen)
				if err != nil {
					t.Fatal(err)
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("gitlinks = %q, want %q", got, want)
				}
				// A split index is opaque.
				git("update-index", "--split-index")
				split, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
				if err != nil {
					t.Fatal(err)
				}
				if links, err := readGitlinks(split, hashLen); err == nil {
					t.Errorf("split index read as %q", links)
				}
				git("update-index", "--no-split-index")
				// Cut anywhere in the entries, the index is opaque, never misread.
				for cut := 12; cut < len(data)-100; cut += 97 {
					if links, err := readGitlinks(data[:cut], hashLen); err == nil && len(links) == len(want) {
						t.Errorf("cut at %d: %q, nil error", cut, links)
					}
				}
			})
		}
	}
}

func hashLenOf(format string) int {
	if format == "sha256" {
		return 32
	}
	return 20
}

// parseGitConfig reads the keys git reads, and refuses what it does not
// understand rather than guessing.
func TestParseGitConfig(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // key=value
		bad  bool
	}{
		{name: "plain", in: "[core]\n\tbare = false\n\tFSMonitor = \"a b\" ; c\n", want: []string{"core.bare=false", "core.fsmonitor=a b"}},
		{name: "subsection keeps case", in: "[diff \"Foo\"]\n\ttextconv = x\n", want: []string{"diff.Foo.textconv=x"}},
		{name: "old subsection", in: "[Diff.Foo]\ntextconv=x\n", want: []string{"diff.foo.textconv=x"}},
		{name: "implicit true", in: "[alias]\n\tx\n", want: []string{"alias.x="}},
		{name: "continuation", in: "[core]\n\tpager = a\\\n b\n", want: []string{"core.pager=a b"}},
		{name: "escapes", in: "[core]\n\tpager = \"a\\tb\\\"\"\n", want: []string{"core.pager=a\tb\""}},
		{name: "comment lines and BOM", in: "\xef\xbb\xbf# x\n; y\n[core]\n# [alias]\n\tpager = p\n", want: []string{"core.pager=p"}},
		{name: "key before section", in: "pager = p\n", bad: true},
		{name: "unterminated quote", in: "[core]\n\tpager = \"p\n", bad: true},
		{name: "unknown escape", in: "[core]\n\tpager = \\q\n", bad: true},
		{name: "bad section", in: "[core\n\tpager = p\n", bad: true},
		{name: "junk", in: "[core]\n\t=p\n", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries, err := parseGitConfig([]byte(tt.in))
			if tt.bad {
				if err == nil {
					t.Errorf("parsed %q as %v, want an error", tt.in, entries)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.key+"="+e.value)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// parseGitConfig never panics, whatever the bytes.
func FuzzParseGitConfig(f *testing.F) {
	f.Add([]byte("[core]\n\tfsmonitor = x\n"))
	f.Add([]byte("[include]\n\tpath = ../x\n[diff \"a\"]\n\ttextconv = \"sh -c 'x'\" # y\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parseGitConfig(data) // must not panic
	})
}

// readGitlinks never panics, whatever the bytes: an index a command wrote
// is the command's.
func FuzzReadGitlinks(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"), 20)
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x02"), 32)
	f.Fuzz(func(t *testing.T, data []byte, hashLen int) {
		if hashLen != 20 && hashLen != 32 {
			return
		}
		readGitlinks(data, hashLen)
	})
}

// On configurations made to confuse a reader, parseGitConfig either
// refuses (the repository then counts as one that runs code) or reads
// the keys and values git config reads.
func TestParseGitConfigAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	inputs := []string{
		"[core]\n\tfsmonitor = x\n",
		"[core]\n\tfsmonitor = a\\bc\n",
		"[core]\n\tfsmonitor = \" a \"  b  \n",
		"[core]\n\tfsmonitor = a\r\n",
		"[core]\n\tfsmonitor = a\\\r\nb\n",
		"[core]fsmonitor=x\n",
		"[core] fsmonitor = \"x\" # c\n",
		"[core]\n\tfsmonitor = a \\\n\tb\n",
		"[core]\r\n\tfsmonitor = x\r\n",
		"[Core]\n\tFSMONITOR\n",
		"[core \"\"]\n\tfsmonitor = x\n",
		"[core.\"x\"]\n\tfsmonitor = x\n",
		"[core]\n\tfsmonitor = x;y\n",
		"[core]\n\tfsmonitor = \"x;y\"\n",
		"[core]\n\t# fsmonitor = x\n",
		"[core]\n\tfsmonitor = x\n[core] # c\n\tpager = y\n",
		"[core]\n\tfsmonitor\t=\tx\t\n",
		"[core]\n\tfsmonitor = \"\\\"\"\n",
		"[include]\n\tpath = a\\\\b\n",
		"[include]\n\tpath = \"a b\"  \n",
		"[includeIf \"gitdir:x\"]\n\tpath = y\n",
		"[diff \"a\\\"b\"]\n\ttextconv = z\n",
		"[diff \"a\\xb\"]\n\ttextconv = z\n",
		"[core]\n\tfsmonitor = x\\\n",
		"[core]\n\tfsmonitor = x\x00\n",
		"\v[core]\n\tfsmonitor = x\n",
		"[core]\n\f\tfsmonitor = x\n",
	}
	// And made of the pieces such files are made of, in a fixed
	// pseudo-random order.
	pieces := []string{"[", "]", "core", "diff", " ", "\t", "\"", "\\", "=", "fsmonitor", "path", "x", "\n", "#", ";", ".", "\r", "-", "A"}
	seed := uint32(1)
	for range 600 {
		var b strings.Builder
		b.WriteString("[core]\n")
		for range 12 {
			seed = seed*1664525 + 1013904223
			b.WriteString(pieces[int(seed>>16)%len(pieces)])
		}
		inputs = append(inputs, b.String())
	}
	compared := 0
	defer func() { t.Logf("%d of %d inputs read by both", compared, len(inputs)) }()
	for i, in := range inputs {
		entries, err := parseGitConfig([]byte(in))
		if err != nil {
			continue
		}
		f := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(f, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		out, gerr := exec.Command("git", "config", "--no-includes", "--file", f, "--list", "-z").Output()
		if gerr != nil {
			continue // git refuses the file, and every command with it: nothing runs
		}
		compared++
		var got, want []string
		for _, e := range entries {
			v := e.value
			if e.implicit {
				got = append(got, e.key)
				continue
			}
			got = append(got, e.key+"\n"+v)
		}
		for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			if rec != "" {
				want = append(want, rec)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("input %d %q: got %q, git reads %q", i, in, got, want)
		}
	}
}
