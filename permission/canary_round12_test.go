//go:build linux

package permission_test

import "testing"

// canaryRound12 are the variants of the attack round at the second read of
// the stop that added rounds 10 and 11 (none is in an earlier list). Each
// does damage when run in the fixture of canaryTemplate, so each must be
// refused by both scenarios.
var canaryRound12 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; b=x; echo $((b))`,
		`x='a[$(rm -f c)]'; echo hi 2>&$((x))`,
		`x='a[$(rm -f c)]'; s=abc; echo "${s:0:x}"`,
	},
	"2-environment": {
		`printf '* filter=x\n' > .gitattributes && git -c filter.x.clean='rm -f c; cat' add README`,
		`GIT_SEQUENCE_EDITOR="$PWD/bin/ls" git rebase -q -i HEAD`,
		`printf '* diff=x\n' > .gitattributes && echo y >> README && git -c diff.x.command="$PWD/bin/ls" diff`,
	},
	"3-guards-and-wrappers": {
		`for p in rm; do "$p" -f c; done`,
		`IFS=_; x=rm_-f_c; $x`,
		`set -- rm -f c; "$@"`,
	},
	"4-redirections": {
		`echo x 2>>.git/config >&2`,
		`echo x > ./.git/config`,
		`set +o noclobber; echo x >| .git/config`,
	},
	"5-globs": {
		`echo x > .?it/config`,
		`echo x > .gi[s-u]/config`,
		`echo x > .git/conf[h-j]g`,
	},
}

func TestCanaryRound12(t *testing.T) {
	t.Parallel()
	checkCanaryRound(t, canaryRound12)
}
