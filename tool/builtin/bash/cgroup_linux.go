//go:build linux

package bash

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cgroupDrain bounds how long removing a command's cgroup waits for the
// processes killed in it to exit (one in uninterruptible sleep dies
// only when the sleep ends).
const cgroupDrain = 2 * time.Second

// A cgroup is the cgroup v2 directory made for one command: its process
// starts in it (clone3 with CLONE_INTO_CGROUP), so does everything that
// process starts, and none of them can leave it without the right to
// write the cgroup.procs of another cgroup, whatever process group or
// session they move to. Writing 1 to its cgroup.kill kills every process
// in it at once, the ones being forked included.
type cgroup struct {
	dir string
}

// cgroupParent returns the directory under which the commands' cgroups
// are made: the cgroup v2 of the current process, as /proc/self/cgroup
// names it, where the cgroup2 file system is mounted. Making a cgroup in
// it and starting a process there needs the right to write in it and to
// its cgroup.procs: root's in a container, or a cgroup delegated by
// systemd (a user slice's service or scope with Delegate=yes).
func cgroupParent() (string, error) {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	own, ok := "", false
	for line := range strings.SplitSeq(string(self), "\n") {
		if p, found := strings.CutPrefix(line, "0::"); found {
			own, ok = p, true
			break
		}
	}
	if !ok {
		return "", errors.New("no cgroup v2 in /proc/self/cgroup")
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	sc := bufio.NewScanner(bytes.NewReader(mounts))
	for sc.Scan() {
		// id parent major:minor root mountpoint options… - fstype source …
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok || !strings.HasPrefix(post, "cgroup2 ") {
			continue
		}
		f := strings.Fields(pre)
		if len(f) < 5 {
			continue
		}
		root, point := unescapeMount(f[3]), unescapeMount(f[4])
		rel, ok := strings.CutPrefix(own, root)
		if !ok || (rel != "" && root != "/" && !strings.HasPrefix(rel, "/")) {
			continue
		}
		return filepath.Join(point, rel), nil
	}
	return "", errors.New("cgroup2 is not mounted")
}

// unescapeMount undoes the octal escapes (\040 for a space) of a path in
// /proc/self/mountinfo.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// newCgroup makes a cgroup for one command under parent and opens it for
// cmd.SysProcAttr.CgroupFD; the caller closes the file once the command
// has started.
func newCgroup(parent string) (*cgroup, *os.File, error) {
	var id [8]byte
	rand.Read(id[:])
	pid := os.Getpid()
	dir := filepath.Join(parent, cgroupPrefix(pid, procStart(pid))+hex.EncodeToString(id[:]))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, nil, err
	}
	// cgroup.kill came with Linux 5.14; without it the cgroup is of no use.
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		os.Remove(dir)
		return nil, nil, fmt.Errorf("%s is not a cgroup v2 with cgroup.kill: %w", parent, err)
	}
	f, err := os.Open(dir)
	if err != nil {
		os.Remove(dir)
		return nil, nil, err
	}
	return &cgroup{dir: dir}, f, nil
}

// kill kills every process in the cgroup, the ones being forked
// included. The cgroup may be gone already.
func (c *cgroup) kill() {
	f, err := os.OpenFile(filepath.Join(c.dir, "cgroup.kill"), os.O_WRONLY, 0)
	if err != nil {
		return
	}
	f.WriteString("1")
	f.Close()
}

// remove kills what is left in the cgroup, waits (up to cgroupDrain)
// until no process is in it and removes it with the cgroups the command
// made inside it (root may). A cgroup a process still holds after that
// is left in place, its processes killed.
func (c *cgroup) remove() error {
	c.kill()
	deadline := time.Now().Add(cgroupDrain)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		err := rmdirTree(c.dir)
		if err == nil || errors.Is(err, syscall.ENOENT) {
			return nil
		}
		if !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
			return &os.PathError{Op: "remove cgroup", Path: c.dir, Err: err}
		}
		time.Sleep(delay)
	}
}

// rmdirTree removes the cgroup dir after the cgroups inside it, deepest
// first; the error is the one removing dir met.
func rmdirTree(dir string) error {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			rmdirTree(filepath.Join(dir, e.Name()))
		}
	}
	return syscall.Rmdir(dir)
}

// intoCgroup makes cmd's process start in the cgroup f is open on.
func intoCgroup(cmd *exec.Cmd, f *os.File) {
	cmd.SysProcAttr.UseCgroupFD = true
	cmd.SysProcAttr.CgroupFD = int(f.Fd())
}

// probeCgroup makes a cgroup under parent, starts shell (exit 0) in it
// and removes it: the kernel may let a process make a cgroup and not
// start one in it (clone3 missing, no right to write the cgroup.procs of
// the current cgroup).
func probeCgroup(parent, shell string) error {
	c, f, err := newCgroup(parent)
	if err != nil {
		return err
	}
	defer c.remove()
	defer f.Close()
	cmd := exec.Command(shell, "-c", "exit 0")
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	intoCgroup(cmd, f)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("start a process in cgroup %s: %w", c.dir, err)
	}
	return nil
}

// cgroupPrefix begins the name of the cgroups the process pid (of the
// current PID namespace), started at start (see procStart), makes:
// "lite-agent-bash-<namespace>-<pid>-<start>-", the namespace being the
// inode number of /proc/self/ns/pid, so that a process of another PID
// namespace with the same pid, sharing the cgroup tree, is not taken for
// it, and the start telling the agent from a later process that took its
// pid.
func cgroupPrefix(pid int, start string) string {
	return fmt.Sprintf("lite-agent-bash-%s-%d-%s-", pidNamespace(), pid, start)
}

// procStart returns when the process pid started, in clock ticks after
// boot (field 22 of /proc/<pid>/stat), "" where /proc does not say.
func procStart(pid int) string {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return ""
	}
	f := bytes.Fields(stat[i+1:]) // from field 3, the state
	if len(f) < 20 {
		return ""
	}
	return string(f[19])
}

// pidNamespace returns the inode number of the current PID namespace,
// "?" where /proc does not say.
func pidNamespace() string {
	ns, err := os.Readlink("/proc/self/ns/pid") // "pid:[4026531836]"
	if err != nil {
		return "?"
	}
	return strings.TrimSuffix(strings.TrimPrefix(ns, "pid:["), "]")
}

// sweepCgroups kills and removes the cgroups under parent that a process
// of the current PID namespace that no longer runs left: an agent that
// was killed while a command ran leaves its cgroup, with what the command
// started still running in it. A process that runs with the agent's pid
// but started at another time is not the agent.
func sweepCgroups(parent string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	var stale []*cgroup
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, "lite-agent-bash-")
		if !ok || !e.IsDir() {
			continue
		}
		f := strings.SplitN(rest, "-", 4) // namespace, pid, start, random
		if len(f) < 4 {
			continue
		}
		pid, err := strconv.Atoi(f[1])
		if err != nil || pid <= 0 || !strings.HasPrefix(name, cgroupPrefix(pid, f[2])) {
			continue
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			if start := procStart(pid); start == "" || f[2] == "" || start == f[2] {
				continue // it runs (or /proc could not tell)
			}
		}
		c := &cgroup{dir: filepath.Join(parent, name)}
		c.kill()
		stale = append(stale, c)
	}
	for _, c := range stale {
		c.remove()
	}
}
