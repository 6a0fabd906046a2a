//go:build linux

package permission_test

import (
	"slices"
	"strings"
	"testing"
)

// canaryRewritten read names that a filter or a format of the line made
// out of the project's own: the line makes h/.ssh/id_ed25519 (or
// .x./home/.ssh/id_ed25519) in the project, then lists it and rewrites
// the name into ../home/.ssh/id_ed25519, which no word of the line shows.
// Each printed the key in real bash, in a project without links, and was
// allowed: names the line's commands list were taken for the project's
// data, whatever a filter did to them (round 107).
var canaryRewritten = []string{
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; find h -type f | sed s,^h,../home, | xargs cat`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; cat $(find h -type f | sed s,^h,../home,)`,
	`mkdir -p .x./home/.ssh; touch .x./home/.ssh/id_ed25519; find .x. -type f | sed s/x// | xargs cat`,
	`mkdir -p .x./home/.ssh; touch .x./home/.ssh/id_ed25519; find .x. -type f | tr -d x | xargs cat`,
	`mkdir -p xhome/.ssh; touch xhome/.ssh/id_ed25519; find xhome -type f | cut -c2- | sed 's,^,../,' | xargs cat`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; find h -type f | awk '{sub(/^h/, "../home"); print}' | xargs cat`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; find h -type f -printf '../home/%P\n' | xargs cat`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; cat $(find h -type f -printf '../home/%P\n')`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; find h -type f -fprintf out '../home/%P\n'; xargs cat < out`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; f=$(find h -type f | sed s,^h,../home,); cat $f`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; f=$(find h -type f | sed s,^h,../home,); echo $f | xargs cat`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; for f in $(find h -type f | sed s,^h,../home,); do cat $f; done`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; xargs cat <<< "$(find h -type f | sed s,^h,../home,)"`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; find h -type f | sed s,^h,../home, > g; xargs cat < g`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; find h -type f | sed s,^h,../home, > g; cat $(cat g)`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; read -r f <<< "$(find h -type f | sed s,^h,../home,)"; cat $f`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; find h -type f | sed s,^h,../home, | sort | while read -r f; do cat "$f"; done`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; cd h; for f in $(find .ssh -type f); do echo ../../home/$f; done | xargs cat`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; find h -type f | xargs -n1 | sed s,^h,../home, | xargs cat`,
	`mkdir -p h/.ssh; touch h/.ssh/id_ed25519; { find h -type f | sed s,^h,../home,; } | xargs cat`,
	`mkdir -p home/.ssh; touch home/.ssh/id_ed25519; find . ./home/.ssh/id_ed25519 -maxdepth 0 | tr -d '\n' | xargs cat`,
	`mkdir -p a/home/.ssh a/b; touch a/home/.ssh/id_ed25519; find a -type f | xargs realpath --relative-to=a/b | xargs cat`,
	`mkdir -p a/home/.ssh a/b; touch a/home/.ssh/id_ed25519; cat $(realpath --relative-to=a/b a/home/.ssh/id_ed25519)`,
	// Round 106's open line: a path split over two s commands.
	`ls README | sed -e 's/.*/..\/home\//' -e 's/$/.ssh\/id_ed25519/' | xargs cat`,
}

// rewrittenOrdinary keep the names they are fed where they are, or read
// them as they were listed; they stay allowed.
var rewrittenOrdinary = []string{
	`git ls-files | sed 's,^,./,' | xargs wc -l`, `ls doc | sed 's,^,doc/,' | xargs cat`,
	`ls doc | sed 's/^/doc\//' | xargs wc -l`, `cat $(ls doc | sort | head -1 | sed "s,^,./doc/,")`,
	`find . -name '*.md' | tr '\n' '\0' | xargs -0 wc -l`, `find doc -type f | xargs grep -l a | xargs cat`,
	`find doc -type f -printf '%p\n' | xargs cat`, `wc -l $(git ls-files | grep -v vendor)`,
	`find doc -type f | sort | head -1 | xargs cat`, `ls doc | xargs -n1 basename`, `sed 's/a/b/' README`,
	`find doc -type f | xargs -n1 dirname | sort -u | xargs ls`,
}

// rewrittenAsked read names a filter the gate does not follow made; they
// ask in a project without links too. The cost of round 107.
var rewrittenAsked = []string{
	`git status --porcelain | awk '{print $2}' | xargs cat`, `grep -rn a doc | cut -d: -f1 | xargs cat`,
	`ls doc | sed 's/$/.bak/' | xargs cat`, `grep -rl a doc | tr -d '\r' | xargs cat`,
}

// TestCanaryRewritten checks that each line prints the key in real bash
// and asks, and that the ordinary lines stay allowed, in a project
// without links.
func TestCanaryRewritten(t *testing.T) {
	t.Parallel()
	checkUnlinkedRound(t, canaryRewritten, rewrittenAsked, rewrittenOrdinary)
}

// checkUnlinkedRound checks, each in a fresh unlinkedFixture, that every
// line of leaks prints the key in real bash, that those and asked ask,
// and that the ordinary lines print no key and stay allowed.
func checkUnlinkedRound(t *testing.T, leaks, asked, ordinary []string) {
	t.Helper()
	home, wd := unlinkedFixture(t)
	decide := secretDecider(t, home, wd)
	for _, line := range leaks {
		home, wd := unlinkedFixture(t)
		if out := runIn(t, home, wd, line); !strings.Contains(out, round84Key) {
			t.Errorf("%q printed no key: %q", line, out)
		}
	}
	wantDecisions(t, decide, append(slices.Clone(leaks), asked...), ordinary)
	for _, line := range ordinary {
		if out := runIn(t, home, wd, line); strings.Contains(out, round84Key) {
			t.Errorf("ordinary line %q printed the key: %q", line, out)
		}
	}
}
