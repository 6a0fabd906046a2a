//go:build linux

package permission_test

import "testing"

// canaryRound5 are a second set of variants written at the end of the stop
// of canaryRound4, after its last review (none is in the earlier lists).
// Each does damage when run in the fixture of canaryTemplate, so each must be
// refused by both scenarios.
var canaryRound5 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; ((y = x + 1))`,
		`x='a[$(rm -f c)]'; a=(1 2); unset 'a[x]'`,
		`x='a[$(rm -f c)]'; set -- 1 2; printf '%s\n' "${@:1:x}"`,
	},
	"2-environment": {
		`printf '#!/bin/sh\nrm -f c\n' > p.sh && chmod +x p.sh && GIT_PROXY_COMMAND=./p.sh git fetch -q git://h/r`,
		`git -c core.sshCommand='rm -f c; false' fetch -q ssh://h/r`,
		`GIT_TRACE="$PWD/.git/config" git status`,
	},
	"3-guards-and-wrappers": {
		`env --chdir=. rm -f c`,
		`timeout --foreground 5 rm -f c`,
		`find . -maxdepth 1 -name c -exec rm -f {} \;`,
		`xargs -0 rm -f < <(printf 'c\0')`,
	},
	"4-redirections": {
		`{ echo x; } > .git/config`,
		`echo x &>.git/config`,
		`(echo x) >>.git/config`,
	},
	"5-globs": {
		`echo x | tee .g?t/config`,
		`echo x | tee .[!a]it/config`,
		`echo x | tee .git/con[f]ig`,
	},
}

func TestCanaryRound5(t *testing.T) {
	t.Parallel()
	checkCanaryRound(t, canaryRound5)
}
