//go:build unix

package filelock_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// childMix takes the lock of FILELOCK_TARGET FILELOCK_N times (forever if
// negative) as FILELOCK_KIND says: "park" (Options.Park and
// ParkOnRelease), "nopark", or "plain" (the TypeScript SDK's way, see
// plainAcquire), all with the stale period FILELOCK_STALE. Under the lock
// it adds 1 to the counter file in FILELOCK_WORK and checks that nobody
// else is inside: a marker file made with O_EXCL names the process inside,
// and finding the marker of a process that is still alive is a violation
// (exit 3). A killed process's marker is taken over.
func childMix(target string) int {
	work, kind := os.Getenv("FILELOCK_WORK"), os.Getenv("FILELOCK_KIND")
	n, _ := strconv.Atoi(os.Getenv("FILELOCK_N"))
	stale, _ := time.ParseDuration(os.Getenv("FILELOCK_STALE"))
	counter, marker := filepath.Join(work, "counter"), filepath.Join(work, "inside")
	me := strconv.Itoa(os.Getpid())
	for i := 0; n < 0 || i < n; i++ {
		var l *filelock.Lock
		var err error
		if kind == "plain" {
			err = plainAcquire(target, stale, time.Minute)
		} else {
			l, err = filelock.Acquire(context.Background(), target, filelock.Options{Stale: stale, Timeout: time.Minute, Park: kind == "park"})
			if l != nil && kind == "park" {
				l.ParkOnRelease()
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, kind, "acquire:", err)
			return 1
		}
		for {
			f, err := os.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if err == nil {
				_, _ = f.WriteString(me)
				_ = f.Close()
				break
			}
			other, _ := os.ReadFile(marker)
			if pid, _ := strconv.Atoi(string(other)); pid != 0 && alive(pid) {
				fmt.Fprintf(os.Stderr, "VIOLATION: %s %s got the lock while process %d is inside\n", kind, me, pid)
				return 3
			}
			_ = os.Remove(marker) // left by a killed holder
		}
		b, _ := os.ReadFile(counter)
		v, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if err := os.WriteFile(counter, []byte(strconv.Itoa(v+1)), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "write:", err)
			return 1
		}
		if err := os.Remove(marker); err != nil {
			fmt.Fprintln(os.Stderr, "VIOLATION: marker gone:", err)
			return 3
		}
		if kind == "plain" {
			err = plainRelease(target)
		} else {
			err = l.Release()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, kind, "release:", err)
			return 1
		}
	}
	return 0
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}

func mixChild(t *testing.T, target, work, kind string, n int, stale time.Duration, stderr *bytes.Buffer) *exec.Cmd {
	t.Helper()
	cmd := child(t, "mix", target)
	cmd.Env = append(cmd.Env, "FILELOCK_WORK="+work, "FILELOCK_KIND="+kind,
		"FILELOCK_N="+strconv.Itoa(n), "FILELOCK_STALE="+stale.String())
	cmd.Stderr = stderr
	return cmd
}

var mixKinds = []string{"park", "nopark", "plain", "park", "nopark", "park"}

