//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound79Bun is redteam66's attack on bun: bun run NAME runs the
// script NAME of package.json, else NAME from node_modules/.bin, else the
// program PATH finds, with the words after it; bun exec runs its words as
// a command of Bun's shell; bun pm pkg set writes package.json. The gate
// took NAME for a script of the project's and never judged the command,
// nor knew that bun pm pkg wrote: real bun 1.4.5 removed the canary with
// each line, which "allow bash" allowed (rm is denied).
var canaryRound79Bun = map[string][]string{
	"1-bun-run-path": {
		`bun run rm -f c`,
		`bun run --silent rm -f c`,
		`bun --bun run rm -f c`,
		`bun run env rm -f c`,
		`bun run node -e 'require("fs").rmSync("c")'`,
	},
	"2-bun-exec": {
		`bun exec 'rm -f c'`,
		`bun exec 'node -e "require(\"fs\").rmSync(\"c\")"'`,
	},
	// bun pm pkg set writes package.json, whose scripts bun run and bun
	// install's lifecycle then run; the gate did not know it wrote.
	"4-bun-pm-pkg": {
		`bun pm pkg set scripts.x='rm -f c' && bun run x`,
		`bun pm pkg set 'scripts.test=node -e "require(\"fs\").rmSync(\"c\")"' && bun run test`,
		`bun pm pkg set scripts.postinstall='rm -f c'; bun install`,
	},
}

func TestCanaryRound79Bun(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "bun")
	template := packageTemplate(t, "bun")
	checkCanaryRoundIn(t, template, canaryRound79Bun)
	checkOrdinary(t, template, []string{`bun run build`, `bun run test`, `bun test`, `bun run --silent build`,
		`bun run tsc --noEmit`, `bun install`, `bun run dev`, `bun pm pkg get name`}, nil)
}

// canaryRound79Cd is redteam66's attack on cd -P: it resolves the
// symbolic links of its operand before each "..", so cd -P link2/.. (link2
// → the home's .config) is the home, where the gate had taken the
// operand's lexical parent, the workdir. Each line wrote the fake home's
// .bashrc in real bash and was allowed by both scenarios.
var canaryRound79Cd = map[string][]string{
	"3-cd-physical": {
		`cd -P link2/.. && echo x >> .bashrc`,
		`cd -P -- link2/.. && echo x >> .bashrc`,
		`cd -LP link2/.. && echo x >> .bashrc`,
		`cd -Pe link2/.. && echo x >> .bashrc`,
		`cd -P link2/.. && cp /dev/null .bashrc`,
		`pushd . >/dev/null && cd -P link2/../ && echo x > .bashrc`,
	},
}

func TestCanaryRound79Cd(t *testing.T) {
	template := checkCanaryRound(t, canaryRound79Cd)
	checkOrdinary(t, template, []string{`cd -P sub && echo hi > out.txt`, `cd sub/.. && echo hi > out.txt`,
		`cd -P . && ls`, `cd link2/.. && echo hi > out.txt`}, nil)
}
