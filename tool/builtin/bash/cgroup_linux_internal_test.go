//go:build linux

package bash

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// run starts command through sh, waits for its shell to exit and returns
// the proc (stopped) and its output.
func run(t *testing.T, sh shell, command string) (*proc, string) {
	t.Helper()
	var mu sync.Mutex
	var out []byte
	p, err := sh.start(command, func(b []byte) bool {
		mu.Lock()
		out = append(out, b...)
		mu.Unlock()
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	<-p.waitDone
	p.stop()
	return p, string(out)
}

// A command with a cgroup runs in it, and the cgroup is gone, with what
// the command left running, once the command is stopped.
func TestCgroupRemovedWhenTheCommandEnds(t *testing.T) {
	parent := needCgroup(t)
	sh := shell{path: "/bin/bash", dir: t.TempDir(), containment: ContainCgroup, cgroupParent: parent}
	p, out := run(t, sh, `sleep 30 & echo $!; cat /proc/self/cgroup`)
	if p.cg == nil {
		t.Fatal("the command has no cgroup")
	}
	if !strings.Contains(out, "/"+filepath.Base(p.cg.dir)+"\n") {
		t.Errorf("the command ran outside its cgroup %s: %q", p.cg.dir, out)
	}
	if _, err := os.Stat(p.cg.dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the cgroup is left: %v", err)
	}
	pid, err := strconv.Atoi(strings.Fields(out)[0])
	if err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil && !zombie(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the background sleep %d still runs", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	_, _, state, ok := statSession(stat)
	return !ok || state == 'Z' || state == 'X'
}

// Where no cgroup can be made, ContainAuto runs the command without one
// and ContainCgroup does not run it.
func TestCgroupUnavailable(t *testing.T) {
	notCgroup := t.TempDir() // a directory, not a cgroup
	sh := shell{path: "/bin/bash", dir: t.TempDir(), containment: ContainAuto, cgroupParent: notCgroup}
	p, out := run(t, sh, `echo ran`)
	if p.cg != nil || out != "ran\n" {
		t.Errorf("cgroup %v, output %q", p.cg, out)
	}
	if left, _ := os.ReadDir(notCgroup); len(left) != 0 {
		t.Errorf("left in %s: %v", notCgroup, left)
	}
	sh.containment = ContainCgroup
	_, err := sh.start(`echo ran > ran`, func([]byte) bool { return true })
	var ce *ContainmentError
	if !errors.As(err, &ce) {
		t.Fatalf("start: %v, want a *ContainmentError", err)
	}
	if _, err := os.Stat(filepath.Join(sh.dir, "ran")); err == nil {
		t.Error("the command ran without a cgroup")
	}
	if _, err := Tool(Options{Workdir: sh.dir, Containment: ContainCgroup}); err != nil && !errors.As(err, &ce) {
		t.Errorf("Tool: %v, want nil or a *ContainmentError", err)
	}
}

// An agent killed while a command ran leaves the command's cgroup with
// what it started running in it; the next bash tool made in the same
// cgroup kills it and removes the cgroup, but leaves one whose agent
// runs.
func TestCgroupLeftByAKilledAgentIsSwept(t *testing.T) {
	parent := needCgroup(t)
	dead := exec.Command("/bin/true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	live := exec.Command("sleep", "30")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	defer live.Wait()
	defer live.Process.Kill()
	sleepIn := func(dir string) *exec.Cmd {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd := exec.Command("sleep", "30")
		cmd.SysProcAttr = &syscall.SysProcAttr{}
		intoCgroup(cmd, f)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	staleDir := filepath.Join(parent, cgroupPrefix(dead.Process.Pid, "1")+"test")
	liveDir := filepath.Join(parent, cgroupPrefix(live.Process.Pid, procStart(live.Process.Pid))+"test")
	stale, running := sleepIn(staleDir), sleepIn(liveDir)
	defer func() {
		(&cgroup{dir: liveDir}).remove()
		running.Wait()
		stale.Process.Kill()
		stale.Wait()
		os.Remove(staleDir)
	}()
	if _, err := Tool(Options{Workdir: t.TempDir(), Containment: ContainCgroup}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(staleDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the cgroup of the dead agent is left: %v", err)
	}
	if !zombie(stale.Process.Pid) {
		t.Error("its process runs")
	}
	if _, err := os.Stat(liveDir); err != nil {
		t.Errorf("the cgroup of the running agent: %v", err)
	}
	if zombie(running.Process.Pid) {
		t.Error("the process in the running agent's cgroup was killed")
	}
}

// A command with the right to (root) may make cgroups inside its own and
// move its processes there: they die with it, and its cgroup is removed
// at once, the ones it made inside included.
func TestCgroupMadeInsideTheCommandsIsRemoved(t *testing.T) {
	parent := needCgroup(t)
	sh := shell{path: "/bin/bash", dir: t.TempDir(), containment: ContainCgroup, cgroupParent: parent}
	start := time.Now()
	p, out := run(t, sh, `cg=`+parent+`$(sed -n 's/^0:://p' /proc/self/cgroup)
mkdir "$cg/a" "$cg/a/b" || exit
sleep 30 & echo $! > "$cg/a/b/cgroup.procs"; echo $!`)
	took := time.Since(start)
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		t.Skipf("the command cannot make a cgroup in its own: %q", out)
	}
	if _, err := os.Stat(p.cg.dir); !errors.Is(err, os.ErrNotExist) {
		os.Remove(filepath.Join(p.cg.dir, "a", "b"))
		os.Remove(filepath.Join(p.cg.dir, "a"))
		os.Remove(p.cg.dir)
		t.Errorf("the cgroup is left: %v", err)
	}
	if took > cgroupDrain/2 {
		t.Errorf("the call took %v", took)
	}
	if !zombie(pid) {
		t.Errorf("the sleep %d in the inner cgroup runs", pid)
	}
}

// A cgroup left by a killed agent whose pid a running process took since
// (an agent restarted in the same container) is swept all the same: the
// name says when its agent started.
func TestCgroupLeftByAnAgentWhosePidWasTakenIsSwept(t *testing.T) {
	parent := needCgroup(t)
	// The agent that left it had this process's pid and started at
	// tick 1, before this process.
	staleDir := filepath.Join(parent, fmt.Sprintf("lite-agent-bash-%s-%d-1-test", pidNamespace(), os.Getpid()))
	if err := os.Mkdir(staleDir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(staleDir)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	intoCgroup(cmd, f)
	err = cmd.Start()
	f.Close()
	if err != nil {
		os.Remove(staleDir)
		t.Fatal(err)
	}
	defer func() {
		(&cgroup{dir: staleDir}).remove()
		cmd.Wait()
	}()
	if _, err := Tool(Options{Workdir: t.TempDir(), Containment: ContainCgroup}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(staleDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the cgroup of the dead agent is left: %v", err)
	}
	if !zombie(cmd.Process.Pid) {
		t.Error("its process runs")
	}
}

// needCgroup returns the cgroup the bash tool makes its commands' cgroups
// in, and skips the test where none can be made or started in.
func needCgroup(t *testing.T) string {
	t.Helper()
	parent, err := cgroupParent()
	if err == nil {
		err = probeCgroup(parent, "/bin/bash")
	}
	if err != nil {
		t.Skipf("no cgroup can be made here: %v", err)
	}
	return parent
}
