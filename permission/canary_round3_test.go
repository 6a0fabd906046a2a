//go:build linux

package permission_test

import "testing"

// canaryRound3 are variants of the security issue's classes written for the
// stop that added rewind, compaction and observability (none of them is in
// the earlier lists): each does damage when run in the fixture of
// canaryTemplate, so each must be refused by both scenarios.
var canaryRound3 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; echo $[x]`,
		`x='a[$(rm -f c)]'; declare -i y; y=x`,
		`x='a[$(rm -f c)]'; b=(); b[x]=1`,
		`x='a[$(rm -f c)]'; typeset -i y=x`,
	},
	"2-environment": {
		`GIT_SSH_COMMAND='rm -f c; false' git fetch -q ssh://h/r`,
		`printf '[core]\n\tfsmonitor = rm -f c; false\n' > g.cfg && GIT_CONFIG_GLOBAL=g.cfg git status`,
		`env BASH_ENV=<(echo rm -f c) bash -c :`,
		`echo y >> README && GIT_EXTERNAL_DIFF='rm -f c; false' git diff`,
	},
	"3-guards-and-wrappers": {
		`mapfile -C 'rm -f c #' -c 1 a <<< x`,
		`coproc rm -f c`,
		`exec rm -f c`,
		`setsid -w rm -f c`,
		`chrt -o 0 rm -f c`,
		`echo c | xargs rm -f`,
		`find . -maxdepth 1 -name c -delete`,
	},
	"4-redirections": {
		`echo x 1<>.git/config`,
		`dd if=README of=.git/config status=none`,
		`echo x > $PWD/.git/config`,
		`echo x > ./.git/./hooks/../config`,
	},
	"5-globs": {
		`shopt -s nocaseglob; echo x | tee .gi[T]/CONFI?`,
		`echo x | tee ~+/.git/config`,
		`echo x | tee .git/conf[[:alpha:]]g`,
	},
}

func TestCanaryRound3(t *testing.T) {
	t.Parallel()
	checkCanaryRound(t, canaryRound3)
}
