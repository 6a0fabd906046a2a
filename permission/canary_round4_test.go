//go:build linux

package permission_test

import "testing"

// canaryRound4 are variants of the security issue's classes written for the
// stop that made the command's start-up lazy (shellscan's tables, the path
// matchers' and redactor's patterns built on first use) and changed the
// stores' locks; none is in the earlier lists. Each does damage when run in
// the fixture of canaryTemplate, so each must be refused by both scenarios.
var canaryRound4 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; f() { local -i y=x; }; f`,
		`x='a[$(rm -f c)]'; a=(1); a[x]+=2`,
		`x='a[$(rm -f c)]'; [[ 1 -ne x ]]`,
		`x='a[$(rm -f c)]'; declare -i y=1; y+=x`,
	},
	"2-environment": {
		`EDITOR='rm -f c; true' git -c user.email=a@b -c user.name=a commit -q --allow-empty`,
		`GIT_EDITOR='rm -f c; true' git -c user.email=a@b -c user.name=a commit -q --allow-empty`,
		`echo 'rm -f c' > e.sh && ENV=e.sh sh -i -c : 2>/dev/null`,
	},
	"3-guards-and-wrappers": {
		`env -C . rm -f c`,
		`find . -maxdepth 1 -name c -execdir rm {} \;`,
		`timeout -v 5 rm -f c`,
		`xargs -a <(echo c) rm -f`,
	},
	"4-redirections": {
		`exec 3>.git/config; echo x >&3`,
		`echo x 9>.git/config`,
		`echo x | tee -a .git/config`,
	},
	"5-globs": {
		`echo x | tee .??t/config`,
		`echo x | tee .[g]it/config`,
		"shopt -s extglob\necho x | tee .git/@(config)", // parsed after the shopt runs
	},
}

func TestCanaryRound4(t *testing.T) {
	t.Parallel()
	checkCanaryRound(t, canaryRound4)
}
