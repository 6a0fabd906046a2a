//go:build linux

package permission_test

import "testing"

// canaryRound7 are variants written at the second read of the stop of
// canaryRound6 (none is in the earlier lists). Each does damage when run
// in the fixture of canaryTemplate, so each must be refused by both
// scenarios.
var canaryRound7 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; until ((x)); do break; done`,
		`x='a[$(rm -f c)]'; if ((x)); then :; fi`,
		`x='a[$(rm -f c)]'; a=(1 2); b=("${a[@]:x:1}")`,
	},
	"2-environment": {
		`mkdir h && printf '#!/bin/sh\nrm -f c\n' > h/pre-commit && chmod +x h/pre-commit && git -c core.hooksPath=h -c user.name=u -c user.email=u@h commit -q --allow-empty -m m`,
		`git -c protocol.ext.allow=always ls-remote 'ext::sh -c rm% -f% c' 2>/dev/null`,
		`git -c diff.external='rm -f c; false' diff --no-index README /dev/null`,
	},
	"3-guards-and-wrappers": {
		`nice --adjustment=1 rm -f c`,
		`xargs -r -n1 rm -f <<< c`,
		`env -i PATH="$PATH" rm -f c`,
	},
	"4-redirections": {
		"cat <<EOF >.git/config\nx\nEOF",
		`echo x >"$(printf .git/config)"`,
		`{ echo x >&3; } 3>.git/config`,
	},
	"5-globs": {
		`echo x | tee .[^a]it/config`,
		`echo x | tee .git/[[:lower:]]onfig`,
		`echo x | tee .?i?/config`,
	},
}

func TestCanaryRound7(t *testing.T) {
	t.Parallel()
	checkCanaryRound(t, canaryRound7)
}
