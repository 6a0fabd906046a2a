//go:build linux

package permission_test

import "testing"

// canaryRound17 are the variants of the attack round at the stop that
// merged rounds 15 and 16 and the go and checker models (none is in an
// earlier list). Each does damage when run in the fixture of
// canaryTemplate, so each must be refused by both scenarios.
var canaryRound17 = map[string][]string{
	"1-arithmetic": {
		`b=(1); x='a[$(rm -f c)]'; [[ -v b[x] ]]`,
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]/1/2}"`,
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]%1}"`,
	},
	"2-environment": {
		`git -c sequence.editor='rm -f c;:' rebase -qi HEAD`,
		`git -c core.fsmonitor='rm -f c;false' diff --quiet`,
		`git -c diff.external='rm -f c;:' log -p -1 --ext-diff`,
	},
	"3-guards-and-wrappers": {
		`timeout -k 1 5 rm -f c`,
		`nice -n 5 -- rm -f c`,
		`env -u X rm -f c`,
	},
	"4-redirections": {
		`echo x >&.git/config`,
		`printf x >.git/config 2>&-`,
		`echo x 1>|.git/config`,
	},
	"5-globs": {
		`echo x | tee .git/?onfig`,
		`echo x | tee .git/conf[!x]g`,
		`echo x | tee ./.g[!x]t/config`,
	},
}

// canaryRound17Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound17Ordinary = []string{"git log -p -1", "timeout 5 ls", "echo x > out.txt 2>&-", "ls .git/?onfig"}

func TestCanaryRound17(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound17)
	checkOrdinary(t, template, canaryRound17Ordinary, nil)
}
