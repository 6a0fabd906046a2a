package filelock_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// BenchmarkAcquireRelease measures taking and releasing an uncontended lock,
// what every store operation outside a held session pays, with and
// without parking.
//
//	go test ./internal/filelock -run '^$' -bench AcquireRelease -benchtime 2000x
func BenchmarkAcquireRelease(b *testing.B) {
	for _, park := range []bool{false, true} {
		b.Run(fmt.Sprintf("park=%v", park), func(b *testing.B) {
			target := filepath.Join(b.TempDir(), "s.jsonl")
			if err := os.WriteFile(target, nil, 0o600); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				l, err := filelock.Acquire(b.Context(), target, filelock.Options{Park: park})
				if err != nil {
					b.Fatal(err)
				}
				l.ParkOnRelease()
				if err := l.Release(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func lstat(t *testing.T, path string) fs.FileInfo {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A lock made by mkdir is parked at release only when its holder asks
// (a writer); a lock taken from the parked place goes back there, whatever
// became of its target, so that a lock for reading leaves the directory as
// it found it. The parked directory is stamped fresh before it appears as
// a lock, and only one is parked at a time.
func TestReleasedLockIsParkedForTheNextLock(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parking needs no-replace renames (Linux)")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	idle := filepath.Join(dir, filelock.IdleName)
	for _, target := range []string{a, b} {
		if err := os.WriteFile(target, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	names := func() []string {
		t.Helper()
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range ents {
			out = append(out, e.Name())
		}
		return out
	}
	acquire := func(target string) *filelock.Lock {
		t.Helper()
		l, err := filelock.Acquire(t.Context(), target, filelock.Options{Park: true})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	release := func(l *filelock.Lock) {
		t.Helper()
		if err := l.Release(); err != nil {
			t.Fatal(err)
		}
	}

	// A reader's lock, made by mkdir: nothing left behind.
	release(acquire(a))
	if got, want := names(), []string{"a.jsonl", "b.jsonl"}; !slices.Equal(got, want) {
		t.Fatalf("after a reader's lock: %q, want %q", got, want)
	}

	// A writer's: parked.
	la := acquire(a)
	la.ParkOnRelease()
	held := lstat(t, la.Path())
	release(la)
	if !os.SameFile(lstat(t, idle), held) {
		t.Fatal("the parked directory is not the released lock's")
	}

	// However old the parked directory's stamp, the lock it becomes is
	// fresh: nobody may take it over as stale.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(idle, old, old); err != nil {
		t.Fatal(err)
	}
	lb := acquire(b)
	if !os.SameFile(lstat(t, lb.Path()), held) {
		t.Error("the lock of b is not the parked directory")
	}
	if age := time.Since(lstat(t, lb.Path()).ModTime()); age > time.Minute {
		t.Errorf("unparked lock is %v old", age)
	}
	if _, err := os.Lstat(idle); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("parked directory still there while it is b's lock: %v", err)
	}
	if err := lb.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}

	// Two locks at once: the second is made by mkdir. At release the
	// first goes back to the parked place; the second, even asked to park,
	// finds the place taken and is removed.
	la = acquire(a)
	la.ParkOnRelease()
	release(lb)
	release(la)
	if got, want := names(), []string{filelock.IdleName, "a.jsonl", "b.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("after two locks: %q, want %q", got, want)
	}

	// A lock taken from the parked place whose target is deleted under it
	// (a delete's) goes back all the same: the directory is as it was.
	lc := acquire(a)
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	release(lc)
	if got, want := names(), []string{filelock.IdleName, "b.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("after the delete's lock: %q, want %q", got, want)
	}
	// A writer's lock made by mkdir for a target that is gone at release
	// is not parked either.
	if err := os.Remove(idle); err != nil {
		t.Fatal(err)
	}
	ld := acquire(a)
	ld.ParkOnRelease()
	release(ld)
	if got, want := names(), []string{"b.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("after a lock of a missing target: %q, want %q", got, want)
	}
}

// Whatever sits under IdleName that is not a directory is never taken as
// a lock and never removed: locks are made by mkdir instead.
func TestParkedPlaceHoldingAFileIsLeftAlone(t *testing.T) {
	dir := t.TempDir()
	idle := filepath.Join(dir, filelock.IdleName)
	for _, tc := range []struct {
		name  string
		plant func() error
	}{
		{"file", func() error { return os.WriteFile(idle, []byte("keep"), 0o600) }},
		{"symlink to a directory", func() error { return os.Symlink(dir, idle) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(idle)
			if err := tc.plant(); err != nil {
				t.Fatal(err)
			}
			before, err := os.Lstat(idle)
			if err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(dir, "s.jsonl")
			l, err := filelock.Acquire(t.Context(), target, filelock.Options{Park: true})
			if err != nil {
				t.Fatal(err)
			}
			st, err := os.Lstat(l.Path())
			if err != nil || !st.IsDir() {
				t.Fatalf("lock path: %v, %v", st, err)
			}
			if err := l.Release(); err != nil {
				t.Fatal(err)
			}
			after, err := os.Lstat(idle)
			if err != nil || !os.SameFile(before, after) {
				t.Errorf("what was planted under %s is gone or replaced: %v", filelock.IdleName, err)
			}
			if _, err := os.Lstat(l.Path()); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("lock directory after release: %v", err)
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), ".claim-") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

func TestLeftover(t *testing.T) {
	for name, want := range map[string]bool{
		".claim-0123456789ab.lock":   true,
		".stale-abcdef012345.lock":   true,
		filelock.IdleName:            false,
		"s.jsonl.lock":               false,
		".claim-0123456789a.lock":    false, // 11 digits
		".stale-0123456789abcd.lock": false,
		".stale-0123456789xy.lock":   false,
		".claim-0123456789ab":        false,
		"claim-0123456789ab.lock":    false,
	} {
		if got := filelock.Leftover(name); got != want {
			t.Errorf("Leftover(%q) = %v, want %v", name, got, want)
		}
	}
}
