package permission

import (
	"slices"
	"testing"
)

// TestKnownParts checks the texts knownParts finds around a word's
// unknown parts, which bash may make words of their own (round 103), and
// that knownTail is the last of them.
func TestKnownParts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		w    string
		want []string
		ok   bool
	}{
		{"README", []string{"README"}, true},
		{"x${IFS}sub/s/id_ed25519", []string{"x", "sub/s/id_ed25519"}, true},
		{"$PS4", []string{"", ""}, true},
		{"${PS4#+}sub", []string{"", "sub"}, true},
		{"a$1b", []string{"a", "b"}, true},
		{"a${x}${y}b$(pwd)c`id`d", []string{"a", "", "b", "c", "d"}, true},
		{"$x.go", []string{"", ".go"}, true},
		{"a$", []string{"a$"}, true},
		{"a${x", nil, false},
		{"a`x", nil, false},
	} {
		got, ok := knownParts(tc.w)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("knownParts(%q) = %q, %v; want %q, %v", tc.w, got, ok, tc.want, tc.ok)
		}
		if tail, ok := knownTail(tc.w); ok != tc.ok || ok && tail != tc.want[len(tc.want)-1] {
			t.Errorf("knownTail(%q) = %q, %v", tc.w, tail, ok)
		}
	}
}

// TestBracedEnd checks that a value put in before a name's letters keeps
// its own last variable's name (round 103).
func TestBracedEnd(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ val, rest, want string }{
		{"$PS4", "sub", "${PS4}"}, {"a$x", "_b", "a${x}"}, {"$PS4", "/s", "$PS4"}, {"$PS4", "", "$PS4"},
		{"${x}", "a", "${x}"}, {"$1", "a", "$1"}, {"a$", "b", "a$"}, {"README", "x", "README"},
	} {
		if got := bracedEnd(tc.val, tc.rest); got != tc.want {
			t.Errorf("bracedEnd(%q, %q) = %q, want %q", tc.val, tc.rest, got, tc.want)
		}
	}
}
