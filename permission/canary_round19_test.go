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
	tools := t.TempDir()
	for name, script := range map[string]string{
		"nuke":   "#!/bin/sh\nrm -f c\n",
		"runit":  "#!/bin/sh\n[ \"$1\" = -q ] && shift\nexec \"$@\"\n",
		"runopt": "#!/bin/sh\ncmd=${1#--exec=}\nshift\nexec $cmd \"$@\"\n",
	} {
		if err := os.WriteFile(filepath.Join(tools, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	template := canaryTemplate(t)
	for _, line := range canaryRound19 {
		line = strings.ReplaceAll(line, "/TOOLS", tools)
		root := canaryFixture(t, template)
		out := authorize(t, canaryGate(t, root, canaryDenyUnmodelledRules), line)
		if out.Verdict.Decision != permission.Deny {
			t.Errorf("%q: %v, want deny", line, out.Verdict)
		}
		if strings.Contains(line, "rm") {
			refusedEverywhere(t, root, line)
		}
		before := canarySnapshot(t, root)
		run := runLine(t, root, line, 5*time.Second, tools)
		if p := changed(before, canarySnapshot(t, root)); p == "" {
			t.Errorf("%q did no damage when run:\n%s", line, run)
		}
	}
	g := canaryGate(t, canaryFixture(t, template), canaryDenyUnmodelledRules)
	for _, line := range canaryRound19Ordinary {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
}
