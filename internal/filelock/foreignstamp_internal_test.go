//go:build unix

package filelock

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// plainHolder is a child process holding a lock as a TypeScript SDK
// process does (see childPlainHolder in plainholder_test.go), driven one
// refresh step at a time.
type plainHolder struct {
	t   *testing.T
	in  io.Writer
	out *bufio.Reader
}

// startPlainHolder starts a plainHolder on target and waits until it holds
// the lock.
func startPlainHolder(t *testing.T, target string) *plainHolder {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FILELOCK_TEST_CHILD=plain-holder", "FILELOCK_TARGET="+target)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = in.Close(); _ = cmd.Wait() })
	h := &plainHolder{t: t, in: in, out: bufio.NewReader(out)}
	if got := h.answer(); got != "locked" {
		t.Fatalf("plain holder said %q", got)
	}
	return h
}

func (h *plainHolder) answer() string {
	h.t.Helper()
	line, err := h.out.ReadString('\n')
	if err != nil {
		h.t.Fatalf("plain holder: %v", err)
	}
	return strings.TrimSpace(line)
}

// do sends one command and returns the answer.
func (h *plainHolder) do(cmd string) string {
	h.t.Helper()
	if _, err := io.WriteString(h.in, cmd+"\n"); err != nil {
		h.t.Fatal(err)
	}
	return h.answer()
}

// A process that stamps the lock by path after looking at it (a TypeScript
// SDK process, proper-lockfile; or a Go process where stamps go by path),
// stalled between the look and the stamp until its lock went stale and a
// Go process took it over, stamps the Go process's lock and holds it as its
// own until its next look, a refresh period later. The Go holder's next
// refresh must find that stamp and count its lock lost, leaving one holder
// at once: stamping over it first hid it, and both held the lock until the
// other process's next refresh (its look then found the Go stamp).
func TestRefreshFindsAnotherProcessesStamp(t *testing.T) {
	target := filepath.Join(t.TempDir(), "s.jsonl")
	other := startPlainHolder(t, target)
	if got := other.do("look"); got != "mine" {
		t.Fatalf("the other process's refresh looked and found its lock %s", got)
	}
	// It stalls here; its lock goes stale and is taken over.
	o := Options{Stale: 200 * time.Millisecond, Refresh: time.Hour, Timeout: 5 * time.Second}
	l, err := Acquire(t.Context(), target, o)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if got := other.do("stamp"); got != "stamped" {
		t.Fatalf("the other process's stamp: %s", got)
	}
	// The other process now holds the lock as far as it can tell, and
	// works under it until its next refresh. Go's refresh comes later
	// than the clock ticks of the file system and of proper-lockfile's
	// millisecond stamps.
	time.Sleep(20 * time.Millisecond)
	refreshErr := l.touch()
	checkErr := l.Check()
	otherHolds := other.do("look") == "mine"
	goHolds := refreshErr == nil && checkErr == nil
	if goHolds {
		t.Errorf("the refresh after another process's stamp held the lock (refresh %v, check %v): "+
			"that process held it too until its next look (which found it %s)", refreshErr, checkErr, map[bool]string{true: "held", false: "lost"}[otherHolds])
	}
	if goHolds == otherHolds {
		t.Errorf("after both looked: Go holds %v, the other process holds %v; want exactly one", goHolds, otherHolds)
	}
}

// Where a lock is made by mkdir at its path and opened there afterwards
// (no no-replace renames: macOS, the BSDs, NFS; see place), a process
// stalled between the two for the stale period opens the directory of the
// process that took its lock over, and both hold one directory. Each one's
// refresh must find the other's stamp, as a look before stamping did: with
// each stamping before it looks, each looks at its own stamp and both hold
// the lock for as long as they run.
func TestTwoHoldersOfOneDirectoryFindEachOther(t *testing.T) {
	target := filepath.Join(t.TempDir(), "s.jsonl")
	o := Options{Stale: 10 * time.Second, Refresh: time.Hour}
	a, err := Acquire(t.Context(), target, o)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	// The stalled process's open, at the lock path, of the lock there.
	d, st, err := openDescribed(target + Suffix)
	if err != nil {
		t.Fatal(err)
	}
	b := holdAs(target+Suffix, o.withDefaults(), d, st)
	defer b.stop()
	holds := map[*Lock]bool{a: true, b: true}
	for range 3 {
		for _, l := range []*Lock{a, b} {
			// Stamps further apart than the file system's clock tick.
			time.Sleep(20 * time.Millisecond)
			if holds[l] && l.touch() != nil {
				holds[l] = false
			}
		}
	}
	if holds[a] && holds[b] {
		t.Error("two holders of one lock directory refreshed three times each, neither finding the other")
	}
	if !holds[a] && !holds[b] {
		t.Error("both holders found their lock lost: the lock is held by nobody until it is stale")
	}
}
