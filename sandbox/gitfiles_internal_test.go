package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

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
