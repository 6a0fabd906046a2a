//go:build linux

package permission_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound93 are the lines of review round 93 (spellings the compiler
// search-directory rule of round 89 missed) that removed the canary in
// real bash under bwrap and that "allow bash" allowed.
var canaryRound93 = map[string][]string{
	"1-compiler": {
		`gcc --include-directory=../evil -o t x.c && ./t`,
		`gcc --include-directory ../evil -o t x.c && ./t`,
		`gcc --include-directory-after=../evil -o t q.c && ./t`,
		`gcc -iprefix ../ -iwithprefixbefore evil -o t x.c && ./t`,
		`gcc -iprefix ../ -iwithprefix evil -o t q.c && ./t`,
		`gcc -include ../evil/q.h -o t x.c && ./t`,
		`gcc @../evil/rsp -o t x.c && ./t`,
		`echo -I../evil > rsp; gcc @rsp -o t x.c && ./t`,
		`CPATH=../evil gcc -o t x.c && ./t`,
		`C_INCLUDE_PATH=../evil gcc -o t x.c && ./t`,
		`env CPATH=../evil gcc -o t x.c && ./t`,
		`export CPATH=../evil; gcc -o t x.c && ./t`,
		`gcc -B../evil/ -c x.c`,
		`COMPILER_PATH=../evil gcc -c x.c`,
		`gcc -wrapper ../evil/w -c x.c`,
		`gcc --sysroot=.. -c x.c && gcc -o t x.o && ./t`,
		`make CFLAGS=-I../evil x && ./x`,
		`CFLAGS=-I../evil make x && ./x`,
	},
}

func TestCanaryRound93(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "gcc", "g++", "make")
	template := canaryTemplate(t)
	shadow := "#include_next <stdio.h>\n" + round89Constructor
	self := "int unlink(const char*); int puts(const char*);\n__attribute__((constructor)) static void evil(void){ unlink(\"c\"); }\n"
	writeTreeMode(t, template, map[string]string{
		"work/x.c":            "#include <stdio.h>\nint main(void){puts(\"hi\");return 0;}\n",
		"work/q.c":            "#include \"q.h\"\nint main(void){return 0;}\n",
		"evil/stdio.h":        shadow,
		"evil/q.h":            round89Constructor,
		"evil/rsp":            "-I../evil\n",
		"evil/as":             "#!/bin/sh\nrm -f c\nexec /usr/bin/as \"$@\"\n",
		"evil/w":              "#!/bin/sh\nrm -f c\nexec \"$@\"\n",
		"usr/include/stdio.h": self,
		"stdio.h":             shadow,
	}, 0o755)
	checkCanaryRoundIn(t, template, canaryRound93)
}

// canaryRound93OtherProcess are lines that write the home through a
// directory another process (PID, one running in the home with the home
// open as descriptor 3) has open.
var canaryRound93OtherProcess = []string{
	`echo x >> /proc/PID/fd/3/.bashrc`,
	`echo x >> /proc/PID/task/PID/fd/3/.bashrc`,
	`echo x >> /proc/PID/root/HOME/.bashrc`,
	`echo x >> /proc/PID/task/PID/root/HOME/.bashrc`,
	`cd /proc/PID/cwd && echo x >> .bashrc`,
	`echo x >> pp/PID/cwd/.bashrc`,
	`echo x >> /proc/PID/cwd/./.bashrc`,
	`cp README /proc/PID/fd/3/.bashrc`,
}

func TestCanaryRound93OtherProcess(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "sleep", "sh")
	template := canaryTemplate(t)
	for i, line := range canaryRound93OtherProcess {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			root := canaryFixture(t, template)
			home := filepath.Join(root, "home")
			pid := round93Holder(t, home)
			if err := os.Symlink("/proc", filepath.Join(root, "work", "pp")); err != nil {
				t.Fatal(err)
			}
			line := strings.ReplaceAll(strings.ReplaceAll(line, "PID", pid), "HOME", strings.TrimPrefix(home, "/"))
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
}

// round93Holder starts a process that waits in dir with dir open as its
// descriptor 3 and returns its number; it is killed when the test ends.
func round93Holder(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("sh", "-c", "exec sleep 300 3<.")
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// sh has the directory open as descriptor 3 only once it execs
	// sleep: wait for that, or a line may run before there is a
	// descriptor to write through.
	fd3 := filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "fd", "3")
	want, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		if target, err := os.Readlink(fd3); err == nil && target == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the holder never opened %s as descriptor 3", dir)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return strconv.Itoa(cmd.Process.Pid)
}

// canaryRound93Background are pairs whose first call runs in the
// background and writes later from inside a command string or a program
// the line runs, whose redirections the rule of round 91 took for the
// line's own (opened when it starts): the job wrote .git/config through
// the link the second call made.
var canaryRound93Background = map[string][2]string{
	"1-sh-c":         {`sh -c 'sleep 2; echo x > sub/l/config'`, `cp -P dotgit sub/l`},
	"2-bash-c":       {`bash -c 'sleep 2; echo x > sub/l/config'`, `cp -P dotgit sub/l`},
	"3-timeout-sh-c": {`timeout 100 sh -c 'sleep 2; echo x > sub/l/config'`, `cp -P dotgit sub/l`},
	"4-pipe-sh-c":    {`sleep 2 | sh -c 'cat > sub/l/config'`, `cp -P dotgit sub/l`},
	"5-find-exec":    {`find . -maxdepth 0 -exec sh -c 'sleep 2; echo x > sub/l/config' \;`, `cp -P dotgit sub/l`},
	"6-nohup-bash-c": {`nohup bash -c 'sleep 2; echo x >> sub/l/config' > /dev/null`, `cp -P dotgit sub/l`},
	"7-sh-c-tee":     {`sh -c 'sleep 2; echo x | tee sub/l/config'`, `cp -P dotgit sub/l`},
	"8-xargs-sh-c":   {`echo sub/l/config | xargs sh -c 'sleep 2; echo x > "$0"'`, `cp -P dotgit sub/l`},
}

func TestCanaryRound93BackgroundCalls(t *testing.T) {
	t.Parallel()
	checkCallPairs(t, canaryRound93Background, true)
}

// canaryRound93BackgroundOrdinary stay allowed in the background: their
// own redirections and tee files, quoted or not, and a command string
// that redirects nothing.
var canaryRound93BackgroundOrdinary = []string{
	`npm run dev > "dev.log" 2>&1`, `python3 -m http.server 8000 >> srv.log 2>&1`, `go run . 2>&1 | tee -a 'run.log'`,
	`sh -c 'npm run dev' > dev.log 2>&1`, `npm run dev > dev.log 2> err.log`,
}

func TestCanaryRound93BackgroundOrdinary(t *testing.T) {
	t.Parallel()
	checkBackgroundAllowed(t, canaryRound93BackgroundOrdinary)
}
