//go:build linux

package filelock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// openDescriptors returns the number of descriptors this process has open.
func openDescriptors(t *testing.T) int {
	t.Helper()
	names, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(names)
}

// replaceDir puts another directory at path in place of the one there: a
// lock taken over and removed, and a newer lock made.
func replaceDir(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Rmdir(path); err != nil {
		t.Error(err)
	}
	if err := os.Mkdir(path, lockDirMode); err != nil {
		t.Error(err)
	}
}

// Every way of taking a lock that ends without it, and every way a lock
// ends, closes each lock directory it opened: a descriptor left open leaks
// with each lock. The number of open descriptors is the same after each
// case as before it (fewer would be a descriptor closed twice that another
// file had got meanwhile).
func TestEveryPathClosesItsDirectory(t *testing.T) {
	const stale = 200 * time.Millisecond
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, target string)
	}{
		{"takeover gives a fresh lock back", func(t *testing.T, target string) {
			path := plant(t, target)
			o := Options{Stale: stale, Timeout: 50 * time.Millisecond}
			o.hook = &stepHook{at: func(step string) {
				if step == "takeover:seen" {
					replaceDir(t, path)
				}
			}}
			if l, err := Acquire(t.Context(), target, o); err == nil {
				l.Release()
				t.Fatal("took a fresh lock over")
			}
		}},
		{"unpark puts the parked directory back", func(t *testing.T, target string) {
			parkOne(t, target)
			o := Options{Stale: stale, Park: true, Timeout: 50 * time.Millisecond}
			o.hook = &stepHook{at: func(step string) {
				if step == "unpark:stamped" { // locked by mkdir meanwhile
					if err := os.Mkdir(target+Suffix, lockDirMode); err != nil {
						t.Error(err)
					}
				}
			}}
			if l, err := Acquire(t.Context(), target, o); err == nil {
				l.Release()
				t.Fatal("took a held lock")
			}
			if _, err := os.Lstat(filepath.Join(filepath.Dir(target), IdleName)); err != nil {
				t.Errorf("the parked directory was not put back: %v", err)
			}
		}},
		{"a placed lock taken over before it is stamped", func(t *testing.T, target string) {
			// Only the first try is looked at: the context ends as the
			// lock is replaced, so Acquire returns after that try. Left
			// to try again, it found the replacing lock, which nobody
			// refreshes, stale once a loaded machine had taken the
			// stale period to get there, and rightly took it over.
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			o := Options{Stale: stale, Timeout: 50 * time.Millisecond}
			o.hook = &stepHook{at: func(step string) {
				switch step {
				case "acquire:made": // stalls: the stamp is no longer recent
					time.Sleep(stale/4 + 10*time.Millisecond)
				case "acquire:placed":
					replaceDir(t, target+Suffix)
					cancel()
				}
			}}
			l, err := Acquire(ctx, target, o)
			if err == nil {
				l.Release()
				t.Fatal("took another's lock for its own")
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Acquire: %v, want the context's end after the first try", err)
			}
		}},
		{"taken over, released", func(t *testing.T, target string) {
			plant(t, target)
			l, err := Acquire(t.Context(), target, Options{Stale: stale})
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Release(); err != nil {
				t.Fatal(err)
			}
		}},
		{"unparked, parked again", func(t *testing.T, target string) {
			parkOne(t, target)
			parkOne(t, target)
		}},
		{"removed, released twice", func(t *testing.T, target string) {
			l, err := Acquire(t.Context(), target, Options{Stale: stale})
			if err != nil {
				t.Fatal(err)
			}
			if err := syscall.Rmdir(target + Suffix); err != nil {
				t.Fatal(err)
			}
			if l.Release() == nil {
				t.Error("released a removed lock without a loss")
			}
			if err := l.Release(); err != nil {
				t.Errorf("second release: %v", err)
			}
		}},
		{"replaced before release (given back)", func(t *testing.T, target string) {
			o := Options{Stale: stale}
			o.hook = &stepHook{at: func(step string) {
				if step == "release:verified" {
					replaceDir(t, target+Suffix)
				}
			}}
			l, err := Acquire(t.Context(), target, o)
			if err != nil {
				t.Fatal(err)
			}
			if l.Release() == nil {
				t.Error("released a replaced lock without a loss")
			}
			if err := syscall.Rmdir(target + Suffix); err != nil {
				t.Errorf("the newer lock was not given back: %v", err)
			}
		}},
		{"moves refused and lost", func(t *testing.T, target string) {
			other := filepath.Join(filepath.Dir(target), "b.jsonl")
			o := Options{Stale: stale}
			replaced := false
			o.hook = &stepHook{at: func(step string) {
				if step == "move:verified" && replaced {
					replaceDir(t, target+Suffix)
				}
			}}
			l, err := Acquire(t.Context(), target, o)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(other+Suffix, lockDirMode); err != nil {
				t.Fatal(err)
			}
			if err := l.Move(other); !errors.Is(err, os.ErrExist) {
				t.Errorf("Move to a locked target: %v", err)
			}
			replaced = true
			if err := syscall.Rmdir(other + Suffix); err != nil {
				t.Fatal(err)
			}
			if l.Move(other) == nil {
				t.Error("moved a replaced lock")
			}
			if l.Release() == nil {
				t.Error("released a lost lock without a loss")
			}
			_ = syscall.Rmdir(target + Suffix)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "s.jsonl")
			if err := os.WriteFile(target, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			before := openDescriptors(t)
			tc.run(t, target)
			if after := openDescriptors(t); after != before {
				t.Errorf("%d descriptors open before, %d after", before, after)
			}
		})
	}
}

// plant makes target's lock directory as a killed holder leaves it, an
// hour old, and returns its path.
func plant(t *testing.T, target string) string {
	t.Helper()
	path := target + Suffix
	if err := os.Mkdir(path, lockDirMode); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	return path
}

// parkOne takes target's lock with parking and releases it, parking its
// directory.
func parkOne(t *testing.T, target string) {
	t.Helper()
	l, err := Acquire(t.Context(), target, Options{Park: true})
	if err != nil {
		t.Fatal(err)
	}
	l.ParkOnRelease()
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
}
