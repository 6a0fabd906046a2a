package retention

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// These tests use the unexported clock and the hook that runs between the
// scan and a removal, to change the tree at the worst moment.

func writeAged(t *testing.T, path string, age time.Duration, now time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	when := now.Add(-age)
	if err := os.Chtimes(path, when, when); err != nil {
		t.Fatal(err)
	}
}

func TestEntryChangedBeforeRemovalSurvives(t *testing.T) {
	now := time.Now()
	tests := []struct {
		name   string
		change func(t *testing.T, path, decoy string)
		reason SkipReason
		stays  bool // the entry path must still exist
	}{
		{"ReplacedBySymlink", func(t *testing.T, p, decoy string) {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(decoy, p); err != nil {
				t.Fatal(err)
			}
		}, SkipChanged, true},
		{"ReplacedByDirectory", func(t *testing.T, p, _ string) {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
		}, SkipChanged, true},
		{"ReplacedByNewFile", func(t *testing.T, p, _ string) {
			tmp := p + ".new"
			writeAged(t, tmp, 40*24*time.Hour, now)
			if err := os.Rename(tmp, p); err != nil {
				t.Fatal(err)
			}
		}, SkipChanged, true},
		{"Appended", func(t *testing.T, p, _ string) {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString("more"); err != nil {
				t.Fatal(err)
			}
		}, SkipChanged, true},
		{"GainedALock", func(t *testing.T, p, _ string) {
			if err := os.Mkdir(p+".lock", 0o700); err != nil {
				t.Fatal(err)
			}
		}, SkipLocked, true},
		{"RemovedByOthers", func(t *testing.T, p, _ string) {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		}, SkipChanged, false},
	}
	for _, tt := range tests {
		for _, limit := range []bool{false, true} {
			name := tt.name + "/age"
			if limit {
				name = tt.name + "/size"
			}
			t.Run(name, func(t *testing.T) {
				root := t.TempDir()
				home := filepath.Join(root, "home")
				decoy := filepath.Join(root, "decoy.txt")
				writeAged(t, decoy, 400*24*time.Hour, now)
				target := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa", "sessions", "s.jsonl")
				age := 40 * 24 * time.Hour
				if limit {
					age = time.Hour
				}
				writeAged(t, target, age, now)

				hooked := 0
				rep, err := Sweep(t.Context(), Options{
					Home: home, LimitBytes: limit, now: func() time.Time { return now },
					beforeRemove: func(p string) {
						hooked++
						if p == target {
							tt.change(t, p, decoy)
						}
					},
				})
				if err != nil {
					t.Fatal(err)
				}
				if hooked != 1 {
					t.Fatalf("hook ran %d times", hooked)
				}
				if len(rep.Removed) != 0 {
					t.Fatalf("removed %+v", rep.Removed)
				}
				want := []Skip{{Path: target, Reason: tt.reason}}
				if !slices.Equal(rep.Skipped, want) {
					t.Fatalf("skipped %+v, want %+v", rep.Skipped, want)
				}
				if _, err := os.Lstat(target); (err == nil) != tt.stays {
					t.Fatalf("entry exists = %v, want %v", err == nil, tt.stays)
				}
				if b, err := os.ReadFile(decoy); err != nil || string(b) != "0123456789" {
					t.Fatalf("decoy damaged: %q %v", b, err)
				}
			})
		}
	}
}

