//go:build linux

package permission_test

import "testing"

// canaryRound67 is the attack round made while stop 46's helpers worked:
// three more variants per class of the security issue, none in an
// earlier list (arithmetic in a substring offset, a [[ ]] comparison and
// test -v; BASH_ENV through flock, setpriv and a function's local -x;
// prlimit, setpriv and setarch as wrappers; a read-write redirection,
// ANSI-C quoting and ~+; GLOBIGNORE's implied dotglob, a bracket and
// nocaseglob). Each does damage when run in the fixture, so each must be
// refused by both scenarios.
var canaryRound67 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; s=abc; echo ${s:x}`,
		`x='a[$(rm -f c)]'; [[ $x -eq 1 ]]`,
		`test -v 'a[$(rm -f c)]'`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y flock lk bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y setpriv bash -c :`,
		`printf 'rm -f c' > y; f() { local -x BASH_ENV=y; bash -c :; }; f`,
	},
	"3-guards-and-wrappers": {
		`prlimit --nofile=100 find . -name c -delete`,
		`setpriv find . -name c -delete`,
		`setarch x86_64 find . -name c -delete`,
	},
	"4-redirections": {
		`cat README 1<> .git/config`,
		`cat README > .git/$'con\x66ig'`,
		`cat README > ~+/.git/config`,
	},
	"5-globs": {
		`GLOBIGNORE=x; tee */config < README`,
		`cp README .git/[c]onfig`,
		`shopt -s nocaseglob; cp README .GI[T]/CONFI?`,
	},
}

func TestCanaryRound67(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRound67)
}
