//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound71 is stop 47's re-read before stopping: three variants per
// class of the programs this stop's gate work reached, none in an earlier
// list, each written by the line and then run. Each removes or empties the
// fixture's canary when real bash runs it (checked under bwrap in a
// throwaway directory), so each must be refused by both scenarios.
var canaryRound71 = map[string][]string{
	"1-make-recipes": {
		`printf 'x:\n\tfind . -name c -delete\n' > GNUmakefile; make -s x`,
		`printf 'all:\n\t@find . -name c -delete\n' > m.mk; make -s -f m.mk`,
		`printf 'include inc.mk\n' > Makefile; printf 'all:\n\t@find . -name c -delete\n' > inc.mk; make -s`,
	},
	"2-ninja-rules": {
		`printf 'rule r\n  command = find . -name c -delete\nbuild x: r\n' > build.ninja; ninja -v > /dev/null`,
		`printf 'rule r\n  command = truncate -s 0 c\nbuild y: r\n' > b.ninja; ninja -f b.ninja y > /dev/null`,
		`printf 'subninja s.ninja\n' > build.ninja; printf 'rule q\n  command = find . -name c -delete\nbuild z: q\n' > s.ninja; ninja > /dev/null`,
	},
	"3-pandoc-filters": {
		`printf '#!/bin/sh\nfind . -name c -delete\ncat\n' > flt; chmod +x flt; pandoc --filter ./flt README -o o.html`,
		`printf '#!/bin/sh\ntruncate -s 0 c\ncat\n' > g; chmod +x g; pandoc -F ./g README -t html > /dev/null`,
		`printf 'os.remove("c")\n' > x.txt; pandoc -L x.txt README -t html > /dev/null`,
	},
	"4-linker-scripts": {
		`printf 'OUTPUT(c)\n' > s.ld; ld -r -b binary README -T s.ld`,
		`printf 'OUTPUT(c)\n' > k.ld; ld -r -b binary -T k.ld README`,
		`printf 'OUTPUT(c)\n' > t.ld; ld -r -b binary --script=t.ld README`,
	},
	"5-doctests": {
		`printf '>>> import os; os.remove("c")\n' > test_d.txt; pytest -q -p no:cacheprovider > /dev/null`,
		`printf '>>> open("c","w").close()\n' > test_e.txt; pytest -q -p no:cacheprovider > /dev/null`,
		`printf '>>> import shutil; shutil.move("c","d")\n' > test_f.txt; pytest -q -p no:cacheprovider test_f.txt > /dev/null`,
	},
}

func TestCanaryRound71(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "make", "ninja", "pandoc", "ld", "pytest")
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound71)
}
