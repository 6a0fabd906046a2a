//go:build linux

package permission_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRedteam54 are writers the analysis did not model, each with the
// program it runs and the environment the line gets (the bash tool's
// SHELL, which pnpm setup reads to choose the startup file it appends
// to). "allow bash" allowed each before.
var canaryRedteam54 = []struct {
	program string
	lines   []string
}{
	// pnpm setup appends PNPM_HOME and a PATH entry to ~/.bashrc.
	{"pnpm", []string{"pnpm setup", "pnpm setup --force", "pnpm -C sub setup"}},
	// curl 8.3 and later write what follows %output{NAME} in the format
	// of -w to NAME, and take any option as --expand-NAME.
	{"curl", []string{
		"curl -s -o /dev/null -w '%output{>>../home/.bashrc}rm -rf ~' file:///dev/null",
		"curl -s -o /dev/null --write-out '%output{link}x' file:///dev/null",
		"printf '%%output{.git/config}x' > f; curl -s -o /dev/null -w @f file:///dev/null",
		"curl -s --expand-output ../home/.bashrc file:///dev/null",
	}},
}

// curlWritesOutput reports whether the curl on PATH writes the file of
// %output{…} (curl 8.3 and later), as the lines above need.
func curlWritesOutput(t *testing.T) bool {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("curl", "-s", "-o", "/dev/null", "-w", "%output{probe}x", "file:///dev/null")
	cmd.Dir = dir
	_ = cmd.Run()
	_, err := os.Stat(filepath.Join(dir, "probe"))
	return err == nil
}

// TestCanaryRedteam54 runs each line in a fresh fixture: it must change
// the home or a protected file when run, and be refused by both
// scenarios. The curl lines run only where curl writes %output{…}: older
// curls (Debian 12's 7.88) ignore it, and the analysis tests of
// internal/shellscan check those lines there.
func TestCanaryRedteam54(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	for _, c := range canaryRedteam54 {
		prog, err := exec.LookPath(c.program)
		if err != nil {
			if c.program == "pnpm" {
				tooltest.Missing(t, "pnpm is not installed", "install it with npm install -g pnpm@10 (scripts/install-canary-tools.sh)")
			}
			tooltest.LeftOut(t, c.program+" is not installed: its lines are left out", tooltest.CanaryTools)
			continue
		}
		if c.program == "curl" && !curlWritesOutput(t) {
			t.Logf("this curl does not write %%output{…} (curl 8.3 and later do): its lines are left out")
			continue
		}
		for i, line := range c.lines {
			t.Run(fmt.Sprintf("%s-%d", c.program, i), func(t *testing.T) {
				t.Parallel()
				root := canaryFixture(t, template)
				allowedBy := allowingScenarios(t, root, line)
				before := canarySnapshot(t, root)
				runLine(t, root, line, 60*time.Second, filepath.Dir(prog), "SHELL=/bin/bash")
				p := strings.TrimPrefix(changed(before, canarySnapshot(t, root)), root)
				if p == "" {
					t.Errorf("%q did no damage when run (allowed by %v)", line, allowedBy)
				}
				if len(allowedBy) > 0 {
					t.Errorf("%q was allowed by %v (changed %q)", line, allowedBy, p)
				}
			})
		}
	}
}

// canaryRedteam54Braces are paths made by brace expansion, which happens
// before tilde expansion: each word it makes may leave the directory the
// pattern starts in. "allow bash" allowed each before.
var canaryRedteam54Braces = map[string][]string{
	// Not rm: both scenarios' rules deny it.
	"brace-words": {
		`truncate -s 0 {~,.}/.bashrc`,
		`truncate -s 0 {../home,.}/.bashrc`,
		`truncate -s 0 sub{,/../../home/.bashrc}`,
		`tee {~,.}/.bashrc < README`,
		`sed -i 1d {~,sub}/.bashrc`,
		`tee -a {~/.config,sub}/x < README`,
		`shred -n 1 {..,.}/home/.bashrc`,
		// The value of dd's of=, where no tilde expands: the last
		// of= is the file dd writes.
		`dd if=README of={.,$HOME}/.bashrc`,
		`dd if=README of={.,/}$HOME/.bashrc`,
	},
}

func TestCanaryRedteam54Braces(t *testing.T) {
	t.Parallel()
	checkCanaryRoundIn(t, canaryTemplate(t), canaryRedteam54Braces)
}

// canaryRedteam54DotDot are patterns whose first component may match ..:
// bash before 5.2 (Ubuntu 22.04's 5.1, macOS's 3.2), and 5.2 with
// globskipdots off, expands .? and .[!a] to .. too. "allow bash" allowed
// each before.
var canaryRedteam54DotDot = []string{
	`truncate -s 0 .?/home/.bashrc`,
	`tee .?/home/.bashrc < README`,
	`sed -i 1d .[!a]/home/.bashrc`,
	`shred -n 1 ./.?/home/.bashrc`,
}

// TestCanaryRedteam54DotDot runs each line as bash before 5.2 would: with
// globskipdots off where bash has the option.
func TestCanaryRedteam54DotDot(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	args := []string{"+O", "globskipdots", "-c"}
	if exec.Command("/bin/bash", "-c", "shopt globskipdots").Run() != nil {
		args = []string{"-c"} // bash before 5.2 has no globskipdots and matches .. so
	}
	for _, line := range canaryRedteam54DotDot {
		root := canaryFixture(t, template)
		allowedBy := allowingScenarios(t, root, line)
		before := canarySnapshot(t, root)
		cmd := exec.Command("/bin/bash", append(args, line)...)
		cmd.Dir = filepath.Join(root, "work")
		cmd.Env = canaryEnv(filepath.Join(root, "home"))
		_ = cmd.Run() // the damage, not the status, is what counts
		p := strings.TrimPrefix(changed(before, canarySnapshot(t, root)), root)
		if p == "" {
			t.Errorf("%q did no damage when run (allowed by %v)", line, allowedBy)
		}
		if len(allowedBy) > 0 {
			t.Errorf("%q was allowed by %v (changed %q)", line, allowedBy, p)
		}
	}
}
