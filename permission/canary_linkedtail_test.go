//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"
)

// canaryLinkedTail read a path whose head a command substitution makes
// from the project (ls, find, awk, expr, head of a here-string …) and
// whose known tail goes through sub/s, the project's link into ~/.ssh.
// Each printed the key in real bash and was allowed after round 105: its
// printers are enumerated, and these print what no enumeration follows.
var canaryLinkedTail = []string{
	`cat $(ls -d su*)/s/id_ed25519`, `cat $(ls | grep sub)/s/id_ed25519`,
	`cat $(find . -maxdepth 1 -name sub)/s/id_ed25519`, `cat $(head -c3 <<< subway)/s/id_ed25519`,
	`x=sub; cat $(echo $x)/s/id_ed25519`, `cat $(echo ${PS4}sub)/s/id_ed25519`,
	`cat $(awk 'BEGIN{print "sub"}')/s/id_ed25519`, `cat $(expr substr subway 1 3)/s/id_ed25519`,
	`cat $(ls -d su*)/{s,x}/id_ed25519`, `cat $(ls -d su*)/S/id_ed25519 2>/dev/null || cat $(ls -d su*)/?/id_ed25519`,
	`cat "$(ls -d su*)"/s/id_*`, `f=$(ls -d l); cat $f/sub/s/id_ed25519`,
	// The head is the link itself, found by the line (stop 56).
	`cat $(find . -name s)/id_ed25519`, `cat "$(find . -name s -type l | head -1)"/id_ed25519`,
	`cat $(find sub -name s)/id_ed25519`, `d=$(find . -name s); cat $d/id_ed25519`,
	`for d in $(find . -name s); do cat $d/id_ed25519; done`,
	`find . -name s | while read -r d; do cat "$d/id_ed25519"; done`, `cat $(find . -type l -name s)/id_*`,
	`cd sub; cat $(basename $(find . -name s))/id_ed25519`, `cd sub; cat $(echo s)/id_ed25519`,
	`cd sub; cat ${Q:=s}/id_ed25519`,
}

// linkedTailOrdinary stay allowed in the same project: a lister's words,
// a head from the host's environment (which may name any directory, a
// link of the project no more than another), a head whose value the line
// spells out (checked as a word of its own).
var linkedTailOrdinary = []string{
	`for d in $(ls -d */); do ls $d; done`, `cat $X/README`, `cat "$TMPDIR/out.txt"`, `wc -l "$HOME"/x README`,
	`cat $(pwd)/README`, `cat $(echo doc)/a`, `cat "$(printenv PWD)"/README`,
	`cat "$(dirname README)"/doc/a`, `cat $(realpath doc)/a`,
}

// linkedTailUnlinked stay allowed in a project that holds no link to a
// secret location. In one that does (round 84's), each asks: its head,
// which the line makes, may be that link, and the link leads to ~/.ssh,
// secret as a whole.
var linkedTailUnlinked = []string{
	`cat $(git rev-parse --show-toplevel 2>/dev/null || pwd)/README`, `cat $(ls -d do*)/a`,
	`wc -l $(ls -d do*)/a README`, `cat $(git rev-parse --show-toplevel)/README`,
	`cat "$(git rev-parse --show-toplevel)/doc/a"`, `for f in $(git ls-files); do cat $(dirname $f)/a; done`,
}

// TestCanaryLinkedTail checks that a read whose unknown head may be any
// directory of the project asks when its tail goes through a link the
// project holds to a secret location, or begins where one leads.
func TestCanaryLinkedTail(t *testing.T) {
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryLinkedTail, nil)
	wantQuietAndAllowed(t, decide, linkedTailOrdinary)
	wantDecisions(t, decide, linkedTailUnlinked, nil)
	home, wd = unlinkedFixture(t)
	wantDecisions(t, secretDecider(t, home, wd), nil, append(linkedTailOrdinary, linkedTailUnlinked...))
}

// unlinkedFixture makes round 84's home and project without the
// project's symbolic links.
func unlinkedFixture(t *testing.T) (home, wd string) {
	t.Helper()
	home, wd = round84Fixture(t)
	for _, link := range []string{"sub/s", "sub/a", "l", "l2"} {
		if err := os.Remove(filepath.Join(wd, link)); err != nil {
			t.Fatal(err)
		}
	}
	return home, wd
}
