//go:build linux

package permission_test

import (
	"os"
	"testing"
)

// canaryRunAsUser are lines that run the project's own program (bin/ls of
// the fixture, which deletes the canary) as another user. The program
// alone is allowed under "allow bash"; as root it is no longer bounded by
// the workdir, so the line must be refused. They need root, where su asks
// for no password (runuser does no damage in the fixture's environment;
// shellscan's TestRunAsAnotherUserIsOpaque covers it and sudo, doas, run0).
var canaryRunAsUser = map[string][]string{
	"run-as-another-user": {
		`su root -c ./bin/ls`,
		`su -c ./bin/ls`,
		`nice su root -c ./bin/ls`,
		`timeout 50 su -c ./bin/ls root`,
		`env su -c ./bin/ls root`,
		`command su root -c ./bin/ls`,
	},
}

func TestCanaryRunAsAnotherUser(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("su needs root to run without a password")
	}
	round := installedLines(t, canaryRunAsUser, []string{"su"}, func(line string) (string, string) { return line, "" })
	checkCanaryRound(t, round)
}
