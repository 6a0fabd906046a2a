//go:build linux

package permission_test

import "testing"

// canaryRound18 are the variants of the attack round at the second read
// of the stop that merged rounds 15 to 17 (none is in an earlier list).
// Each does damage when run in the fixture of canaryTemplate, so each
// must be refused by both scenarios.
var canaryRound18 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; b=(x); echo "${b[x],,}"`,
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]#1}"`,
		`x='a[$(rm -f c)]'; b=(1); for i in "${b[x]}"; do :; done`,
	},
	"2-environment": {
		`git -c core.fsmonitor='rm -f c;false' add -A`,
		`git -c core.editor='rm -f c;:' config --edit`,
		`git -c user.name=x -c user.email=x@x -c core.editor='rm -f c;:' tag -a v1`,
	},
	"3-guards-and-wrappers": {
		`timeout --preserve-status 5 rm -f c`,
		`env -i PATH=/bin rm -f c`,
		`nohup -- rm -f c`,
	},
	"4-redirections": {
		`printf x 1>>.git/config`,
		`echo x 2>/dev/null >.git/hooks/pre-commit`,
		`{ printf x; } 2>&1 >>.git/config`,
	},
	"5-globs": {
		`echo x | tee .git/c[o]nfig`,
		`echo x | tee .git/{config,}`,
		`echo x | tee .g*t/config`,
	},
}

// canaryRound18Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound18Ordinary = []string{"git add README", "timeout 5 ls", "printf x 1>>out.txt", "ls .g*t"}

func TestCanaryRound18(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound18)
	checkOrdinary(t, template, canaryRound18Ordinary, nil)
}
