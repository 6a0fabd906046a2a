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

