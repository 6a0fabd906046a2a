//go:build linux

package permission_test

import "testing"

// canaryRound36 is the attack round written at the last read of stop 36:
// three variants per class of the security issue, beside what the stop
// lets the analysis understand (substitutions, lower-case variables,
// xargs). Each does damage when run in the fixture, so each must be
// refused by both scenarios.
var canaryRound36 = map[string][]string{
	"1-arithmetic": {
		`k=$(printf 'a[$(rm -f c)]'); echo $(( k ))`,
		`for i in $(seq 1 2); do x='a[$(rm -f c)]'; echo $(( i + x )); done`,
		`ls | xargs -n1 echo > /dev/null; x='a[$(rm -f c)]'; : $(( x ))`,
	},
	"2-environment": {
		`p=$(pwd); printf 'rm -f c' > y; BASH_ENV=$p/y bash -c true`,
		`x=1; printf 'rm -f c' > y; env BASH_ENV=y bash -c true`,
		`printf 'rm -f c' > y; echo ok | xargs env BASH_ENV=y bash -c :`,
	},
	"3-guards-and-wrappers": {
		`printf 'c\n' | xargs -- timeout 9 rm -f`,
		`cmd=$(printf find); $cmd . -name c -delete`,
		`printf c | xargs -I{} sh -c 'rm -f {}'`,
	},
	"4-redirections": {
		`t=$(printf .git/config); cat README >> $t`,
		`ls | xargs grep -c x &> .git/config`,
		`o=.git/hooks/pre-commit; git rev-parse HEAD > "$o"`,
	},
	"5-globs": {
		`v=$(ls -d .g*t); echo x > $v/config`,
		`ls | xargs cat > .gi[t]/config`,
		`g=.g?t; echo x | tee $g/config`,
	},
}

func TestCanaryRound36(t *testing.T) {
	t.Parallel()
	checkCanaryRound(t, canaryRound36)
}
