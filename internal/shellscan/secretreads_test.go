package shellscan

import (
	"slices"
	"testing"
)

// The glob words commands read are reported, expanded as far as the
// analysis knows (~, $HOME), so that the gate can match them against the
// paths that hold secrets; words only written or not read are not.
func TestReadPatterns(t *testing.T) {
	for line, want := range map[string][]string{
		"cat ~/.ss*/*":           {"/h/.ss*/*"},
		"grep -r x $HOME/.aws/*": {"/h/.aws/*"},
		"cat ~/{.ssh,.aws}/id":   {"/h/{.ssh,.aws}/id"},
		"cd sub && wc -l *.go":   {"*.go"},
		"cat README.md":          nil,
		"echo ~/.ss*":            nil,
		"cat '~/.ss*'":           nil,
	} {
		a := Analyze(line, Options{Home: "/h", Workdir: "/w"})
		if !slices.Equal(a.ReadPatterns, want) {
			t.Errorf("%q: ReadPatterns %q, want %q", line, a.ReadPatterns, want)
		}
	}
}