func TestAgeCutoffIsStrict(t *testing.T) {
	now := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa", "spill")
	writeAged(t, filepath.Join(dir, "at-cutoff.txt"), DefaultMaxAge, now)
	writeAged(t, filepath.Join(dir, "past-cutoff.txt"), DefaultMaxAge+time.Microsecond, now)
	rep, err := Sweep(t.Context(), Options{Home: home, now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Removed) != 1 || filepath.Base(rep.Removed[0].Path) != "past-cutoff.txt" {
		t.Fatalf("removed %+v; want only the entry older than the cutoff", rep.Removed)
	}
}

func TestCancellationStopsBetweenEntries(t *testing.T) {
	now := time.Now()
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa", "sessions")
	for _, name := range []string{"a.jsonl", "b.jsonl", "c.jsonl"} {
		writeAged(t, filepath.Join(dir, name), 40*24*time.Hour, now)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	rep, err := Sweep(ctx, Options{Home: home, beforeRemove: func(string) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Sweep = %v, want context.Canceled", err)
	}
	if len(rep.Removed) != 1 || filepath.Base(rep.Removed[0].Path) != "a.jsonl" {
		t.Fatalf("removed %+v; want only the entry in progress", rep.Removed)
	}
	for _, name := range []string{"b.jsonl", "c.jsonl"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestDirectoryReplacedBeforeOpenIsNotSwept(t *testing.T) {
	now := time.Now()
	for _, sub := range []string{"", "sessions"} {
		name := "Project"
		if sub != "" {
			name = "Sessions"
		}
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			home := filepath.Join(root, "home")
			project := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa")
			swapped := filepath.Join(project, sub)
			writeAged(t, filepath.Join(project, "sessions", "own.jsonl"), 40*24*time.Hour, now)
			// A decoy tree inside the projects directory, so that even
			// os.Root would let a symlink reach it.
			decoyDir := filepath.Join(home, "projects", "bbbbbbbbbbbbbbbb")
			if sub != "" {
				decoyDir = filepath.Join(decoyDir, "sessions")
			}
			decoy := filepath.Join(home, "projects", "bbbbbbbbbbbbbbbb", "sessions", "decoy.jsonl")
			writeAged(t, decoy, 40*24*time.Hour, now)
			parked := filepath.Join(root, "parked")

			rep, err := Sweep(t.Context(), Options{
				Home: home, DryRun: true, now: func() time.Time { return now },
				beforeOpen: func(p string) {
					if p != swapped {
						return
					}
					if err := os.Rename(swapped, parked); err != nil {
						t.Fatal(err)
					}
					rel, err := filepath.Rel(filepath.Dir(swapped), decoyDir)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.Symlink(rel, swapped); err != nil {
						t.Fatal(err)
					}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			// Opened through a symlink that stays inside the projects
			// directory, the swap is seen as a change; one that leaves
			// the parent is refused by os.Root. Either way it is reported.
			var refused bool
			for _, s := range rep.Skipped {
				refused = refused || s.Path == swapped && (s.Reason == SkipChanged || s.Reason == SkipError)
			}
			if !refused {
				t.Fatalf("skipped %+v; want %s reported as changed or refused", rep.Skipped, swapped)
			}
			// The decoy is swept once, as itself, never through the swap.
			for _, e := range rep.Removed {
				if e.Path != decoy {
					t.Errorf("removed %s", e.Path)
				}
			}
			if len(rep.Removed) != 1 {
				t.Errorf("removed %+v; want the decoy's own entry only", rep.Removed)
			}
		})
	}
}

// Every lock is now made and released under a hidden name
// (.stale-<hex>.lock) that stays for a moment: one gone between the
// sweep's look at it and its opening (placed as a lock, or removed) is
// passed over as any entry gone since the listing, not reported as an
// error.
func TestTransientLockDirectoryGoneBeforeOpenIsNoError(t *testing.T) {
	now := time.Now()
	home := t.TempDir()
	sessions := filepath.Join(home, "projects", "aaaaaaaaaaaaaaaa", "sessions")
	writeAged(t, filepath.Join(sessions, "own.jsonl"), time.Hour, now)
	aside := filepath.Join(sessions, ".stale-0123456789ab.lock")
	if err := os.Mkdir(aside, 0o700); err != nil {
		t.Fatal(err)
	}
	rep, err := Sweep(t.Context(), Options{
		Home: home, now: func() time.Time { return now },
		beforeOpen: func(p string) {
			if p == aside {
				if err := os.Rename(aside, filepath.Join(sessions, "own.jsonl.lock")); err != nil {
					t.Error(err)
				}
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Skipped {
		if s.Path == aside {
			t.Errorf("skipped %+v", s)
		}
	}
}
