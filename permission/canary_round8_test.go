//go:build linux

package permission_test

import "testing"

// canaryRound8 are variants written before the stop of the redactor's
// windows (none is in the earlier lists). Each does damage when run in the
// fixture of canaryTemplate, so each must be refused by both scenarios.
var canaryRound8 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; a=(); a[x]=1`,
		`x='a[$(rm -f c)]'; a=([x]=1)`,
		`x='a[$(rm -f c)]'; a=(1); read 'a[x]' <<< 2`,
	},
	"2-environment": {
		`git ls-remote --upload-pack='rm -f c; false' . 2>/dev/null`,
		`printf '#!/bin/sh\nrm -f c\nexit 1\n' > g && chmod +x g && git -c gpg.program=./g -c commit.gpgsign=true -c user.name=u -c user.email=u@h commit -q --allow-empty -m m 2>/dev/null`,
		`printf '#!/bin/sh\nrm -f c\n' > p && chmod +x p && git -c core.gitProxy=./p ls-remote git://h/x 2>/dev/null`,
	},
	"3-guards-and-wrappers": {
		`mkdir d && printf '#!/bin/sh\nrm -f c\n' > d/x && chmod +x d/x && run-parts d`,
		`tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='rm -f c' README`,
		`\rm -f c`,
	},
	"4-redirections": {
		`echo x > $'.git/config'`,
		`echo x > .git/con\fig`,
		`exec 5>"${PWD}/.git/config"; echo x >&5`,
	},
	"5-globs": {
		`echo x | tee .gi[t]/config`,
		`echo x | tee .g*/config`,
		`echo x | tee .git/conf{ig,x}`,
	},
}

func TestCanaryRound8(t *testing.T) {
	t.Parallel()
	checkCanaryRound(t, canaryRound8)
}
