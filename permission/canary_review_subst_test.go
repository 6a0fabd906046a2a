//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryReviewSubst are the attacks of the review of command
// substitutions: lines that look for a place where a substitution is not
// the plain variable the analysis takes it for. Each does damage when run
// in the fixture of canaryTemplate with the programs installed here, so
// each must be refused by both scenarios.
var canaryReviewSubst = map[string][]string{
	// A substitution in a command's here-string, or in the redirection of
	// a group, runs before the command: the file it writes is there when
	// the command reads it as a configuration naming a command to run,
	// although the walk sees the write after the command.
	"config-written-first": {
		`npm --userconfig x edit q <<< "$(echo 'editor=node -e require("fs").unlinkSync("c")' > x; mkdir -p node_modules/q)"`,
		`npm edit q --userconfig=x <<< "$(printf 'editor = node -e require("fs").unlinkSync("c")\n' > x; mkdir -p node_modules/q)"`,
		`{ npm --userconfig x edit q; } <<< "$(echo 'editor=node -e require("fs").unlinkSync("c")' > x; mkdir -p node_modules/q)"`,
		`gpg --batch --options x --card-status <<< "$(printf '#!/bin/sh\nrm -f c\n' > y; chmod +x y; echo 'agent-program ./y' > x)"`,
		`gpg --batch --options x --card-status <<< "$(printf '#!/usr/bin/python3\nimport os; os.remove("c")\n' > y; chmod +x y; echo 'agent-program ./y' > x)"`,
		`{ gpg --batch --options x --card-status; } <<< "$(printf '#!/bin/sh\nrm -f c\n' > y; chmod +x y; echo 'agent-program ./y' > x)"`,
		`if :; then gpg --batch --options x --card-status; fi <<< "$(printf '#!/bin/sh\nrm -f c\n' > y; chmod +x y; echo 'agent-program ./y' > x)"`,
		`cp z x <<< "$(printf '#!/bin/sh\nrm -f c\n' > y; chmod +x y; echo 'agent-program ./y' > z)" && gpg --batch --options x --card-status`,
		`npm config edit --userconfig x <<< "$(echo 'editor=node -e require("fs").unlinkSync("c")' > x)"`,
		`{ npm config edit --userconfig=x; } <<< "$(echo 'editor=node -e require("fs").unlinkSync("c")' > x)"`,
		`if true; then npm --userconfig x edit q; fi <<< "$(echo 'editor=sh -c find${IFS}.${IFS}-name${IFS}c${IFS}-delete' > x; mkdir -p node_modules/q)"`,
	},
	// A file written with a substitution's output holds a text the
	// analysis cannot spell: handed to a program as its configuration,
	// it names the command that program runs.
	"config-unknown-text": {
		`echo "$(printf 'editor=node -e require("fs").unlinkSync("c")')" > x && mkdir -p node_modules/q && npm --userconfig x edit q`,
		`echo "editor=$(printf 'node -e require("fs").unlinkSync("c")')" > x && mkdir -p node_modules/q && npm edit q --userconfig=x`,
		`echo "$(printf 'editor=node -e require("fs").unlinkSync("c")')" > x && npm config edit --userconfig x`,
		`cat > x <<< "$(printf 'editor=node -e require("fs").unlinkSync("c")')" && mkdir -p node_modules/q && npm --userconfig x edit q`,
		`echo "$(printf '#env\nLESSOPEN=|rm -f c %%s')" > x && less --lesskey-src=x README`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo "$(printf 'agent-program ./y')" > x && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo "agent-program $(printf ./y)" > x && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo "agent-program $(printf ./y)" | tee x > /dev/null && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && cat > x <<< "agent-program $(printf ./y)" && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo "agent-program $(printf ./y)" > z && cat z > x && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && for p in ./y; do echo "agent-program $p" > x; done; gpg --batch --options x --card-status`,
	},
	// A substitution in a here-string runs after the output redirection
	// before it truncated the file and before the command writes its
	// text at the start: what the substitution appended stays after it.
	"written-after-truncation": {
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo > x <<< "$(printf '#\nagent-program ./y\n' >> x)" && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo no-greeting > x <<< "$(printf '################\nagent-program ./y\n' >> x)" && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && { echo; } > x <<< "$(printf '#\nagent-program ./y\n' >> x)" && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && printf '\n' > x <<< "$(printf '#\nagent-program ./y\n' > x)" && gpg --batch --options x --card-status`,
	},
	// A program the analysis does not model reads its configuration from
	// a standard input that holds a substitution's output. The analysis
	// does not spell such an input; the gate refuses these because the
	// program is given a path outside the workdir (/dev/stdin).
	"stdin-unknown-text": {
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && gpg --batch --options /dev/stdin --card-status <<< "agent-program $(printf ./y)"`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo "agent-program $(printf ./y)" | gpg --batch --options /dev/stdin --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo "agent-program $(printf ./y)" | cat | gpg --batch --options /dev/stdin --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo "agent-program $(printf ./y)" > x && gpg --batch --options /dev/stdin --card-status < x`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && { gpg --batch --options /dev/stdin --card-status; } <<< "agent-program $(printf ./y)"`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && for p in ./y; do gpg --batch --options /dev/stdin --card-status <<< "agent-program $p"; done`,
	},
	// A cd, even one in a substitution's subshell, changed the key under
	// which the analysis looks up the text of a file the line wrote
	// before it: the configuration was no longer found.
	"cd-loses-written-text": {
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo 'agent-program ./y' > x && echo "$(cd sub)" && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo 'agent-program ./y' > x && ls "$(cd sub; pwd)" && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo 'agent-program ./y' > x && (cd sub) && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo 'agent-program ./y' > x && cd . && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > ../y && chmod +x ../y && echo 'agent-program ../y' > x && cd sub && gpg --batch --options ../x --card-status`,
	},
	// A program reads its code from the file an input redirection opens
	// after the here-string's substitution wrote it.
	"stdin-written-first": {
		`node <<< "$(printf 'require("fs").rmSync("c")' > y.js)" < y.js`,
		`python3 <<< "$(echo 'import os; os.remove("c")' > y.py)" < y.py`,
		`bash <<< "$(printf 'rm -f c' > y)" < y`,
		`cat <<< "$(printf 'rm -f c' > y)" < y | sh`,
		`perl <<< "$(printf 'unlink "c"' > y.pl)" < y.pl`,
	},
	// The commands of a substitution read the standard input of the
	// command or group around it.
	"substitution-stdin": {
		`{ echo "$(python3)"; } <<< 'import os; os.remove("c")'`,
		`echo 'import os; os.remove("c")' | echo "$(python3)"`,
		`printf 'rm -f c\n' | cat "$(sh)"`,
		`{ echo "$(node)"; } < /dev/stdin <<< 'require("fs").rmSync("c")'`,
		`if true; then echo "$(perl)"; fi <<< 'unlink "c"'`,
	},
	// Here-documents and comments inside a substitution, where bash and
	// the parser may end them at different places.
	"substitution-parsing": {
		"echo \"$(cat <<E\nx\nE\n)\"; rm -f c",
		"echo $(cat <<E\nx\nE\n); find . -name c -delete",
		"echo $(echo x # )\nrm -f c\n)",
		"echo \"$(echo x # )\"\nrm -f c\n)\"",
		"cat <<$(echo)\n$(rm -f c)\n$(echo)",
		"cat <<$(echo)E\n$(find . -name c -delete)\n$(echo)E",
		"echo $(case x in x) rm -f c;; esac)",
		"echo $( (rm -f c) )",
	},
	// State a substitution changes is its subshell's: the analysis must
	// not take the commands after it to run where it went.
	"subshell-state": {
		`echo "$(cd sub)" > .git/config`,
		`cat README "$(cd /tmp)" > .git/hooks/pre-commit`,
		`echo "$(trap 'rm -f c' EXIT)"`,
		`echo "$(exit 0)" "$(rm -f c)"`,
		`echo "$(set -f)" > .g*/config`,
		`ls "$(cd .git)"; echo x > ./.git/config`,
	},
	// Links a substitution makes lead the writes of the command around it.
	"substitution-links": {
		`echo "$(cp -P dotgit g)" > g/config`,
		`echo x <<< "$(cp -P dotgit g)" >> g/config`,
		`cat README "$(cp -P hooks h)" > h/pre-commit`,
		`echo "$(mv dotgit g2)" > g2/config`,
		`echo "$(cp -P link b)" >> b`,
	},
	// A substitution nested in another expansion, or in an arithmetic or
	// a test, runs as the one it is in runs.
	"nested-expansions": {
		`echo ${x:-$(rm -f c)}`,
		`echo "${a[$(rm -f c)]}"`,
		`echo $(( $(printf 'a[$(rm -f c)]') ))`,
		`[[ $(printf 1) -eq 'a[$(rm -f c)]' ]]`,
		`[[ -n "$(find . -name c -delete)" ]]`,
		`case "$(rm -f c)" in *) : ;; esac`,
		`case x in "$(rm -f c)") : ;; esac`,
		`for f in "$(printf 'x')" "$(rm -f c)"; do echo "$f"; done`,
	},
	// What a substitution prints reaches a command other than the plain
	// readers, as an option, an operand or a word bash globs.
	"value-to-command": {
		`sed -i $(printf 's/^/x/') .git/config`,
		`cp README "$(printf .git/config)"`,
		`find . -name c $(printf -- -delete)`,
		`git $(printf 'config core.fsmonitor') 'rm -f c; false' && git status`,
		`tee $(printf .git/config) <<< x`,
		`touch $(printf .git/hooks/pre-commit)`,
		`timeout 5 $(printf 'rm') -f c`,
		`echo x | tee "$(printf .lite-agent)/permissions.json"`,
	},
}

func TestCanaryReviewSubstitution(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.NodeJS, "npm", "node")
	tooltest.Need(t, tooltest.CanaryTools, "gpg", "less", "python3", "perl")
	checkCanaryRound(t, canaryReviewSubst)
}
