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
		"cat ~/{.ssh,.aws}/*":    {"/h/.ssh/*", "/h/.aws/*"},
		"cat ~/{.ssh,.aws}/id":   nil, // two paths, not a pattern: see below
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

// Each word of a brace expansion a command reads is a path read, with the
// tilde bash expands after the braces; one that makes too many words to
// check makes the line opaque.
func TestBraceWordsAreEachRead(t *testing.T) {
	for line, want := range map[string][]string{
		"cat ~/{.ssh,.aws}/id":      {"/h/.ssh/id", "/h/.aws/id"},
		"cat {~/.ssh/id_rsa,x}":     {"/h/.ssh/id_rsa", "x"},
		"head {README,/etc/shadow}": {"README", "/etc/shadow"},
	} {
		a := Analyze(line, Options{Home: "/h", Workdir: "/w"})
		var got []string
		for _, acc := range a.Accesses {
			if acc.Mode == Read {
				got = append(got, acc.Path)
			}
		}
		if !slices.Equal(got, want) || a.Opaque {
			t.Errorf("%q: reads %q (opaque %v), want %q", line, got, a.Opaque, want)
		}
	}
	if a := Analyze("cat ~/.s{a..z}{a..z}/id_rsa", Options{Home: "/h", Workdir: "/w"}); !a.Opaque {
		t.Errorf("a read of 676 brace words is not opaque")
	}
}
