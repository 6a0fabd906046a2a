//go:build linux

package permission_test

import "testing"

// canaryRound38 is the attack round written at the last read of stop 37:
// variants per class of the security issue beside what the stop changed
// (chmod's mode operand, tar's old-style letters, make's -j), none in an
// earlier list. Each does damage when run in the fixture, so each must be
// refused by both scenarios.
var canaryRound38 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; chmod -x+x README; : $(( x ))`,
		`x='a[$(rm -f c)]'; [[ x -eq 0 ]]`,
		`v=abc; x='a[$(rm -f c)]'; echo ${v:x}`,
		`x='a[$(rm -f c)]'; arr=(1 2); echo ${arr[x]}`,
		`x='a[$(rm -f c)]'; tar cf /dev/null README; let x`,
		`x='a[$(rm -f c)]'; for ((i=x; i<1; i++)); do :; done`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; env -S 'BASH_ENV=y bash -c :'`,
		`printf 'rm -f c' > y; BASH_ENV=y timeout 5 bash -c :`,
		`printf 'rm -f c' > y; env -u X BASH_ENV=y bash -c :`,
		`export BASH_ENV=y; printf 'rm -f c' > y; bash -c :`,
		`printf 'rm -f c' > y; chmod -w+r y; BASH_ENV=./y bash -c :`,
	},
	"3-guards-and-wrappers": {
		`stdbuf -o0 find . -name c -delete`,
		`ionice -c3 find . -name c -delete`,
		`taskset -c 0 find . -name c -delete`,
		`chrt -o 0 find . -name c -delete`,
		`setsid -w find . -name c -delete`,
	},
	"4-redirections": {
		`tar cf - README 1<>.git/config`,
		`{ echo x; } >> .git/hooks/post-checkout`,
		`chmod -x README 2> .git/hooks/pre-push; echo x >&2`,
	},
	"5-globs": {
		`echo x > .gi?/co*g`,
		`cat README > .[g]it/con[f]ig`,
		`cp README .git/hook?`,
		`tee .g*/config < README`,
		`echo x | tee -a .g[i]t/conf?g`,
	},
	// Beside round 37's fixes: tar's old-style letters and make's optional
	// values.
	"6-old-style-and-optional-values": {
		`tar cvbf 20 .git/config README`,
		`tar cvvf .git/hooks/pre-commit README`,
		`tar uf .git/config README`,
		`tar rvf .git/config README`,
		`printf 'all:\n\trm -f c\n' > y.txt; make -kj -f y.txt`,
		`printf 'all:\n\trm -f c\n' > y.txt; make -sj -f y.txt`,
	},
}

func TestCanaryRound38(t *testing.T) {
	t.Parallel()
	checkCanaryRound(t, canaryRound38)
}
