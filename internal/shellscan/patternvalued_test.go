package shellscan

import "testing"

// TestPatternValued checks which expanding words of grep, diff and du are
// options whose value alone bash changes.
func TestPatternValued(t *testing.T) {
	for _, tc := range []struct {
		name, word string
		want       bool
	}{
		{"grep", "--include=*.go", true},
		{"fgrep", "--exclude-dir=vend*", true},
		{"grep", "--include={x,-R}", true},
		{"du", "--exclude=*.log", true},
		{"diff", "--exclude=*.o", true},
		{"grep", "--exclude-f=*", false},             // --exclude-from, abbreviated
		{"grep", "--incl{ude=x,-R}", false},          // the brace comes before '='
		{"grep", "--{include,directories}=x", false}, // an option an expansion names
		{"grep", "--directories=rec*", false},        // --directories=recurse reads the tree
		{"grep", "-*", false},
		{"grep", "--include*", false},
		{"du", "--exclude-from=*", false},
		{"du", "--files0-from=*", false},
		{"diff", "--from-file=*", false},
		{"cat", "--include=*.go", false},
	} {
		if got := patternValued(tc.name, tc.word); got != tc.want {
			t.Errorf("patternValued(%q, %q) = %v, want %v", tc.name, tc.word, got, tc.want)
		}
	}
}
