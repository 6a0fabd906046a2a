package safefs_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/internal/safefs/safefstest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// raceTree makes, under dir (a data home's project directory, or the
// outside directory laid out like one), the files the race test works on.
func raceTree(t *testing.T, sessions string) {
	t.Helper()
	for _, f := range []string{"s.jsonl", "r.json", "n.json", "x.context/index.jsonl", "x.context/results/1.json", "a.context/index.jsonl"} {
		p := filepath.Join(sessions, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("outside "+f+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Unix(1_600_000_000, 0)
	if err := os.Chtimes(filepath.Join(sessions, "s.jsonl"), old, old); err != nil {
		t.Fatal(err)
	}
}

// swapRaceSetup starts a swap race: a data home's project sessions
// directory and a directory outside laid out the same way (raceTree), the
// sessions directory anchored before the swaps, and from then on
// projects/ exchanged with a link to outside in a loop until stop
// (safefstest.SwapWithLink). want is the hash of the outside tree,
// lock directories and directories' times included.
func swapRaceSetup(t *testing.T) (sessions, outside, want string, first *safefs.Dir, stop func()) {
	t.Helper()
	home := t.TempDir()
	outside = t.TempDir()
	const hash = "0123456789abcdef"
	projects := filepath.Join(home, "projects")
	sessions = filepath.Join(projects, hash, "sessions")
	raceTree(t, sessions)
	raceTree(t, filepath.Join(outside, hash, "sessions"))
	want = safefstest.TreeHash(t, outside, safefstest.LocksByPath)
	first, err := safefs.Anchor(sessions)
	if err != nil {
		t.Fatal(err)
	}
	return sessions, outside, want, first, safefstest.SwapWithLink(t, projects, outside)
}

// storageErrorsOnly returns a check that fails t, naming what, when err
// is neither nil nor a *storage.Error.
func storageErrorsOnly(t *testing.T) func(what string, err error) {
	return func(what string, err error) {
		t.Helper()
		var se *storage.Error
		if err != nil && !errors.As(err, &se) {
			t.Fatalf("%s: error %v (%T) is not a *storage.Error", what, err, err)
		}
	}
}

// TestSwappedProjectsDirectoryNeverLeadsOutside is the race a previous
// review won: another local user who can write in the data home exchanges
// projects/ with a symlink to a directory outside the home laid out the
// same way (renameat2 RENAME_EXCHANGE, in a tight loop) while the stores
// anchor their directories and append, truncate, touch, replace, rename,
// remove and read there. Nothing outside may change, and every error must
// be a *storage.Error; lock directories (RemoveTree takes one) and
// directories' times are compared too. "anchored before" anchors once,
// before the swaps start, and races only the operations; "anchored each time" races the
// anchoring too. The path-based Dir (lstat, then act on the path again)
// changed the outside tree in both, at the first or second attempt.
func TestSwappedProjectsDirectoryNeverLeadsOutside(t *testing.T) {
	for _, each := range []bool{false, true} {
		name := "anchored before"
		if each {
			name = "anchored each time"
		}
		t.Run(name, func(t *testing.T) { swapRace(t, each) })
	}
}

func swapRace(t *testing.T, anchorEach bool) {
	sessions, outside, want, first, stop := swapRaceSetup(t)
	defer stop()
	typed := storageErrorsOnly(t)
	const attempts = 2000
	deadline := time.Now().Add(8 * time.Second)
	done, anchored := 0, 0
	for i := 0; i < attempts && time.Now().Before(deadline); i++ {
		done++
		d, err := first, error(nil)
		if anchorEach {
			d, err = safefs.Anchor(sessions)
			typed("anchor", err)
		}
		if err == nil {
			anchored++
			typed("append", d.Append("s.jsonl", []byte("{}\n"), false))
			typed("touch", d.Touch("s.jsonl", time.Now()))
			typed("write", d.WriteFile("n.json", []byte("new\n")))
			typed("exclusive", d.WriteFileExclusive(fmt.Sprintf("e%d.json", i), []byte("e\n")))
			typed("rename", d.Rename("n.json", "m.json"))
			typed("remove", d.Remove("r.json"))
			typed("remove all", d.RemoveAll("x.context"))
			if f, err := d.OpenAppend("s.jsonl", false); err == nil {
				typed("truncate", f.Truncate(0))
				f.Close()
			} else {
				typed("open append", err)
			}
			_, err = d.ReadFile("a.context/index.jsonl")
			typed("read", err)
		}
		typed("remove tree", safefs.RemoveTree(context.Background(), storage.KindArchive, sessions, "a.context"))
		if got := safefstest.TreeHash(t, outside, safefstest.LocksByPath); got != want {
			t.Fatalf("attempt %d (%d anchored): the directory outside the home changed", i+1, anchored)
		}
	}
	stop()
	if anchored == 0 {
		t.Fatalf("no attempt of %d anchored the directory: the test proved nothing", done)
	}
	t.Logf("%d attempts, %d anchored; nothing outside changed", done, anchored)
}
