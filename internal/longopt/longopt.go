// Package longopt matches a command-line word against a program's long
// options as getopt_long (and curl's, Python's argparse and optparse
// parsers) does: a word names an option by its whole name or by any
// prefix of it that no other option of the program shares, alone or
// with "=value" joined. The permission gate checks options that make a
// program print a secret or read a whole tree (curl --netrc, grep
// --recursive); a program takes --netrc-o and --recur for them as well,
// so the gate matches them through a table of the program's long options
// rather than by spelling.
package longopt

import "strings"

// Table is a program's long options, each with its leading "--"
// (--recursive). Options that share no prefix with the ones a caller
// looks for may be left out: a word that a missing option would have
// made ambiguous fails in the program, so matching it is only an
// unneeded ask.
type Table []string

// Match returns the long option of t that the word w names, as
// getopt_long reads it: w's part before any '=' equal to an option, or
// else a prefix of exactly one option (an exact name wins over longer
// ones it prefixes: --netrc is --netrc, not --netrc-optional). ok is
// false when w is no long option ("-r", "x", "--"), names none of t, or
// is a prefix of several (the program rejects it as ambiguous).
func (t Table) Match(w string) (opt string, ok bool) {
	name, _, _ := strings.Cut(w, "=")
	if len(name) <= 2 || !strings.HasPrefix(name, "--") {
		return "", false
	}
	found := ""
	for _, o := range t {
		if o == name {
			return o, true
		}
		if strings.HasPrefix(o, name) {
			if found != "" && found != o {
				return "", false
			}
			found = o
		}
	}
	return found, found != ""
}

// Is reports whether the word w names one of the options opts of t (see
// [Table.Match]).
func (t Table) Is(w string, opts ...string) bool {
	o, ok := t.Match(w)
	if !ok {
		return false
	}
	for _, want := range opts {
		if o == want {
			return true
		}
	}
	return false
}

// Any reports whether any of the words ws names one of the options opts
// of t (see [Table.Match]).
func (t Table) Any(ws []string, opts ...string) bool {
	for _, w := range ws {
		if t.Is(w, opts...) {
			return true
		}
	}
	return false
}
