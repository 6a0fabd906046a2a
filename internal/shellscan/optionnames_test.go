package shellscan

import (
	"strings"
	"testing"
)

// TestBraceWritesNamedLikeOptions checks that a written brace pattern
// whose expansion may start with '-' makes the line opaque, as a written
// name that starts with '-' does: a later glob hands it to a command as an
// option.
func TestBraceWritesNamedLikeOptions(t *testing.T) {
	for _, tc := range []struct {
		line   string
		opaque bool
	}{
		{"touch ./{-delete,x} && find . -name c *ete", true},
		{"mkdir ./{x,-delete} && find . -name c *ete", true},
		{"touch ./{,-}delete && find . -name c [-]*", true},
		{"mkdir -p out/{{x,-y},z}", true},
		{"touch {a,b}.txt && wc -l *.txt", false},
		{"touch {a,b}-x.txt", false},
		{"mkdir -p build/{debug-x,release}", false},
		{"touch x{,-}y", false},
	} {
		a := Analyze(tc.line, Options{Home: "/h", Workdir: "/w"})
		named := a.Opaque && strings.Contains(a.Reason(), "as an option")
		if named != tc.opaque {
			t.Errorf("%q: opaque for an option name %v, want %v (%q)", tc.line, named, tc.opaque, a.Reasons)
		}
	}
}

// TestGlobsAfterUnnamedWrites checks that a glob given to a command after
// an earlier command wrote files under names the line does not show into
// the directory the glob expands in makes the line opaque: one may be
// named like an option. Globs elsewhere, or before, stay as they were.
func TestGlobsAfterUnnamedWrites(t *testing.T) {
	for _, tc := range []struct {
		line   string
		opaque bool
	}{
		{"cp kit/* . && tar cf /dev/null *[1c]", true},
		{"cp -t . kit/*ete && find . -name c *ete", true},
		{"cp -r kit/. . && find . -name c *ete", true},
		{"mv kit/* . && find . -name c *ete", true},
		{"git checkout -q opt && find . -name c *ete", true},
		{"git stash pop -q && find . -name c *ete", true},
		{"git clone -q -b opt . r && cd r && find .. -name c *ete", true},
		{"cp kit/* sub/ && cd sub && find .. -name c *ete", true},
		{`cp "$x" . && find . -name c *ete`, true},
		{"for i in 1 2; do find . -name c *ete; cp kit/* .; done", true},
		{"cp kit/* sub/ && gofmt -l *.go", false},
		{"cp -r src dst && gofmt -l *.go", false},
		{"git clone -q . r && gofmt -l *.go", false},
		{"gofmt -l *.go && cp kit/* .", false},
		{"cp kit/* . && ls *", false},
		{"openssl rand -out ./-delete 1 && find . -name c *ete", true},
		{"ssh-keygen -q -N '' -f ./-delete && find . -name c *ete", true},
		{"openssl rand -out ./-delete 1", false},
		{"gcc -O2 -DN=-1 -o app *.c", false},
		{"find . -name c *ete; openssl rand -out ./-delete 1", false},
		{"nice cp kit/* . && nice find . -name c *ete", true},
		{"cp kit/* *.d", false},
		{"ssh-keygen -q -N '' -f -delete && find . -name c *ete", true},
		{"openssl rand -out -delete 1 && find . -name c ?delete", true},
		{"openssl rand -out x.bin 16 && gofmt -l *.go", false},
		{"docker build -t x . && gofmt -l *.go", false},
		{"cp kit/* .", false},
	} {
		a := Analyze(tc.line, Options{Home: "/h", Workdir: "/w"})
		unnamed := false
		for _, r := range a.Reasons {
			unnamed = unnamed || strings.Contains(r, "under a name the line does not show") || strings.Contains(r, "which an earlier command may write")
		}
		if unnamed != tc.opaque {
			t.Errorf("%q: opaque for a glob after unnamed writes %v, want %v (%q)", tc.line, unnamed, tc.opaque, a.Reasons)
		}
	}
}
