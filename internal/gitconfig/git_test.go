package gitconfig

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitList returns what git config --list reads from the file data, one
// "name\nvalue" or "name" (no "=") record each, and whether git reads it at
// all.
func gitList(t testing.TB, data []byte) (records []string, ok bool) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(f, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "config", "--no-includes", "--file", f, "--list", "-z").Output()
	if err != nil {
		return nil, false
	}
	for rec := range strings.SplitSeq(string(out), "\x00") {
		if rec != "" {
			records = append(records, rec)
		}
	}
	return records, true
}

// adversarial are configuration files made to confuse a reader: each kind
// of input on which the gate's or the sandbox's reader before this package
// read otherwise than git is among them or TestParse's rows.
var adversarial = []string{
	"[core]\n\tfsmonitor = x\n",
	"[core]\n\tfsmonitor = a\\bc\n",
	"[core]\n\tfsmonitor = \" a \"  b  \n",
	"[core]\n\tfsmonitor = a\r\n",
	"[core]\n\tfsmonitor = a\rb\n",
	"[core]\n\tfsmonitor = a\\\r\nb\n",
	"[core]fsmonitor=x\n",
	"[core] fsmonitor = \"x\" # c\n",
	"[core]\n\tfsmonitor = a \\\n\tb\n",
	"[core]\n\tfsmonitor = a\tb\n",
	"[core]\n\tfsmonitor = a\t\n",
	"[core]\r\n\tfsmonitor = x\r\n",
	"[Core]\n\tFSMONITOR\n",
	"[core \"\"]\n\tfsmonitor = x\n",
	"[core.\"x\"]\n\tfsmonitor = x\n",
	"[core.x \"y\"]\n\tfsmonitor = x\n",
	"[Diff.Foo]\n\ttextconv = x\n",
	"[diff \"Foo\"]\n\ttextconv = x\n",
	"[DIFF \"Foo\"]\n\tTextConv = x\n",
	"[diff  \"a b\"]\n\ttextconv = x\n",
	"[diff\t\"a\"]\n\ttextconv = x\n",
	"[diff \"a\"\n\ttextconv = x\n",
	"[diff \"a\" ]\n\ttextconv = x\n",
	"[diff \"a\nb\"]\n\ttextconv = x\n",
	"[core]\n\tfsmonitor = x;y\n",
	"[core]\n\tfsmonitor = \"x;y\"\n",
	"[core]\n\tfsmonitor = x#y\n",
	"[core]\n\t# fsmonitor = x\n",
	"[core]\n\t; fsmonitor = x\n",
	"# [core]\n\tfsmonitor = x\n",
	"[core]\n\tfsmonitor = x\n[core] # c\n\tpager = y\n",
	"[core] ; c\n\tfsmonitor = x\n",
	"[core]\n\tfsmonitor\t=\tx\t\n",
	"[core]\n\tfsmonitor = \"\\\"\"\n",
	"[core]\n\tfsmonitor = \"a\n",
	"[core]\n\tfsmonitor = \\q\n",
	"[core]\n\tfsmonitor = x\\\n",
	"[core]\n\tfsmonitor = x\\",
	"[core]\n\tfsmonitor = x\n\\",
	"[core]\n\tfsmonitor = x\x00y\n",
	"[core \"fsmonitor\x00\"]\n\tx = /evil\n",
	"[core]\n\tfsmon\x00itor = x\n",
	"[co\x00re]\n\tfsmonitor = x\n",
	"\x00[core]\n\tfsmonitor = x\n",
	"\xef\xbb\xbf[core]\n\tfsmonitor = x\n",
	"\xef\xbb[core]\n\tfsmonitor = x\n",
	"\xef\xbb\xbf\xef\xbb\xbf[core]\n\tfsmonitor = x\n",
	"\n\xef\xbb\xbf[core]\n\tfsmonitor = x\n",
	"\v[core]\n\tfsmonitor = x\n",
	"[core]\n\f\tfsmonitor = x\n",
	"[core]\n\tfsmonitor = a\fb\n",
	"[core]\n\tfsmonitor = a\vb\n",
	"[core]\n\tfsmonitor # c\n",
	"[core]\n\tfsmonitor ; c\n",
	"[core]\n\tfsmonitor\r\n",
	"[core]\n\tfsmonitor\rx\n",
	"[core]\n\tfsmonitor \n",
	"[core]\n\tfsmonitor",
	"[core]\n\tfsmonitor =",
	"[core]\n\tfsmonitor =\n",
	"[core]\n\tfsmonitor = \"\"\n",
	"[core]\n\tfsmonitor = \"\" x\n",
	"[core]\n\tfsmonitor-1 = x\n",
	"[core]\n\t1fsmonitor = x\n",
	"[core]\n\t-fsmonitor = x\n",
	"[core]\n\tfs_monitor = x\n",
	"[core]\n\tfs.monitor = x\n",
	"[core]\n\t=x\n",
	"[]\n\tfsmonitor = x\n",
	"[.]\n\tfsmonitor = x\n",
	"[core.]\n\tfsmonitor = x\n",
	"[.core]\n\tfsmonitor = x\n",
	"[co_re]\n\tfsmonitor = x\n",
	"[core]]\n\tfsmonitor = x\n",
	"[[core]\n\tfsmonitor = x\n",
	"[core\n]\n\tfsmonitor = x\n",
	"fsmonitor = x\n",
	"[core]\n\tfsmonitor = x\n\x01\n",
	"[core]\n\tfsmonitor = \xff\xfe\n",
	"[diff \"\xff\"]\n\ttextconv = x\n",
	"[diff \"a\\\"b\"]\n\ttextconv = z\n",
	"[diff \"a\\xb\"]\n\ttextconv = z\n",
	"[diff \"a\\\\b\"]\n\ttextconv = z\n",
	"[diff \"a\\\nb\"]\n\ttextconv = z\n",
	"[diff \"a]b\"]\n\ttextconv = z\n",
	"[include]\n\tpath = x\n",
	"[include]\n\tpath\n",
	"[include]\n\tpath =\n",
	"[include]\n\tpath = a\\\\b\n",
	"[include]\n\tpath = \"a b\"  \n",
	"[include]\n\tpath = ~/x\n",
	"[Include]\n\tPath = x\n",
	"[include.x]\n\tpath = y\n",
	"[include \"x\"]\n\tpath = y\n",
	"[includeIf \"gitdir:x\"]\n\tpath = y\n",
	"[includeif.gitdir:x]\n\tpath = y\n",
	"[includeIf \"onbranch:a.b\"]\n\tpath = y\n",
	"[includeIf \"gitdir:~/w/\"]\n\tpath = y\n",
	"[core]\n\tfsmonitor = " + strings.Repeat("a", 70000) + "\n",
	"[core]\n\tfsmonitor = " + strings.Repeat("a ", 5000) + "\n",
	"[diff \"" + strings.Repeat("x", 5000) + "\"]\n\ttextconv = y\n",
	"[core]\n\t" + strings.Repeat("k", 5000) + " = y\n",
	"[core]\n\tfsmonitor = a\\tb\\nc\\b\n",
	"[core]\n\tfsmonitor = \"a\\\nb\"\n",
	"[core]\n\tfsmonitor = \"a # b\" ; c \" d\n",
	"[core]\n\tfsmonitor = a \" b \" c\n",
	"[core]\n\tfsmonitor = \\\n",
	"[core]\n\tfsmonitor = \\ \n",
	"[alias]\n\tx\n\ty = !sh\n",
	"[alias]\n\tx = \"!sh -c 'a'\" # c\n",
	"[core] fsmonitor\n",
	"[core] fsmonitor = x [diff]\n",
	"[core]\n\tfsmonitor = x\n[",
	"[core]\n\tfsmonitor = x\n[core",
	"[core]\n\tfsmonitor = x\n[core \"",
}

