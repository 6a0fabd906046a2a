package migrate_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// stepChildEnv makes the test binary a migrating child that kills itself
// (SIGKILL, as a crash would stop it) at the step of opening the
// destination or planning the source that the variable names (see
// migrate.OnStep), migrating $MIGRATE_FROM to $MIGRATE_TO as runChild
// does.
const stepChildEnv = "MIGRATE_TEST_STEP_CHILD"

// stepGrace is how long a child (or the order test) holds the goroutine
// that reached a step before it goes on or dies: long enough for what
// runs alongside that goroutine (the plan, or a copy that did not wait
// for the marker) to show in the destination.
const stepGrace = 150 * time.Millisecond

// runStepChild is the child of TestKilledAtEveryStepLeavesNoCopyWithoutItsMarker.
func runStepChild(step string) int {
	opts, ok := childOptions()
	if !ok {
		return 2
	}
	migrate.OnStep(&opts, func(name string) {
		if name == step {
			time.Sleep(stepGrace)
			killSelf()
		}
	})
	return finishChild(opts)
}

// childOptions migrates $MIGRATE_FROM to $MIGRATE_TO with the codecs of
// childCodecs, or says why it cannot on standard error.
func childOptions() (migrate.Options, bool) {
	from, to, ok := childCodecs()
	return migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: os.Getenv("MIGRATE_FROM"), Codec: from}},
		To:   migrate.Endpoint{Storage: storage.Options{Home: os.Getenv("MIGRATE_TO"), Codec: to}},
	}, ok
}

// killSelf stops the child with SIGKILL, as a crash would, and does not
// return.
func killSelf() {
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // until the signal lands
}

// finishChild runs the child's migration to its end, which a child meant
// to die on the way should not reach: exit status 3.
func finishChild(opts migrate.Options) int {
	_, err := migrate.Run(context.Background(), opts)
	fmt.Fprintln(os.Stderr, "migration finished:", err)
	return 3
}

// The steps of opening a destination and planning the source, in the
// order one goroutine each takes them (the plan runs alongside the
// opening of an empty destination).
var (
	openSteps = []string{"anchored", "locked", "marked"}
	lateSteps = []string{"planned", "copying", "parents synced", "unmarking"}
)

// A migration killed at any step of opening its destination (while the
// source is planned alongside) or of finishing it never leaves copied
// data without the marker: until the marker is durable the destination
// root holds nothing but the lock, the copy makes its first entry only
// after that, and the marker is still there once the entries of the
// directories the run made are synced, which must come before it goes.
// A rerun then completes the copy. Each step is the child's last: it
// kills itself there, after a grace that lets whatever runs alongside
// the step go on.
func TestKilledAtEveryStepLeavesNoCopyWithoutItsMarker(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
	before := treeHash(t, src.home)
	for _, step := range slices.Concat(openSteps, lateSteps) {
		t.Run(step, func(t *testing.T) {
			// Two directories above the root are missing too: their
			// entries are synced in the background.
			dstHome := filepath.Join(t.TempDir(), "new", "home")
			root, names := killedChild(t, src, dstHome, stepChildEnv+"="+step)
			marked := slices.Contains(names, migrate.MarkerName)
			data := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == migrate.MarkerName })
			if len(data) > 0 && !marked {
				t.Fatalf("killed at %q: the destination holds %v without the marker", step, data)
			}
			switch step {
			case "anchored", "locked":
				if len(names) > 0 {
					t.Errorf("killed at %q, before the marker: the destination holds %v", step, names)
				}
			case "marked", "copying":
				if !marked || len(data) > 0 {
					t.Errorf("killed at %q: the destination holds %v, want the marker alone", step, names)
				}
			case "planned":
				if len(data) > 0 {
					t.Errorf("killed at %q, before the copy: the destination holds %v", step, names)
				}
			case "parents synced", "unmarking":
				if !marked || len(data) == 0 {
					t.Errorf("killed at %q: the destination holds %v, want the copy and its marker", step, names)
				}
			}
			if marked {
				if err := migrate.CheckComplete(root); !errors.Is(err, migrate.ErrIncomplete) {
					t.Errorf("CheckComplete after a kill at %q = %v, want ErrIncomplete", step, err)
				}
			}
			rerunAfterKill(t, src, before, dstHome)
		})
	}
}

// killedChild runs the test binary as a child (env names which, and
// where it dies) migrating the project of src to dstHome, fails t unless
// the child died of SIGKILL, and returns the destination root and its
// entries (see rootEntries).
func killedChild(t *testing.T, src fixture, dstHome, env string) (root string, names []string) {
	t.Helper()
	root = filepath.Join(dstHome, "projects", src.paths.Hash)
	err := childtest.Command(t.Context(), env, "MIGRATE_FROM="+src.home, "MIGRATE_TO="+dstHome).Run()
	if !childtest.Killed(err) {
		t.Fatalf("the child (%s) was not killed: %v", env, err)
	}
	return root, rootEntries(t, root)
}

