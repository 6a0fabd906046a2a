//go:build linux

package permission_test

import "testing"

// canaryRound6 are variants written for the stop that changed how the
// gate's file stamps are computed on 32-bit platforms (none is in the
// earlier lists). Each does damage when run in the fixture of
// canaryTemplate, so each must be refused by both scenarios.
var canaryRound6 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; s=abcd; echo "${s:1:x}"`,
		`x='a[$(rm -f c)]'; a=(1 2); echo "${#a[x]}"`,
		`x='a[$(rm -f c)]'; while ((x)); do break; done`,
	},
	"2-environment": {
		`PROMPT_COMMAND='rm -f c' bash -i </dev/null`,
		`printf '#!/bin/sh\nrm -f c\n' > d.sh && chmod +x d.sh && GIT_EXTERNAL_DIFF=./d.sh git diff --no-index README /dev/null`,
		`printf 'protocol=https\nhost=h\n\n' | GIT_TERMINAL_PROMPT=0 git -c credential.helper='!rm -f c; false' credential fill`,
	},
	"3-guards-and-wrappers": {
		`exec -a x rm -f c`,
		`coproc rm -f c; wait`,
		`setpriv rm -f c`,
	},
	"4-redirections": {
		`exec {fd}>.git/config; echo x >&$fd`,
		`echo x 1>.git/./config`,
		`printf x | cat >.git//config`,
	},
	"5-globs": {
		`echo x | tee .[f-h]it/config`,
		`echo x | tee .git/c*g`,
		`echo x | tee .*t/config`,
	},
}

func TestCanaryRound6(t *testing.T) {
	t.Parallel()
	checkCanaryRound(t, canaryRound6)
}
