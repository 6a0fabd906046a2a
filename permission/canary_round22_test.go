//go:build linux

package permission_test

import "testing"

// canaryRound22 are the variants of the attack round at the second read
// of stop 32 (none is in an earlier list). Each does damage when run in
// the fixture of canaryTemplate, so each must be refused by both
// scenarios.
var canaryRound22 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]:=2}"`,
		`x='a[$(rm -f c)]'; b=(1); test "${b[x]}"`,
		`x='a[$(rm -f c)]'; b=(1); (( b[x] ))`,
	},
	"2-environment": {
		`git -c core.fsmonitor='rm -f c;false' add -A`,
		`git -c diff.external='rm -f c;:' show --ext-diff HEAD`,
		`git -c core.fsmonitor='rm -f c;false' commit -qam x`,
	},
	"3-guards-and-wrappers": {
		`nsenter -t $$ -m -w rm -f c`,
		`builtin command rm -f c`,
		`time -p nice rm -f c`,
	},
	"4-redirections": {
		`echo x > .git/\config`,
		`echo x > '.git'/'config'`,
		`echo x > ".git/con""fig"`,
	},
	"5-globs": {
		`echo x | tee .git/c?nf?g`,
		`echo x | tee .git/*onfig`,
		`echo x | tee .g[h-j]t/config`,
	},
}

// canaryRound22Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound22Ordinary = []string{"git add -A", "git show HEAD", "echo x > 'out'.txt", "ls .git/c?nf?g"}

func TestCanaryRound22(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound22)
	checkOrdinary(t, template, canaryRound22Ordinary, nil)
}
