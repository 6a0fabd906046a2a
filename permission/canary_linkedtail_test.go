//go:build linux

package permission_test

import (
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
	// The head is the link itself.
	`cat $(find . -name s)/id_ed25519`, `cat "$(find . -name s -type l | head -1)"/id_ed25519`,
	`cat $(find sub -name s)/id_ed25519`,
}

// linkedTailOrdinary stay allowed in a project that holds no link to a
// secret location. In one that does (round 84's), each asks: its unknown
// head may be that link, and the link leads to ~/.ssh, secret as a whole.
var linkedTailOrdinary = []string{
	`cat $(git rev-parse --show-toplevel 2>/dev/null || pwd)/README`, `cat $(ls -d do*)/a`,
	`for d in $(ls -d */); do ls $d; done`, `wc -l $(ls -d do*)/a README`,
}

// TestCanaryLinkedTail checks that a read whose unknown head may be any
// directory of the project asks when its tail goes through a link the
// project holds to a secret location.
func TestCanaryLinkedTail(t *testing.T) {
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryLinkedTail, nil)
	wantDecisions(t, decide, linkedTailOrdinary, nil)
	root := t.TempDir()
	home, wd = filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, round84Key+"\n", filepath.Join(home, ".ssh", "id_ed25519"))
	writeSecretFiles(t, "a\n", filepath.Join(wd, "README"), filepath.Join(wd, "doc", "a"))
	wantDecisions(t, secretDecider(t, home, wd), nil, linkedTailOrdinary)
}
