//go:build linux

package permission_test

import "testing"

// canaryRound21 are the variants of the attack round at the stop that
// made locks safe against stalls and let deny rules see the commands of
// unmodelled runners (none is in an earlier list). Each does damage when
// run in the fixture of canaryTemplate, so each must be refused by both
// scenarios.
var canaryRound21 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]:+y}"`,
		`x='a[$(rm -f c)]'; b=(1); echo "${b[x]@a}"`,
		`x='a[$(rm -f c)]'; [[ 2 -le x ]]`,
	},
	"2-environment": {
		`TERM=xterm VISUAL='rm -f c;:' git -c user.name=a -c user.email=a@b commit -q --allow-empty`,
		`git archive --remote=. --exec='rm -f c;:' HEAD`,
		`git clone -q --no-local -u 'rm -f c;:' . cl`,
	},
	"3-guards-and-wrappers": {
		`/usr/sbin/chroot / rm -f "$PWD/c"`,
		`valgrind -q --tool=none rm -f c`,
		`choom -n 0 -- rm -f c`,
	},
	"4-redirections": {
		`echo x > "$PWD"/.git/config`,
		`echo x > "$HOME/../work/.git/config"`,
		`echo x > .git//./config`,
	},
	"5-globs": {
		"shopt -s extglob\necho x | tee .git/conf@(i)g",
		`echo x | tee .g*/co*`,
		`GLOBIGNORE=x; echo x | tee */config`,
	},
}

// canaryRound21Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound21Ordinary = []string{"git archive HEAD > out.tar", "git cherry -v", "echo x > \"$PWD\"/out.txt", "ls .g*", "git log -1"}

func TestCanaryRound21(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound21)
	checkOrdinary(t, template, canaryRound21Ordinary, nil)
}
