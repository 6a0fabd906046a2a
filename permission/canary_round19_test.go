//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryDenyUnmodelledRules is "allow bash" with a deny rule that names a
// program the analysis knows nothing of (nuke, a script on PATH that
// deletes the canary), as a user denies terraform destroy or kubectl
// delete.
const canaryDenyUnmodelledRules = `{"version":1,"rules":[
 {"tool":"bash","when":{"command":{"startsWith":"nuke"}},"effect":"deny"},
 {"tool":"bash","when":{"command":{"startsWith":"rm"}},"effect":"deny"},
 {"tool":"bash","effect":"allow"}]}`

// canaryRound19 are lines that run a denied command through a runner the
// analysis does not model either (logsave, and two scripts: runit runs
// its operands, runopt runs the value of its --exec=CMD option with its
// other operands), or hand a denied program's name to such a runner as an
// option's value. Before round 19 the deny rules saw only the runner's
// name, and "allow bash" allowed every one of these.
var canaryRound19 = []string{
	`/usr/sbin/logsave /dev/null nuke`,
	`runit nuke`,
	`runit -q /TOOLS/nuke`,
	`runopt --exec=nuke`,
	`runopt --exec=rm -f c`,
	`runopt --exec='rm   -f c'`,
	`runit runopt --exec=nuke`,
}

// canaryRound19Ordinary are lines next to the round's attacks that the
// policy must still allow.
var canaryRound19Ordinary = []string{`runit ls`, `runopt --exec=ls -l`, `/usr/sbin/logsave /dev/null ls`, `runit nuked-report.txt`}

// TestCanaryRound19DenyRulesSeeCommandsOfUnmodelledRunners checks that each
// line of canaryRound19 is denied (not merely asked about) under a deny
// rule for the program it runs, and does damage when run; those that run
// rm are also refused by both canary scenarios.
func TestCanaryRound19DenyRulesSeeCommandsOfUnmodelledRunners(t *testing.T) {
	t.Parallel()
	tools := runnerTools(t, map[string]string{
		"nuke":   "#!/bin/sh\nrm -f c\n",
		"runit":  "#!/bin/sh\n[ \"$1\" = -q ] && shift\nexec \"$@\"\n",
		"runopt": "#!/bin/sh\ncmd=${1#--exec=}\nshift\nexec $cmd \"$@\"\n",
	})
	checkRunnerRound(t, tools, canaryRound19, canaryRound19Ordinary, "deny", func(v permission.Verdict) bool {
		return v.Decision == permission.Deny
	})
}

// runnerTools writes scripts (name → text) into a new directory and
// returns it, for the PATH of the lines that run them.
func runnerTools(t *testing.T, scripts map[string]string) string {
	t.Helper()
	tools := t.TempDir()
	for name, script := range scripts {
		if err := os.WriteFile(filepath.Join(tools, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return tools
}

// checkRunnerRound decides each of lines (with /TOOLS standing for tools)
// under canaryDenyUnmodelledRules in a fresh fixture: refused (described
// by want) must hold of the verdict, a line that runs rm -f c must be
// refused by both canary scenarios too, and each line must do damage when
// run with tools on PATH. Each of ordinary must be allowed.
func checkRunnerRound(t *testing.T, tools string, lines, ordinary []string, want string, refused func(permission.Verdict) bool) {
	t.Helper()
	template := canaryTemplate(t)
	for _, line := range lines {
		line = strings.ReplaceAll(line, "/TOOLS", tools)
		root := canaryFixture(t, template)
		if out := authorize(t, canaryGate(t, root, canaryDenyUnmodelledRules), line); out.Run || !refused(out.Verdict) {
			t.Errorf("%q: %v, want %s", line, out.Verdict, want)
		}
		if strings.Contains(line, " -f c") {
			refusedEverywhere(t, root, line)
		}
		before := canarySnapshot(t, root)
		run := runLine(t, root, line, 5*time.Second, tools)
		if p := changed(before, canarySnapshot(t, root)); p == "" {
			t.Errorf("%q did no damage when run:\n%s", line, run)
		}
	}
	g := canaryGate(t, canaryFixture(t, template), canaryDenyUnmodelledRules)
	for _, line := range ordinary {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
}
