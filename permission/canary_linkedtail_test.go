//go:build linux

package permission_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	t.Parallel()
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

// canaryLinkedWhole read names the line's commands make from the project
// (ls, find, the input of xargs), one of which is a link the project
// holds to ~/.ssh/id_ed25519 (k) or leads beneath sub/s. Each printed the
// key in real bash and was allowed: such names were taken for the
// project's data, which the sandbox was left to guard.
var canaryLinkedWhole = []string{
	`cat $(ls)`, `ls | xargs cat`, `cat $(find . -type l)`, `for f in $(ls); do cat $f; done`,
	`head -c 200 $(ls -A)`, `cat $(find . -maxdepth 1 -type f -o -type l)`, `cat $(find -L . -name id_ed25519)`,
	`find . -name s | sed 's|$|/id_ed25519|' | xargs cat`, `find . -type l | xargs cat`,
}

// linkedWholeUnlinked, ordinary lines of earlier rounds among them, stay
// allowed in a project that holds no link to a secret location, and ask
// in one that does: the names they read are the project's, made by the
// line, and may be that link.
var linkedWholeUnlinked = []string{
	`wc -l $(ls doc)`, `ls doc | xargs wc -l`, `wc -l $(find . -name '*.md')`, `for f in $(ls doc); do cat doc/$f; done`,
	`grep -l a -r doc | xargs cat`, `grep -n TODO $(git ls-files)`, `grep -n foo $(find . -name '*.go')`,
	`git ls-files | sed 's,^,./,' | xargs wc -l`, `git diff --name-only | xargs cat`, `cat $(git ls-files)`,
	`grep -l x -r doc | sed 's/^/.\//' | xargs cat`, `git ls-files | while read -r f; do cat "$f"; done`,
	`for f in $(git ls-files); do wc -l "$f"; done`, `cat $(ls README)`, `head -n 3 $(git ls-files '*.md')`,
	`find . -name '*.md' > files; wc -l $(cat files)`, `git ls-files > list; head -n 3 $(cat list)`,
	`while read -r f; do wc -l "$f"; done < files.txt`,
	// sh -c's positional parameters: the gate takes them from the
	// wrapper's words, which may be left out (an expansion, an option).
	`sh -c 'grep -n x "$1"' _ doc/a`, `bash -c 'wc -l "$@"' _ README doc/a`, `sh -c 'wc -l "$1"' _ README`,
	`bash -c 'cat "$@"' _ README doc/a`, `sh -c 'cat $0' README`,
}

// TestCanaryLinkedWhole checks that a read of names the line makes from
// the project asks when the project holds a link to a secret file or
// location, and stays allowed when it holds none.
func TestCanaryLinkedWhole(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	if err := os.Symlink("../home/.ssh/id_ed25519", filepath.Join(wd, "k")); err != nil {
		t.Fatal(err)
	}
	decide := secretDecider(t, home, wd)
	for _, line := range canaryLinkedWhole {
		if out := runIn(t, home, wd, line); !strings.Contains(out, round84Key) {
			t.Errorf("%q printed no key: %q", line, out)
		}
	}
	wantDecisions(t, decide, append(canaryLinkedWhole, linkedWholeUnlinked...), nil)
	home, wd = unlinkedFixture(t)
	wantDecisions(t, secretDecider(t, home, wd), nil, linkedWholeUnlinked)
}

// runIn runs line in real bash in wd with home's environment and env
// and returns what it printed. A line gets a minute: round caps' loop
// of 90 cat processes ran past 20 s once, beside a CI run, and printed
// nothing.
func runIn(t *testing.T, home, wd, line string, env ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/bash", "-c", line)
	cmd.Dir = wd
	cmd.Env = append(canaryEnv(home), env...)
	out, _ := cmd.CombinedOutput()
	return string(out)
}