// rerunAfterKill makes the lock a killed child left on its destination
// root (if it took it) stale, as it is once old enough, and checks that a
// rerun completes (see rerunCompletes).
func rerunAfterKill(t *testing.T, src fixture, before map[string]string, dstHome string) {
	t.Helper()
	old := time.Now().Add(-time.Minute)
	_ = os.Chtimes(filepath.Join(dstHome, "projects", src.paths.Hash, migrate.MarkerName+filelock.Suffix), old, old)
	rerunCompletes(t, src, before, dstHome)
}

// rootEntries lists the destination root, leaving out its lock and what
// taking or releasing a lock leaves (none is data); a missing root holds
// nothing.
func rootEntries(t *testing.T, root string) []string {
	t.Helper()
	ents, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if n := e.Name(); n != migrate.MarkerName+filelock.Suffix && !filelock.Leftover(n) {
			names = append(names, n)
		}
	}
	return names
}

// The steps come in the order durability needs, however long each takes
// (each is held for a while, so that a step run alongside another, where
// it should wait for it, would show): the marker is durable before the
// copy makes anything, and the entries of the directories the run made
// before the marker goes.
func TestTheMarkerIsDurableBeforeTheCopyAndTheRootBeforeItGoes(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	opts := migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: filepath.Join(t.TempDir(), "new", "home"), Codec: aead(t, "k1", 1)}},
	}
	var (
		mu    sync.Mutex
		steps []string
	)
	record := func(s string) {
		mu.Lock()
		steps = append(steps, s)
		mu.Unlock()
	}
	migrate.OnStep(&opts, func(name string) {
		record(name)
		time.Sleep(stepGrace / 3)
		record(name + " (held)")
	})
	if _, err := migrate.Run(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	at := func(name string) int {
		i := slices.Index(steps, name)
		if i < 0 {
			t.Fatalf("no step %q in %v", name, steps)
		}
		return i
	}
	// A step that waits for another begins after the other was held.
	for _, order := range [][2]string{
		{"anchored (held)", "locked"}, {"locked (held)", "marked"}, {"marked (held)", "copying"},
		{"planned (held)", "copying"}, {"copying (held)", "unmarking"}, {"parents synced (held)", "unmarking"},
	} {
		if at(order[0]) > at(order[1]) {
			t.Errorf("%q came after %q: %v", order[0], order[1], strings.Join(steps, ", "))
		}
	}
}

// A source the plan refuses leaves the destination as it was, although
// the destination was opened (locked, marked) while the source was
// planned: a missing one is not created, an empty one stays empty, and
// one holding an interrupted migration of this source keeps it, marker
// included.
func TestARefusedSourceLeavesTheDestinationAsItWas(t *testing.T) {
	for _, kind := range []string{"missing", "empty", "interrupted"} {
		t.Run(kind, func(t *testing.T) {
			// The codecs of killMidMigration's child.
			src := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
			dstHome := filepath.Join(t.TempDir(), "new", "home")
			opts := migrate.Options{
				From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
				To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: aead(t, "k2", 2)}},
			}
			root := filepath.Join(dstHome, "projects", src.paths.Hash)
			switch kind {
			case "empty":
				if err := os.MkdirAll(root, 0o700); err != nil {
					t.Fatal(err)
				}
			case "interrupted":
				killMidMigration(t, src.home, dstHome, false)
				if err := migrate.CheckComplete(root); !errors.Is(err, migrate.ErrIncomplete) {
					t.Fatalf("CheckComplete after the kill = %v, want ErrIncomplete", err)
				}
			}
			var beforeDst map[string]string
			if kind != "missing" {
				beforeDst = treeHash(t, dstHome)
			}
			// The plan fails only once the destination is marked (or
			// after a while, where the destination is not opened
			// alongside the plan), so that the refused run has
			// something of its own to remove.
			marked := make(chan struct{})
			migrate.OnStep(&opts, func(name string) {
				switch name {
				case "marked":
					close(marked)
				case "planning":
					select {
					case <-marked:
					case <-time.After(time.Second):
					}
				}
			})
			// The plan refuses a symlink in the source.
			if err := os.Symlink("elsewhere", filepath.Join(src.paths.SessionsDir, "link.jsonl")); err != nil {
				t.Fatal(err)
			}
			if _, err := migrate.Run(t.Context(), opts); !errors.Is(err, migrate.ErrSymlink) {
				t.Fatalf("Run = %v, want ErrSymlink", err)
			}
			if kind == "missing" {
				if _, err := os.Lstat(filepath.Join(dstHome, "..")); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the refused run left %s: %v", filepath.Dir(dstHome), err)
				}
				return
			}
			unchanged(t, dstHome, beforeDst)
			if got := rootEntries(t, root); kind == "empty" && len(got) > 0 {
				t.Errorf("the empty destination holds %v after a refused run", got)
			}
		})
	}
}
