//go:build linux

package permission_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound73 is the attack round of redteam63, on classes the earlier
// rounds did not name: ghostscript told to drop its SAFER mode (by an
// option, its -D synonym, or an @file of options), which then runs the
// PostScript's file operators and %pipe% commands, and Debian's
// make-first-existing-target, which runs make on the makefile the line
// wrote, and LLVM's llvm-jitlink and llvm-rtdyld -execute, which run the
// machine code of an object file the line assembled (lli's kin), and the
// binutils under their target-prefixed names (x86_64-linux-gnu-ld links
// such an object into a shared object, whose constructor nm --plugin or
// gold --plugin runs as it loads it). Each removes or empties the fixture's canary when real bash runs
// it (checked under bwrap in a throwaway directory), so each must be
// refused by both scenarios.
var canaryRound73 = map[string][]string{
	"1-ghostscript-nosafer": {
		`printf '(c) deletefile\n' > x.ps; gs -q -dNOSAFER -dBATCH -dNODISPLAY x.ps`,
		`printf '(%%pipe%%find . -name c -delete) (w) file closefile\n' > x.ps; gs -q -DNOSAFER -dBATCH -dNODISPLAY x.ps`,
		`gs -q -dNOSAFER -dBATCH -dNODISPLAY -c '(c) deletefile'`,
		`printf -- '-dNOSAFER\n' > o; printf '(c) deletefile\n' > x.ps; gs @o -q -dBATCH -dNODISPLAY x.ps`,
	},
	"2-make-first-existing-target": {
		`printf 'all:\n\t@find . -name c -delete\n' > Makefile; make-first-existing-target all`,
		`printf 'x:\n\t@truncate -s 0 c\n' > GNUmakefile; make-first-existing-target y x`,
		`printf 'all:\n\t@find . -name c -delete\n' > makefile; make-first-existing-target clean all`,
	},
	"3-object-code-runners": {
		rt63Unlink + `; as j.s -o j.o; JITLINK j.o`,
		rt63Unlink + `; as j.s -o j.o; llvm-rtdyld -execute j.o`,
		rt63Unlink + `; llvm-mc -filetype=obj j.s -o j.o && llvm-rtdyld -execute j.o`,
	},
	"4-binutils-plugins": {
		rt63Plugin + `; x86_64-linux-gnu-ld -shared p.o -o p.so; nm --plugin ./p.so p.o`,
		rt63Plugin + `; x86_64-linux-gnu-ld -shared p.o -o p.so && x86_64-linux-gnu-nm --plugin=./p.so p.o`,
		rt63Plugin + `; x86_64-linux-gnu-ld -shared p.o -o p.so; x86_64-linux-gnu-ld.gold --plugin ./p.so -r p.o -o q.o`,
	},
}

// rt63Plugin writes and assembles p.s, an x86-64 object whose constructor
// (an .init_array entry) unlinks c when the shared object linked from it
// is loaded.
const rt63Plugin = `printf '.section .init_array,"aw"\n.quad f\n.text\nf:\nlea n(%%rip),%%rdi\nmov $87,%%eax\nsyscall\nret\nn: .asciz "c"\n' > p.s; as p.s -o p.o`

// rt63Unlink writes j.s, x86-64 assembly whose main unlinks c.
const rt63Unlink = `printf '.globl main,_main\nmain:\n_main:\nlea f(%%rip),%%rdi\nmov $87,%%eax\nsyscall\nxor %%eax,%%eax\nret\nf: .asciz "c"\n' > j.s`

// canaryRound73Ordinary are ghostscript's everyday lines, in its SAFER
// mode, which "allow bash" must still allow.
var canaryRound73Ordinary = []string{
	`printf 'showpage\n' > x.ps; gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=pdfwrite -sOutputFile=x.pdf x.ps`,
	`printf 'showpage\n' > x.ps; gs -q -dBATCH -dNODISPLAY x.ps`,
	`ps2pdf README.ps out.pdf`,
}

