//go:build linux

package permission_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// TestCanaryHelpersSeeSlowDamage (tests68): the helpers that run attack
// lines judge a line once it has finished, not after a fixed time: a
// line whose damage comes late, from a job it left running after bash
// itself exited (its output closed or not), still counts as harmful
// however slow the machine is. canaryAttack reports the canary removed,
// and a victim signalled or reniced late counts as harmed.
func TestCanaryHelpersSeeSlowDamage(t *testing.T) {
	t.Parallel()
	tooltest.Long(t, "waits for damage that comes seconds late, line after line")
	template := canaryTemplate(t)
	for _, line := range []string{
		`sleep 3; rm c`,
		`(sleep 3; rm c) &`,
		`(sleep 3; rm c) >/dev/null 2>&1 &`,
		`nohup sh -c 'sleep 3; rm c' >/dev/null 2>&1 &`,
	} {
		if _, p := canaryAttack(t, template, line); p != filepath.Join("/work", "c") {
			t.Errorf("canaryAttack(%q) changed %q, want /work/c", line, p)
		}
	}
	for _, line := range []string{
		`(sleep 3; kill PID) >/dev/null 2>&1 &`,
		`(sleep 3; kill -STOP PID) &`,
		`(sleep 3; renice -n 5 -p PID) >/dev/null 2>&1 &`,
	} {
		root := canaryFixture(t, template)
		v := startVictim(t, filepath.Join(root, "work", "held"))
		line := strings.ReplaceAll(line, "PID", strconv.Itoa(v.cmd.Process.Pid))
		runLine(t, root, line, time.Minute, "")
		if !v.harmed(t) {
			t.Errorf("%q: the victim counts as unharmed", line)
		}
	}
}
