//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound72 is stop 47's last re-read: three more variants per class of
// round 71, none in an earlier list (a recipe in another directory or under
// another name, ninja's -C and include, pandoc's --lua-filter and --filter=,
// linker scripts attached or by --format, doctests by --doctest-glob or a
// directory operand). Each removes or empties the fixture's canary when
// real bash runs it (checked under bwrap in a throwaway directory), so each
// must be refused by both scenarios.
var canaryRound72 = map[string][]string{
	"1-make-recipes": {
		`mkdir -p sub; printf 'all:\n\t@find .. -name c -delete\n' > sub/Makefile; make -s -C sub`,
		`printf 'all:\n\t@find . -name c -delete\n' > mk; make -s --file=mk`,
		`printf 'x:\n\t@find . -name c -delete\n' > makefile; make -s x`,
	},
	"2-ninja-rules": {
		`mkdir -p nb; printf 'rule r\n  command = find .. -name c -delete\nbuild x: r\n' > nb/build.ninja; ninja -C nb > /dev/null`,
		`printf 'rule r\n  command = truncate -s 0 c\nbuild y: r\ndefault y\n' > build.ninja; ninja -j1 > /dev/null`,
		`printf 'rule r\n  command = find . -name c -delete\n' > rules.ninja; printf 'include rules.ninja\nbuild w: r\n' > build.ninja; ninja > /dev/null`,
	},
	"3-pandoc-filters": {
		`printf 'os.remove("c")\n' > f.lua; pandoc --lua-filter=f.lua README -t html > /dev/null`,
		`printf 'io.open("c","w"):close()\n' > g.lua; pandoc --lua-filter g.lua README -t plain > /dev/null`,
		`printf '#!/bin/sh\nfind . -name c -delete\ncat\n' > h; chmod +x h; pandoc --filter=./h README -t plain > /dev/null`,
	},
	"4-linker-scripts": {
		`printf 'OUTPUT(c)\n' > b.ld; ld -b binary -r README -Tb.ld`,
		`printf 'OUTPUT(c)\n' > e.ld; ld --format=binary -r README -T e.ld`,
		`printf 'OUTPUT(c)\n' > f.ld; ld -r -bbinary README --script=f.ld`,
	},
	"5-doctests": {
		`printf '>>> import os; os.remove("c")\n' > d.rst; pytest -q -p no:cacheprovider --doctest-glob='*.rst' > /dev/null`,
		`printf '>>> open("c","w").close()\n' > test_g.txt; pytest -q -p no:cacheprovider . > /dev/null`,
		`printf '>>> import os; os.unlink("c")\n' > test_h.txt; pytest -q -p no:cacheprovider -k h > /dev/null`,
	},
}

func TestCanaryRound72(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "make", "ninja", "pandoc", "ld", "pytest")
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound72)
}