func TestCanaryRound73(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "gs", "make", "make-first-existing-target", "as", "llvm-mc",
		"llvm-rtdyld", "nm", "x86_64-linux-gnu-ld", "x86_64-linux-gnu-nm", "x86_64-linux-gnu-ld.gold")
	if runtime.GOARCH != "amd64" {
		t.Skip("the object-code lines are x86-64 assembly")
	}
	// llvm-jitlink carries LLVM's version (llvm-jitlink-14 on Debian 12).
	jitlink := ""
	for v := 30; v >= 11 && jitlink == ""; v-- {
		if p, err := exec.LookPath(fmt.Sprintf("llvm-jitlink-%d", v)); err == nil {
			jitlink = p
		}
	}
	if jitlink == "" {
		tooltest.Missing(t, "llvm-jitlink-N is not installed", tooltest.CanaryTools)
	}
	round := map[string][]string{}
	for class, lines := range canaryRound73 {
		for _, l := range lines {
			round[class] = append(round[class], strings.ReplaceAll(l, "JITLINK", jitlink))
		}
	}
	template := canaryTemplate(t)
	checkCanaryRoundIn(t, template, round)
	checkOrdinary(t, template, canaryRound73Ordinary, nil)
}

// canaryRound73Outlives are lines that start a process outliving the
// line: setsid puts its command in a session of its own, so the kill of
// the line's process group with which the bash tool ends every line does
// not reach it (nohup and a background job stay in the group and die).
// Each writes late a second after the group was killed.
var canaryRound73Outlives = []string{
	`setsid sh -c 'sleep 1; echo x > late' & sleep 0.2`,
	`nice setsid sh -c 'sleep 1; echo x > late' > /dev/null 2>&1 & sleep 0.2`,
	`timeout 20 setsid sh -c 'sleep 1; echo x > late'`,
}

// TestCanaryRound73Outlives runs each line of canaryRound73Outlives as the
// bash tool does, in a process group of its own that is killed when the
// line ends (or after half a second), and checks that a process of the
// line still ran after that and that no scenario allowed the line.
func TestCanaryRound73Outlives(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "setsid")
	template := canaryTemplate(t)
	for i, line := range canaryRound73Outlives {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			root := canaryFixture(t, template)
			allowedBy := allowingScenarios(t, root, line)
			cmd := exec.Command("/bin/bash", "-c", line)
			cmd.Dir = filepath.Join(root, "work")
			cmd.Env = canaryEnv(filepath.Join(root, "home"))
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() {
				_ = cmd.Wait()
				close(exited)
			}()
			select {
			case <-exited:
			case <-time.After(500 * time.Millisecond):
			}
			// The kill must come after the line's setsid ran, which a
			// loaded machine may not have got to by the time the line
			// ended (or half a second passed): wait for a process of the
			// line in a session of its own (or for late, if it was quick).
			late := filepath.Join(root, "work", "late")
			waitForEscapedSession(t, filepath.Join(root, "work"), late)
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
			deadline := time.Now().Add(10 * time.Second)
			for time.Now().Before(deadline) {
				if _, err := os.Stat(late); err == nil {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			if _, err := os.Stat(late); err != nil {
				t.Errorf("%q: no process of the line outlived the kill of its process group", line)
			}
			if len(allowedBy) > 0 {
				t.Errorf("%q starts a process that outlives the line and was allowed by %v", line, allowedBy)
			}
		})
	}
}

// waitForEscapedSession waits, for up to 30 s, until a process whose
// working directory is dir leads a session of its own (what setsid makes)
// or the file done exists.
func waitForEscapedSession(t *testing.T, dir, done string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(done); err == nil {
			return
		}
		procs, _ := filepath.Glob("/proc/[0-9]*")
		for _, p := range procs {
			if cwd, err := os.Readlink(filepath.Join(p, "cwd")); err != nil || cwd != dir {
				continue
			}
			b, err := os.ReadFile(filepath.Join(p, "stat"))
			if err != nil {
				continue
			}
			// pid (comm) state ppid pgrp session ...: comm may hold
			// spaces and parentheses, so read from its last ')'.
			i := strings.LastIndexByte(string(b), ')')
			f := strings.Fields(string(b[i+1:]))
			if i > 0 && len(f) > 3 && f[3] == filepath.Base(p) {
				return
			}
		}
	}
	t.Logf("no process in %s led a session of its own within 30 s", dir)
}
