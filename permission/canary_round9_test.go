//go:build linux

package permission_test

import "testing"

// canaryRound9 are variants written at the second read of the stop of
// canaryRound8 (none is in the earlier lists). Each does damage when run
// in the fixture of canaryTemplate, so each must be refused by both
// scenarios.
var canaryRound9 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; a=(1); [[ -v a[x] ]]`,
		`x='a[$(rm -f c)]'; a=(1); : "${a[x]-}"`,
		`x='a[$(rm -f c)]'; f() { local -n r=x; : $((r)); }; f`,
	},
	"2-environment": {
		`printf '#!/bin/sh\nrm -f c\n' > e && chmod +x e && git -c core.editor=./e -c user.name=u -c user.email=u@h commit -q --allow-empty 2>/dev/null`,
		`mkdir -p x/git && printf '[alias]\n\tst = !rm -f c\n' > x/git/config && XDG_CONFIG_HOME=x git st`,
		`printf '* diff=x\n' > .gitattributes && printf '#!/bin/sh\nrm -f c\ncat "$1"\n' > t && chmod +x t && git -c diff.x.textconv=./t log -p -1 >/dev/null 2>&1`,
	},
	"3-guards-and-wrappers": {
		`setarch "$(uname -m)" rm -f c`,
		`linux64 rm -f c`,
		`"$(command -v rm)" -f c`,
	},
	"4-redirections": {
		`echo x 2>.git/config 1>&2`,
		`echo x >.git/'con'fig`,
		`echo x >.git/${PWD:0:0}config`,
	},
	"5-globs": {
		`echo x | tee .git/co?fig`,
		`echo x | tee .gi*/config`,
		`echo x | tee .git/c[!x]nfig`,
	},
}

func TestCanaryRound9(t *testing.T) {
	t.Parallel()
	checkCanaryRound(t, canaryRound9)
}
