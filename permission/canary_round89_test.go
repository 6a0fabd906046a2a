//go:build linux

package permission_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/permission"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// round89Constructor is a header's code that runs when the program it is
// built into starts: it removes the canary.
const round89Constructor = "#include <unistd.h>\n__attribute__((constructor)) static void evil(void){ unlink(\"c\"); }\n"

// canaryRound89 are the lines of round 89 (a build pulling code from
// outside the project) that removed the canary in real bash under bwrap
// and that "allow bash" allowed: a header directory outside the project
// and the system's own holds a stdio.h that shadows the system's (or the
// q.h that q.c includes) and adds a constructor, which the built program
// runs. The fixture's ../evil and its parent (the project's "..") hold
// such headers; the project's inc is a link to ../evil.
var canaryRound89 = map[string][]string{
	"1-header-directories": {
		`gcc -I../evil -o t x.c && ./t`,
		`gcc -I ../evil -o t x.c && ./t`,
		`cc -I../evil -o t x.c && ./t`,
		`g++ -I../evil -o t -x c++ x.c && ./t`,
		`gcc -isystem ../evil -o t x.c && ./t`,
		`gcc -isystem../evil -o t x.c && ./t`,
		`gcc -iquote ../evil -o t q.c && ./t`,
		`gcc -idirafter ../evil -o t q.c && ./t`,
		`gcc -Xpreprocessor -I../evil -o t x.c && ./t`,
		`gcc -I$PWD/../evil -o t x.c && ./t`,
		`gcc -I/proc/self/cwd/../evil -o t x.c && ./t`,
		`gcc -I../evil -c x.c && gcc -o t x.o && ./t`,
		// The project's parent: whatever lies beside the project.
		`gcc -I.. -o t x.c && ./t`,
		// A directory of the project linked to ../evil (inc).
		`gcc -Iinc -o t x.c && ./t`,
		`gcc -isystem inc -o t x.c && ./t`,
	},
}

// canaryRound89Ordinary stay allowed: header directories in the project
// and the system's.
var canaryRound89Ordinary = []string{
	`gcc -I. -o t x.c && ./t`, `gcc -Iinclude -Isub -c x.c`, `gcc -I/usr/include -o t x.c && ./t`,
	`cc -isystem /usr/local/include -c x.c`, `gcc -Isub/.. -o t x.c`,
}

func TestCanaryRound89(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "gcc", "g++")
	template := canaryTemplate(t)
	shadow := "#include_next <stdio.h>\n" + round89Constructor
	writeTreeMode(t, template, map[string]string{
		"work/x.c":     "#include <stdio.h>\nint main(void){puts(\"hi\");return 0;}\n",
		"work/q.c":     "#include \"q.h\"\nint main(void){return 0;}\n",
		"evil/stdio.h": shadow,
		"evil/q.h":     round89Constructor,
		"stdio.h":      shadow,
	}, 0o644)
	if err := os.Symlink("../evil", filepath.Join(template, "work", "inc")); err != nil {
		t.Fatal(err)
	}
	checkCanaryRoundIn(t, template, canaryRound89)
	checkOrdinary(t, template, canaryRound89Ordinary, nil)
}

// canaryRound89OtherCwd are lines that write the home through the working
// directory of another process (PID, a process running in the fixture's
// home, as the agent's or an editor's may): the gate took /proc/PID/cwd for
// the command's own directory and allowed them; real bash wrote the home.
// p is a link of the project to /proc/PID/cwd.
var canaryRound89OtherCwd = []string{
	`echo 'rm -rf ~' >> /proc/PID/cwd/.bashrc`,
	`truncate -s 0 /proc/PID/cwd/.bashrc`,
	`cp README /proc/PID/cwd/.bashrc`,
	`echo x >> /proc/PID/task/PID/cwd/.bashrc`,
	`tee -a /proc/PID/cwd/.config/x < README`,
	`echo x >> p/.bashrc`,
}

// canaryRound89OtherCwdOrdinary stay allowed: the command's own
// directory through /proc/self, and a look at another process.
var canaryRound89OtherCwdOrdinary = []string{
	`echo x > /proc/self/cwd/out.txt`, `cat /proc/self/cwd/README`, `cat /proc/PID/status`, `ls -l /proc/PID/cwd`,
	`cat /proc/PID/cwd/README`,
}

// round89Sleeper starts a process that waits in dir and returns its
// number; it is killed when the test ends.
func round89Sleeper(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("sleep", "300")
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return strconv.Itoa(cmd.Process.Pid)
}

func TestCanaryRound89OtherProcessCwd(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "sleep", "tee", "truncate")
	template := canaryTemplate(t)
	for i, line := range canaryRound89OtherCwd {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			root := canaryFixture(t, template)
			pid := round89Sleeper(t, filepath.Join(root, "home"))
			if err := os.Symlink("/proc/"+pid+"/cwd", filepath.Join(root, "work", "p")); err != nil {
				t.Fatal(err)
			}
			line := strings.ReplaceAll(line, "PID", pid)
			allowedBy := allowingScenarios(t, root, line)
			before := canarySnapshot(t, root)
			runBashUntil(t, root, line, 10*time.Second, func() bool { return damaged(t, root, before) })
			if p := changed(before, canarySnapshot(t, root)); p == "" {
				t.Errorf("%q did no damage when run", line)
			}
			if len(allowedBy) > 0 {
				t.Errorf("%q was allowed by %v", line, allowedBy)
			}
		})
	}
	t.Run("ordinary", func(t *testing.T) {
		pid := round89Sleeper(t, filepath.Join(template, "home"))
		checkOrdinary(t, template, canaryRound89OtherCwdOrdinary, func(line string) string { return strings.ReplaceAll(line, "PID", pid) })
	})
}

// Reading a key through another process's working directory (one in the
// home) asks under the secret-read rule: the gate took it for the
// command's directory and allowed the read; real bash printed the key.
func TestRound89OtherProcessCwdSecretRead(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	pid := round89Sleeper(t, home)
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		`cat /proc/PID/cwd/.ssh/id_ed25519`, `head -1 /proc/PID/task/PID/cwd/.ssh/id_ed25519`,
		`cat /proc/PID/cwd/.aws/credentials`, `grep -r KEY /proc/PID/cwd`, `tar cf - /proc/PID/cwd/.ssh`,
	} {
		line = strings.ReplaceAll(line, "PID", pid)
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		cmd := exec.CommandContext(ctx, "/bin/bash", "-c", line)
		cmd.Dir = wd
		cmd.Env = canaryEnv(home)
		out, _ := cmd.CombinedOutput()
		cancel()
		if !strings.Contains(string(out), round84Key) {
			t.Errorf("%q did not print the key when run: %q", line, out)
		}
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	for _, line := range []string{`cat /proc/self/cwd/README`, `cat /proc/PID/cwd/README`, `cat /proc/PID/status`} {
		line = strings.ReplaceAll(line, "PID", pid)
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("ordinary line %q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}