// Processes locking with parking, without, and the TypeScript SDK's way
// count to 900 under the lock without losing an update or ever being two
// inside.
func TestMixedLockersExcludeEachOther(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the marker check reads /proc")
	}
	dir, work := t.TempDir(), t.TempDir()
	target := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	const n = 150
	var cmds []*exec.Cmd
	var errs []*bytes.Buffer
	for _, kind := range mixKinds {
		var stderr bytes.Buffer
		cmd := mixChild(t, target, work, kind, n, filelock.DefaultStale, &stderr)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, errs = append(cmds, cmd), append(errs, &stderr)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("%s child: %v: %s", mixKinds[i], err, errs[i])
		}
	}
	b, err := os.ReadFile(filepath.Join(work, "counter"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.TrimSpace(string(b)), strconv.Itoa(n*len(mixKinds)); got != want {
		t.Errorf("counter = %s, want %s", got, want)
	}
	checkLeftovers(t, dir, false)
}

// The same lockers, killed with SIGKILL at random moments and restarted
// for a few seconds, are never two inside the lock; once the last is
// killed, every kind of locker gets the lock within the stale period, and
// what the kills left is hidden and ends in ".lock".
func TestMixedLockersKilledAtRandomExcludeEachOther(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the marker check reads /proc")
	}
	dir, work := t.TempDir(), t.TempDir()
	target := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	const stale = 1500 * time.Millisecond
	var mu sync.Mutex
	var failures []string
	start := func(kind string) (*exec.Cmd, chan struct{}) {
		var stderr bytes.Buffer
		cmd := mixChild(t, target, work, kind, -1, stale, &stderr)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				mu.Lock()
				failures = append(failures, fmt.Sprintf("%s child: %v: %s", kind, err, stderr.String()))
				mu.Unlock()
			}
			close(done)
		}()
		return cmd, done
	}
	type proc struct {
		kind string
		cmd  *exec.Cmd
		done chan struct{}
	}
	procs := make([]proc, len(mixKinds))
	for i, kind := range mixKinds {
		cmd, done := start(kind)
		procs[i] = proc{kind, cmd, done}
	}
	kills := 0
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); {
		time.Sleep(time.Duration(20+rand.IntN(130)) * time.Millisecond)
		p := &procs[rand.IntN(len(procs))]
		_ = p.cmd.Process.Kill()
		<-p.done
		kills++
		p.cmd, p.done = start(p.kind)
	}
	for _, p := range procs {
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	for _, f := range failures {
		t.Error(f)
	}
	b, _ := os.ReadFile(filepath.Join(work, "counter"))
	ents, _ := os.ReadDir(dir)
	t.Logf("%d kills, %s increments, %d entries left", kills, strings.TrimSpace(string(b)), len(ents))
	checkLeftovers(t, dir, true)

	begin := time.Now()
	if err := plainAcquire(target, stale, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := plainRelease(target); err != nil {
		t.Fatal(err)
	}
	for _, park := range []bool{true, false} {
		l, err := filelock.Acquire(t.Context(), target, filelock.Options{Stale: stale, Timeout: 10 * time.Second, Park: park})
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Release(); err != nil {
			t.Fatal(err)
		}
	}
	if waited := time.Since(begin); waited > stale+3*time.Second {
		t.Errorf("locked for %v after the last kill", waited)
	}
	checkLeftovers(t, dir, false)
	if _, err := os.Lstat(target + filelock.Suffix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lock left: %v", err)
	}
}

// Many waiters that see the same stale lock at once take it over one at a
// time: each round, eight goroutines find a stale lock (made by mkdir or
// the parked directory) and all of them get the lock in turn, never two
// at once, and the round leaves no lock and nothing but hidden ".lock"
// names behind.
func TestManyWaitersTakeOverAStaleLockOneAtATime(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parking needs no-replace renames (Linux)")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := target + filelock.Suffix
	old := time.Now().Add(-time.Hour)
	for round := range 20 {
		if round%2 == 1 {
			// The parked directory, left as a dead holder's lock.
			l := acquire(t, target, filelock.Options{Park: true})
			l.ParkOnRelease()
			if err := l.Release(); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(filepath.Join(dir, filelock.IdleName), path); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Mkdir(path, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		inside, most := 0, 0
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				// The default stale period: the lock left behind is an
				// hour old, and a shorter period let a holder starved for
				// a second under a loaded -race run (between stamping a
				// parked lock and renaming it into place) be taken over
				// as stale, failing its Check.
				l, err := filelock.Acquire(t.Context(), target, filelock.Options{Timeout: time.Minute, Park: g%2 == 0})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				inside++
				most = max(most, inside)
				mu.Unlock()
				time.Sleep(time.Millisecond)
				if err := l.Check(); err != nil {
					// A late taker that saw the planted lock stale just
					// before the winner replaced it swaps the winner's
					// fresh lock out for a moment and gives it back (see
					// takeOver): the winner's Check may then say
					// compromised, which is safe (it stops writing). Two
					// holders at once must never happen (most, below).
					if !strings.Contains(err.Error(), "lock was compromised") {
						t.Error(err)
					}
					t.Logf("round %d: a holder saw its lock swapped out by a late taker: %v", round, err)
				}
				mu.Lock()
				inside--
				mu.Unlock()
				// The same window may be open when the holder releases:
				// Release then says compromised and removes nothing.
				if err := l.Release(); err != nil && !strings.Contains(err.Error(), "lock was compromised") {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if most != 1 {
			t.Fatalf("round %d: %d holders at once", round, most)
		}
		checkLeftovers(t, dir, false)
	}
}
