package gitconfig

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Parse reads the variables git reads, and refuses what git refuses or
// reads differently in different versions.
func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // as records returns them
		err  string   // in the error's reason; "" for none
	}{
		{name: "plain", in: "[core]\n\tbare = false\n\tFSMonitor = \"a b\" ; c\n", want: []string{"core.bare\nfalse", "core.fsmonitor\na b"}},
		{name: "subsection keeps case", in: "[diff \"Foo\"]\n\ttextconv = x\n", want: []string{"diff.Foo.textconv\nx"}},
		{name: "old subsection", in: "[Diff.Foo]\ntextconv=x\n", want: []string{"diff.foo.textconv\nx"}},
		{name: "old and quoted subsection", in: "[core.X \"Y\"]\nk=x\n", want: []string{"core.x.Y.k\nx"}},
		{name: "no section name", in: "[ \"x\"]\nk=v\n", want: []string{".x.k\nv"}},
		{name: "subsection escapes", in: "[a \"b\\\\c\\\"d\\e\"]\nk=v\n", want: []string{"a.b\\c\"de.k\nv"}},
		{name: "implicit true", in: "[alias]\n\tx\n", want: []string{"alias.x"}},
		{name: "implicit true at the end", in: "[alias]\n\tx", want: []string{"alias.x"}},
		{name: "empty value", in: "[core]\n\tx =\n\ty = \"\"\n", want: []string{"core.x\n", "core.y\n"}},
		{name: "continuation", in: "[core]\n\tpager = a\\\n b\n", want: []string{"core.pager\na b"}},
		{name: "continuation CR LF", in: "[core]\n\tpager = a\\\r\nb\n", want: []string{"core.pager\nab"}},
		{name: "backslash at the end", in: "[core]\n\tpager = a\\", want: []string{"core.pager\na"}},
		{name: "escapes", in: "[core]\n\tpager = \"a\\tb\\\"\"\\n\\b\n", want: []string{"core.pager\na\tb\"\n\b"}},
		{name: "blanks", in: "[core]\n\tpager =  \" a \"  b \t# c\n", want: []string{"core.pager\n a   b"}},
		{name: "comment characters quoted", in: "[core]\n\tpager = \"a;b#c\"d;e\n", want: []string{"core.pager\na;b#cd"}},
		{name: "comment lines and BOM", in: "\xef\xbb\xbf# x\n; y\n[core]\n# [alias]\n\tpager = p\n", want: []string{"core.pager\np"}},
		{name: "CR LF", in: "[core]\r\n\tpager = p\r\n", want: []string{"core.pager\np"}},
		{name: "key on the header's line", in: "[core] pager=p [x]\n", want: []string{"core.pager\np [x]"}},
		{name: "key before any section", in: "pager = p\n", want: []string{"pager\np"}},
		{name: "NUL ends a value", in: "[core]\n\tpager = a\x00b\n", want: []string{"core.pager\na"}},
		{name: "NUL ends a name", in: "[core \"fsmonitor\x00\"]\n\tx = /evil\n", want: []string{"core.fsmonitor\n/evil"}},
		{name: "NUL in a comment", in: "# \x00\n[core]\n\tpager = p\n", want: []string{"core.pager\np"}},
		{name: "tab after NUL", in: "[core]\n\tpager = a\x00b\tc\n", want: []string{"core.pager\na"}},

		{name: "tab inside a value", in: "[core]\n\tpager = a\tb\n", err: "versions"},
		{name: "tab after a continuation", in: "[core]\n\tpager = a \\\n\tb\n", err: "versions"},
		{name: "lone CR inside a value", in: "[core]\n\tpager = a\rb\n", err: "versions"},
		{name: "partial BOM", in: "\xef\xbb[core]\n", err: "byte order mark"},
		{name: "two BOMs", in: "\xef\xbb\xbf\xef\xbb\xbf[core]\n", err: "should begin"},
		{name: "NUL in a key", in: "[core]\n\tpa\x00ger = p\n", err: "after the key"},
		{name: "NUL in a section", in: "[co\x00re]\n", err: "section name"},
		{name: "key with a comment", in: "[core]\n\tpager # c\n", err: "after the key"},
		{name: "key with a lone CR", in: "[core]\n\tpager\rx\n", err: "after the key"},
		{name: "unterminated quote", in: "[core]\n\tpager = \"p\n", err: "quote"},
		{name: "quote open at a continuation's end", in: "[core]\n\tpager = \"p\\", err: "quote"},
		{name: "unknown escape", in: "[core]\n\tpager = \\q\n", err: "escape"},
		{name: "escaped lone CR", in: "[core]\n\tpager = a\\\rb\n", err: "escape"},
		{name: "bad section", in: "[core\n\tpager = p\n", err: "line ends in"},
		{name: "empty section", in: "[]\n", err: "empty"},
		{name: "header the file ends in", in: "[core", err: "ends in"},
		{name: "subsection the line ends in", in: "[a \"b\nc\"]\n", err: "ends in"},
		{name: "subsection without quotes", in: "[a b]\n", err: "quoted"},
		{name: "blank before ]", in: "[a \"b\" ]\n", err: "closing quote"},
		{name: "VT is no blank", in: "\v[core]\n", err: "should begin"},
		{name: "junk", in: "[core]\n\t=p\n", err: "should begin"},
		{name: "digit first", in: "[core]\n\t1x = p\n", err: "should begin"},
		{name: "underscore", in: "[core]\n\tx_y = p\n", err: "after the key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries, err := Parse([]byte(tt.in))
			if tt.err != "" {
				var e *Error
				if !errors.As(err, &e) || !strings.Contains(e.Reason, tt.err) {
					t.Fatalf("Parse(%q) = %q, %v; want an *Error with %q", tt.in, records(entries), err, tt.err)
				}
				if e.VersionDependent != (tt.err == "versions") {
					t.Errorf("VersionDependent = %v", e.VersionDependent)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := records(entries); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// On an error, Parse returns the entries before the line it stopped at,
// and names that line.
func TestParseErrorKeepsEarlierEntries(t *testing.T) {
	entries, err := Parse([]byte("[core]\r\n\thooksPath = h\n\n\tbad # c\n\tfsmonitor = x\n"))
	var e *Error
	if !errors.As(err, &e) || e.Line != 4 {
		t.Fatalf("err = %v, want an *Error on line 4", err)
	}
	if got := records(entries); !slices.Equal(got, []string{"core.hookspath\nh"}) {
		t.Errorf("entries = %q", got)
	}
}

// Section, Subsection and Key split a name as git's parse_config_key
// does: at its first and its last dot.
func TestEntryNameParts(t *testing.T) {
	for name, want := range map[string][3]string{
		"core.fsmonitor":             {"core", "", "fsmonitor"},
		"diff.Foo.textconv":          {"diff", "Foo", "textconv"},
		"includeif.gitdir:a.b/.path": {"includeif", "gitdir:a.b/", "path"},
		"core..x":                    {"core", "", "x"},
		"pager":                      {"", "", "pager"},
		".x.k":                       {"", "x", "k"},
	} {
		e := Entry{Name: name}
		if got := [3]string{e.Section(), e.Subsection(), e.Key()}; got != want {
			t.Errorf("%q: got %q, want %q", name, got, want)
		}
	}
}

// Parse reads what git config --list reads, on files made to confuse a
// reader and on files made of their pieces; it refuses only what git
// refuses, or reads otherwise in another version.
func TestParseAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	n := 600
	if testing.Short() {
		n = 50
	}
	for _, in := range append(slices.Clone(adversarial), generated(n)...) {
		compareWithGit(t, []byte(in))
	}
}

// compareWithGit fails t when Parse reads data otherwise than git
// config --list.
func compareWithGit(t *testing.T, data []byte) {
	t.Helper()
	want, gitOK := gitList(t, data)
	got, err := Parse(data)
	var e *Error
	switch {
	case err != nil && !errors.As(err, &e):
		t.Errorf("%q: error %v is no *Error", clip(string(data)), err)
	case err == nil && !gitOK:
		t.Errorf("%q: read %q, git refuses it", clip(string(data)), records(got))
	case err != nil && gitOK && !e.VersionDependent:
		t.Errorf("%q: %v, git reads %q", clip(string(data)), err, want)
	case err != nil && !gitOK && e.VersionDependent:
		// A line before may be one git refuses; no matter.
	case err == nil && !slices.Equal(records(got), want):
		t.Errorf("%q: read %q, git reads %q", clip(string(data)), records(got), want)
	}
}

// Parse never panics, returns only *Error errors and, where git is
// installed, reads what git reads.
func FuzzParse(f *testing.F) {
	_, err := exec.LookPath("git")
	withGit := err == nil
	f.Fuzz(func(t *testing.T, data []byte) {
		if withGit {
			compareWithGit(t, data)
			return
		}
		if _, err := Parse(data); err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %v is no *Error", err)
			}
		}
	})
}
