package filelock

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// A late taker of the stale lock that the holder's lock replaced swaps the
// holder's lock out for a moment, sees it is not the stale one and swaps
// it back (see takeOver). The holder's Check, refresh and Release during
// that moment must not take the look for a takeover: the lock is held
// throughout, by the holder, and nobody else can take its place.
func TestHolderOutlastsALateTakersLook(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs exchanges (Linux)")
	}
	for _, op := range []string{"check", "refresh", "refresh-when-due", "release"} {
		t.Run(op, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "s.jsonl")
			path := target + Suffix
			o := Options{Stale: 10 * time.Second, Refresh: time.Hour}
			var l *Lock
			looked := false
			swapped := make(chan struct{})
			o.hook = &stepHook{at: func(step string) {
				if step != "verify:again" {
					return
				}
				// At the holder's first look, the late taker's look ends:
				// its swap-back (2 ms later).
				if !looked {
					looked = true
					go func() {
						defer close(swapped)
						time.Sleep(2 * time.Millisecond)
						if err := exchange(path+".look", path); err != nil {
							t.Error(err)
						}
					}()
					return
				}
				// The holder looks again after the look has ended: on a
				// loaded machine the swap-back may come later than the
				// holder's last look (21 ms), which is not what this
				// test is about.
				<-swapped
			}}
			l, err := Acquire(t.Context(), target, o)
			if err != nil {
				t.Fatal(err)
			}
			if op == "refresh-when-due" {
				// The stamp is as old as a refresh finds it, half the
				// stale period: the look before stamping would not look
				// again.
				due := time.Now().Add(-o.Stale / 2)
				if err := os.Chtimes(path, due, due); err != nil {
					t.Fatal(err)
				}
				st, err := os.Lstat(path)
				if err != nil {
					t.Fatal(err)
				}
				l.mtime = st.ModTime()
			}
			// The late taker's look begins: its fresh directory in, the
			// holder's out.
			if err := os.Mkdir(path+".look", 0o700); err != nil {
				t.Fatal(err)
			}
			if err := exchange(path+".look", path); err != nil {
				t.Fatal(err)
			}
			switch op {
			case "check":
				err = l.Check()
			case "refresh", "refresh-when-due":
				err = l.touch()
			case "release":
				err = l.Release()
			}
			if err != nil {
				t.Errorf("%s during a late taker's look: %v", op, err)
			}
			if !looked {
				t.Fatal("the holder never looked again")
			}
			if op != "release" {
				if err := l.Release(); err != nil {
					t.Error(err)
				}
			}
			<-swapped
			_ = os.Remove(path + ".look")
			if _, err := os.Lstat(path); !os.IsNotExist(err) {
				t.Errorf("the lock is still there after its release: %v", err)
			}
		})
	}
}

// A lock found lost after looking again is not looked at again on later
// calls: each look holds the lock's mutex for about 20 ms, and callers
// (Check, the refresh, Move, Release) queue behind it.
func TestLostLockIsLookedAtAgainOnce(t *testing.T) {
	target := filepath.Join(t.TempDir(), "s.jsonl")
	l, err := Acquire(t.Context(), target, Options{Stale: 10 * time.Second, Refresh: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(target + Suffix); err != nil {
		t.Fatal(err)
	}
	looks := 0
	l.hook = &stepHook{at: func(step string) {
		if step == "verify:again" {
			looks++
		}
	}}
	for range 3 {
		if l.Check() == nil {
			t.Fatal("a removed lock checked as held")
		}
	}
	if looks != 3 {
		t.Errorf("looked again %d times over three checks, want 3 (all in the first)", looks)
	}
	_ = l.Release()
}