// pieces are what the generated files are made of.
var pieces = []string{"[", "]", "core", "diff", "include", "path", " ", "\t", "\"", "\\", "=", "fsmonitor", "x", "A",
	"\n", "\r\n", "\r", "#", ";", ".", "-", "\x00", "\xef\xbb\xbf", "\v", "\xff", "t", "n", "b", "\"x\""}

// generated returns n files made of pieces in a fixed pseudo-random order.
func generated(n int) []string {
	var out []string
	seed := uint32(1)
	for range n {
		var b strings.Builder
		seed = seed*1664525 + 1013904223
		if seed>>31 == 0 {
			b.WriteString("[core]\n")
		}
		for range 14 {
			seed = seed*1664525 + 1013904223
			b.WriteString(pieces[int(seed>>16)%len(pieces)])
		}
		out = append(out, b.String())
	}
	return out
}

// clip is s, shortened for a message when it is long.
func clip(s string) string {
	if len(s) > 120 {
		return s[:60] + "…" + s[len(s)-40:]
	}
	return s
}

// records is entries as git config --list -z shows them.
func records(entries []Entry) []string {
	var out []string
	for _, e := range entries {
		if e.NoValue {
			out = append(out, e.Name)
		} else {
			out = append(out, e.Name+"\n"+e.Value)
		}
	}
	return out
}
