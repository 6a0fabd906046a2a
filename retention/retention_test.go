package retention_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/storage"
)

const (
	p1 = "projects/aaaaaaaaaaaaaaaa"
	p2 = "projects/bbbbbbbbbbbbbbbb"
)

func TestOldEntriesGoAcrossProjects(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/old.jsonl", 10, 40*day)
	tr.file(p1+"/sessions/new.jsonl", 10, 1*day)
	tr.file(p1+"/spill/0123456789abcdef.txt", 20, 31*day)
	tr.file(p2+"/sessions/old.jsonl", 30, 100*day)
	tr.file(p2+"/spill/fedcba9876543210.txt", 5, 29*day)

	rep := tr.sweep(retention.Options{})

	tr.mustNotExist(p1+"/sessions/old.jsonl", p1+"/spill/0123456789abcdef.txt", p2+"/sessions/old.jsonl")
	tr.mustExist(p1+"/sessions/new.jsonl", p2+"/spill/fedcba9876543210.txt")
	equal(t, "removed", tr.removed(rep), []string{
		"age " + p1 + "/spill/0123456789abcdef.txt",
		"age " + p1 + "/sessions/old.jsonl",
		"age " + p2 + "/sessions/old.jsonl",
	})
	if rep.BytesFreed != 60 || rep.BytesKept != 15 || rep.Scanned != 5 || rep.DryRun {
		t.Errorf("freed %d kept %d scanned %d dry %v; want 60, 15, 5, false", rep.BytesFreed, rep.BytesKept, rep.Scanned, rep.DryRun)
	}
	if rep.Home != tr.home {
		t.Errorf("report home %s, want %s", rep.Home, tr.home)
	}
}

func TestMaxAgeIsConfigurable(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/a.jsonl", 1, 3*day)
	tr.file(p1+"/sessions/b.jsonl", 1, 1*day)
	tr.sweep(retention.Options{MaxAge: 2 * day})
	tr.mustNotExist(p1 + "/sessions/a.jsonl")
	tr.mustExist(p1 + "/sessions/b.jsonl")
}

func TestOldestFilesGoFirstOverBudget(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/d4.jsonl", 100, 4*day)
	tr.file(p2+"/spill/d5.txt", 100, 5*day)
	tr.file(p1+"/spill/d1.txt", 100, 1*day)
	tr.file(p2+"/sessions/d3.jsonl", 100, 3*day)
	tr.file(p1+"/sessions/d2.jsonl", 100, 2*day)

	rep := tr.sweep(retention.Options{MaxBytes: 250})

	equal(t, "removed", tr.removed(rep), []string{
		"size " + p2 + "/spill/d5.txt",
		"size " + p1 + "/sessions/d4.jsonl",
		"size " + p2 + "/sessions/d3.jsonl",
	})
	tr.mustExist(p1+"/sessions/d2.jsonl", p1+"/spill/d1.txt")
	if rep.BytesFreed != 300 || rep.BytesKept != 200 {
		t.Errorf("freed %d kept %d; want 300, 200", rep.BytesFreed, rep.BytesKept)
	}
}

func TestBudgetIsNotAppliedWithoutALimit(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/a.jsonl", 1000, 1*day)
	rep := tr.sweep(retention.Options{})
	tr.mustExist(p1 + "/sessions/a.jsonl")
	if len(rep.Removed) != 0 || rep.BytesKept != 1000 {
		t.Errorf("removed %v, kept %d", tr.removed(rep), rep.BytesKept)
	}
}

func TestLockedLogSurvivesZeroBudget(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/live.jsonl", 100, 40*day)
	tr.dir(p1+"/sessions/live.jsonl.lock", 0) // live: a stale lock is taken over (TestStaleLockIsTakenOver)
	tr.file(p1+"/sessions/live.context/index.jsonl", 10, 40*day)
	tr.dir(p1+"/sessions/live.context", 40*day)
	tr.dir(p1+"/sessions/live.context.lock", 0)
	tr.file(p1+"/spill/0123456789abcdef.txt", 10, 0)
	tr.file(p1+"/spill/0123456789abcdef.txt.lock", 0, 0) // a lock need not be a directory
	tr.file(p1+"/sessions/idle.jsonl", 100, 0)

	rep := tr.sweep(retention.Options{LimitBytes: true})

	tr.mustExist(p1+"/sessions/live.jsonl", p1+"/sessions/live.jsonl.lock",
		p1+"/sessions/live.context/index.jsonl", p1+"/sessions/live.context.lock",
		p1+"/spill/0123456789abcdef.txt", p1+"/spill/0123456789abcdef.txt.lock")
	tr.mustNotExist(p1 + "/sessions/idle.jsonl")
	equal(t, "removed", tr.removed(rep), []string{"size " + p1 + "/sessions/idle.jsonl"})
	equal(t, "skipped", tr.skipped(rep), []string{
		"lock " + p1 + "/sessions/live.context.lock",
		"lock " + p1 + "/sessions/live.jsonl.lock",
		"lock " + p1 + "/spill/0123456789abcdef.txt.lock",
		"locked " + p1 + "/sessions/live.context",
		"locked " + p1 + "/sessions/live.jsonl",
		"locked " + p1 + "/spill/0123456789abcdef.txt",
	})
	if rep.BytesKept != 0 {
		t.Errorf("kept %d bytes; locked files must not count", rep.BytesKept)
	}
}

func TestSymlinkedProjectIsNeverTraversed(t *testing.T) {
	tr := newTree(t)
	tr.file("out/victim/sessions/old.jsonl", 10, 400*day)
	tr.file("out/victim/spill/old.txt", 10, 400*day)
	tr.symlink("projects/cccccccccccccccc", "out/victim")
	tr.file(p1+"/sessions/old.jsonl", 10, 400*day)

	rep := tr.sweep(retention.Options{LimitBytes: true})

	tr.mustExist("out/victim/sessions/old.jsonl", "out/victim/spill/old.txt", "projects/cccccccccccccccc")
	tr.mustNotExist(p1 + "/sessions/old.jsonl")
	equal(t, "skipped", tr.skipped(rep), []string{"symlink projects/cccccccccccccccc"})
}

func TestSymlinksInsideAreNeitherFollowedNorRemoved(t *testing.T) {
	tr := newTree(t)
	tr.file("out/decoy.txt", 50, 400*day)
	tr.file("out/decoydir/precious.txt", 50, 400*day)
	tr.dir("out/decoydir", 400*day)
	tr.file("out/elsewhere/sessions/old.jsonl", 50, 400*day)
	tr.dir("out/elsewhere/sessions", 400*day)

	tr.symlink(p1+"/sessions/link.jsonl", "out/decoy.txt")
	tr.symlink(p1+"/sessions/linkdir.context", "out/decoydir")
	tr.symlink(p1+"/spill/0123456789abcdef.txt", "out/decoy.txt")
	tr.symlink(p1+"/spill/dangling.txt", "out/missing.txt")
	tr.symlink(p2+"/sessions", "out/elsewhere/sessions")
	tr.symlink(p2+"/spill", "out/decoydir")

	rep := tr.sweep(retention.Options{LimitBytes: true})

	tr.mustExist("out/decoy.txt", "out/decoydir/precious.txt", "out/elsewhere/sessions/old.jsonl",
		p1+"/sessions/link.jsonl", p1+"/sessions/linkdir.context", p1+"/spill/0123456789abcdef.txt",
		p1+"/spill/dangling.txt", p2+"/sessions", p2+"/spill")
	if len(rep.Removed) != 0 || rep.BytesKept != 0 {
		t.Errorf("removed %v, kept %d bytes; symlinks must neither go nor count", tr.removed(rep), rep.BytesKept)
	}
	equal(t, "skipped", tr.skipped(rep), []string{
		"symlink " + p1 + "/sessions/link.jsonl",
		"symlink " + p1 + "/sessions/linkdir.context",
		"symlink " + p1 + "/spill/0123456789abcdef.txt",
		"symlink " + p1 + "/spill/dangling.txt",
		"symlink " + p2 + "/sessions",
		"symlink " + p2 + "/spill",
	})
}

func TestHomeDecoysSurvive(t *testing.T) {
	// The S5 anchor: links into the user's home directory. HOME is pointed
	// at a temporary directory standing in for it.
	userHome := t.TempDir()
	t.Setenv("HOME", userHome)
	decoy := filepath.Join(userHome, "decoy")
	if err := os.WriteFile(decoy, []byte("important"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-400 * day)
	if err := os.Chtimes(userHome, old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(decoy, old, old); err != nil {
		t.Fatal(err)
	}
	tr := newTree(t)
	for _, rel := range []string{p1 + "/sessions/a.jsonl", p1 + "/sessions/b.context", p1 + "/spill/c.txt"} {
		p := tr.path(rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		target := decoy
		if filepath.Ext(rel) == ".context" {
			target = userHome
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	tr.sweep(retention.Options{LimitBytes: true, MaxAge: time.Nanosecond})
	if b, err := os.ReadFile(decoy); err != nil || string(b) != "important" {
		t.Fatalf("decoy in $HOME damaged: %q, %v", b, err)
	}
}

func TestContextDirIsRemovedWithoutFollowingLinksInside(t *testing.T) {
	tr := newTree(t)
	tr.file("out/decoydir/precious.txt", 7, 400*day)
	tr.dir("out/decoydir", 400*day)
	tr.file("out/decoy.txt", 7, 400*day)

	ctxDir := p1 + "/sessions/s1.context"
	tr.file(ctxDir+"/index.jsonl", 30, 60*day)
	tr.file(ctxDir+"/notes/aa.md", 12, 60*day)
	tr.symlink(ctxDir+"/notes/link-to-dir", "out/decoydir")
	tr.symlink(ctxDir+"/link-to-file.md", "out/decoy.txt")
	tr.dir(ctxDir+"/notes", 60*day)
	tr.dir(ctxDir, 60*day)

	rep := tr.sweep(retention.Options{})

	tr.mustNotExist(ctxDir)
	tr.mustExist("out/decoydir/precious.txt", "out/decoy.txt")
	if len(rep.Removed) != 1 || !rep.Removed[0].IsDir || rep.Removed[0].Size != 42 || rep.Removed[0].Reason != retention.ReasonAge {
		t.Fatalf("removed %+v; want the context dir, by age, 42 bytes", rep.Removed)
	}
	if rep.BytesFreed != 42 {
		t.Errorf("freed %d, want 42", rep.BytesFreed)
	}
}

func TestDirectoryWithYoungContentsIsKept(t *testing.T) {
	// Appending to an archive's index does not touch the directory's own
	// mtime; the sweep must not lose an archive still in use.
	tr := newTree(t)
	tr.file(p1+"/sessions/s1.context/index.jsonl", 10, 1*day)
	tr.file(p1+"/sessions/s1.context/notes/aa.md", 10, 60*day)
	tr.dir(p1+"/sessions/s1.context/notes", 60*day)
	tr.dir(p1+"/sessions/s1.context", 60*day)
	tr.file(p1+"/sessions/s2.context/notes/bb.md", 10, 2*day)
	tr.dir(p1+"/sessions/s2.context/notes", 60*day)
	tr.dir(p1+"/sessions/s2.context", 60*day)

	rep := tr.sweep(retention.Options{})

	tr.mustExist(p1+"/sessions/s1.context/index.jsonl", p1+"/sessions/s1.context/notes/aa.md", p1+"/sessions/s2.context/notes/bb.md")
	if len(rep.Removed) != 0 {
		t.Errorf("removed %v", tr.removed(rep))
	}
}

func TestDirectoryContainingALockIsKept(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/s1.context/index.jsonl", 10, 60*day)
	tr.dir(p1+"/sessions/s1.context/index.jsonl.lock", 60*day)
	tr.dir(p1+"/sessions/s1.context", 60*day)
	rep := tr.sweep(retention.Options{})
	tr.mustExist(p1 + "/sessions/s1.context/index.jsonl")
	equal(t, "skipped", tr.skipped(rep), []string{"locked " + p1 + "/sessions/s1.context"})
}

func TestDirectoriesNeverCountAgainstBudget(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/s1.context/index.jsonl", 5000, 1*day)
	tr.dir(p1+"/sessions/s1.context", 1*day)
	tr.dir(p1+"/spill/odd-dir", 1*day)
	tr.file(p1+"/sessions/s1.jsonl", 10, 1*day)

	rep := tr.sweep(retention.Options{MaxBytes: 10})

	tr.mustExist(p1+"/sessions/s1.context/index.jsonl", p1+"/spill/odd-dir", p1+"/sessions/s1.jsonl")
	if len(rep.Removed) != 0 || rep.BytesKept != 10 {
		t.Errorf("removed %v, kept %d; directories must not count", tr.removed(rep), rep.BytesKept)
	}
}

func TestUnfamiliarFilesFollowTheSameRules(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/garbage.bin", 64, 40*day)
	if err := os.WriteFile(tr.path(p1+"/sessions/torn.jsonl"), []byte("{\"seq\":1,\x00\xff"), 0o600); err != nil {
		t.Fatal(err)
	}
	tr.age(p1+"/sessions/torn.jsonl", 40*day)
	tr.file(p1+"/sessions/README", 10, 1*day)
	unreadable := tr.file(p1+"/spill/unreadable.txt", 10, 1*day)
	if err := os.Chmod(unreadable, 0); err != nil {
		t.Fatal(err)
	}
	tr.age(p1+"/spill/unreadable.txt", 1*day)
	tr.file(p1+"/spill/legacy-ref.txt", 10, 2*day)

	rep := tr.sweep(retention.Options{MaxBytes: 20})

	// Old files go by age whatever they hold; of the young ones, only the
	// oldest goes to meet the budget; the fresh unreadable file stays.
	equal(t, "removed", tr.removed(rep), []string{
		"age " + p1 + "/sessions/garbage.bin",
		"age " + p1 + "/sessions/torn.jsonl",
		"size " + p1 + "/spill/legacy-ref.txt",
	})
	tr.mustExist(p1+"/spill/unreadable.txt", p1+"/sessions/README")
}

func TestFreshUnreadableFileIsKeptWithoutALimit(t *testing.T) {
	tr := newTree(t)
	p := tr.file(p1+"/sessions/enc.jsonl", 10, 0)
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	rep := tr.sweep(retention.Options{})
	tr.mustExist(p1 + "/sessions/enc.jsonl")
	if len(rep.Removed)+len(rep.Skipped) != 0 {
		t.Errorf("report %+v; a young file is simply kept", rep)
	}
}

func TestTasksAreNeverTouched(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/tasks/list/1.json", 100, 400*day)
	tr.dir(p1+"/tasks/list.lock", 400*day)
	tr.dir(p1+"/tasks/list", 400*day)
	tr.dir(p1+"/tasks", 400*day)
	tr.file(p1+"/other/x.txt", 100, 400*day)

	rep := tr.sweep(retention.Options{LimitBytes: true})

	tr.mustExist(p1+"/tasks/list/1.json", p1+"/tasks/list.lock", p1+"/other/x.txt")
	equal(t, "skipped", tr.skipped(rep), []string{"tasks " + p1 + "/tasks"})
	if len(rep.Removed) != 0 || rep.Scanned != 0 {
		t.Errorf("removed %v, scanned %d", tr.removed(rep), rep.Scanned)
	}
}

func TestMissingHomeIsFine(t *testing.T) {
	for name, home := range map[string]string{
		"NoHome":     filepath.Join(t.TempDir(), "absent"),
		"NoProjects": t.TempDir(),
	} {
		t.Run(name, func(t *testing.T) {
			rep, err := retention.Sweep(t.Context(), retention.Options{Home: home, LimitBytes: true})
			if err != nil || len(rep.Removed)+len(rep.Skipped) != 0 {
				t.Fatalf("Sweep = %+v, %v", rep, err)
			}
			if _, err := os.Lstat(filepath.Join(home, "projects")); err == nil {
				t.Fatal("sweep created the projects directory")
			}
		})
	}
}

func TestSymlinkedProjectsDirStopsTheSweep(t *testing.T) {
	tr := newTree(t)
	tr.file("out/projects/aaaaaaaaaaaaaaaa/sessions/old.jsonl", 10, 400*day)
	tr.symlink("projects", "out/projects")
	rep := tr.sweep(retention.Options{LimitBytes: true})
	tr.mustExist("out/projects/aaaaaaaaaaaaaaaa/sessions/old.jsonl", "projects")
	equal(t, "skipped", tr.skipped(rep), []string{"symlink projects"})
	if len(rep.Removed) != 0 || rep.Scanned != 0 {
		t.Errorf("removed %v, scanned %d", tr.removed(rep), rep.Scanned)
	}
}

func TestNonDirectoriesAreSkipped(t *testing.T) {
	tr := newTree(t)
	tr.file("projects/stray-file", 10, 400*day)
	tr.file(p1+"/sessions", 10, 400*day)
	tr.file(p1+"/spill/ok.txt", 10, 400*day)
	rep := tr.sweep(retention.Options{})
	tr.mustExist("projects/stray-file", p1+"/sessions")
	tr.mustNotExist(p1 + "/spill/ok.txt")
	equal(t, "skipped", tr.skipped(rep), []string{
		"not-directory " + p1 + "/sessions",
		"not-directory projects/stray-file",
	})
}

func TestSpecialFilesAreSkipped(t *testing.T) {
	tr := newTree(t)
	tr.dir(p1+"/sessions", 0)
	fifo := tr.path(p1 + "/sessions/pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	tr.age(p1+"/sessions/pipe.jsonl", 400*day)
	rep := tr.sweep(retention.Options{LimitBytes: true})
	tr.mustExist(p1 + "/sessions/pipe.jsonl")
	equal(t, "skipped", tr.skipped(rep), []string{"not-regular " + p1 + "/sessions/pipe.jsonl"})
}

func TestHardLinkedFilesAreSkippedAndNotCounted(t *testing.T) {
	tr := newTree(t)
	tr.file("out/decoy.txt", 100, 400*day)
	tr.dir(p1+"/sessions", 0)
	if err := os.Link(tr.path("out/decoy.txt"), tr.path(p1+"/sessions/linked.jsonl")); err != nil {
		t.Fatal(err)
	}
	tr.file(p1+"/sessions/own.jsonl", 10, 1*day)

	rep := tr.sweep(retention.Options{MaxBytes: 10})

	tr.mustExist("out/decoy.txt", p1+"/sessions/linked.jsonl", p1+"/sessions/own.jsonl")
	equal(t, "skipped", tr.skipped(rep), []string{"hard-link " + p1 + "/sessions/linked.jsonl"})
	if rep.BytesKept != 10 {
		t.Errorf("kept %d bytes; hard links must not count", rep.BytesKept)
	}
}

func TestDryRunRemovesNothingAndReportsTheSameSet(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/old.jsonl", 10, 40*day)
	tr.file(p1+"/sessions/s.context/index.jsonl", 10, 40*day)
	tr.dir(p1+"/sessions/s.context", 40*day)
	tr.file(p1+"/sessions/a.jsonl", 100, 3*day)
	tr.file(p2+"/spill/b.txt", 100, 2*day)
	tr.file(p2+"/spill/c.txt", 100, 1*day)
	tr.file(p2+"/spill/locked.txt", 100, 5*day)
	tr.dir(p2+"/spill/locked.txt.lock", 0)
	tr.symlink(p2+"/spill/link.txt", "out")

	before := snapshot(t, tr.home)
	dry := tr.sweep(retention.Options{MaxBytes: 150, DryRun: true})
	if after := snapshot(t, tr.home); !equalStrings(before, after) {
		t.Fatalf("dry run changed the tree:\n%q\n%q", before, after)
	}
	if !dry.DryRun || len(dry.Removed) != 4 {
		t.Fatalf("dry run report: %+v", dry)
	}
	real := tr.sweep(retention.Options{MaxBytes: 150})
	equal(t, "removed", tr.removed(real), tr.removed(dry))
	equal(t, "skipped", tr.skipped(real), tr.skipped(dry))
	if dry.BytesFreed != real.BytesFreed || dry.BytesKept != real.BytesKept || dry.Scanned != real.Scanned {
		t.Errorf("dry run counts %d/%d/%d, real %d/%d/%d", dry.BytesFreed, dry.BytesKept, dry.Scanned, real.BytesFreed, real.BytesKept, real.Scanned)
	}
	for _, e := range real.Removed {
		if _, err := os.Lstat(e.Path); err == nil {
			t.Errorf("%s survived the real sweep", e.Path)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestInvalidOptionsAreRejected(t *testing.T) {
	home := t.TempDir()
	for name, opts := range map[string]retention.Options{
		"NegativeMaxAge":   {Home: home, MaxAge: -time.Second},
		"NegativeMaxBytes": {Home: home, MaxBytes: -1},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := retention.Sweep(t.Context(), opts)
			var se *storage.Error
			if !errors.As(err, &se) {
				t.Fatalf("Sweep = %v, want a *storage.Error", err)
			}
		})
	}
}

func TestEmptyHomeMeansDefaultHome(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/old.jsonl", 10, 40*day)
	t.Setenv("LITE_AGENT_HOME", tr.home)
	rep, err := retention.Sweep(t.Context(), retention.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Home != tr.home || len(rep.Removed) != 1 {
		t.Fatalf("swept %s removing %v; want %s", rep.Home, tr.removed(rep), tr.home)
	}
}

func TestRelativeHomeIsMadeAbsolute(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/old.jsonl", 10, 40*day)
	t.Chdir(filepath.Dir(tr.home))
	rep, err := retention.Sweep(t.Context(), retention.Options{Home: "home"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Home != tr.home || len(rep.Removed) != 1 {
		t.Fatalf("swept %s removing %v", rep.Home, tr.removed(rep))
	}
}

func TestCancelledContextStopsTheSweep(t *testing.T) {
	tr := newTree(t)
	tr.file(p1+"/sessions/old.jsonl", 10, 40*day)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	rep, err := retention.Sweep(ctx, retention.Options{Home: tr.home})
	if !errors.Is(err, context.Canceled) || len(rep.Removed) != 0 {
		t.Fatalf("Sweep = %v removing %v", err, tr.removed(rep))
	}
	tr.mustExist(p1 + "/sessions/old.jsonl")
}

func TestProjectsFileStopsTheSweep(t *testing.T) {
	tr := newTree(t)
	tr.file("projects", 10, 400*day)
	rep := tr.sweep(retention.Options{LimitBytes: true})
	tr.mustExist("projects")
	equal(t, "skipped", tr.skipped(rep), []string{"not-directory projects"})
}

// makeUndeletable makes path impossible to remove: a read-only parent for
// an ordinary user, the immutable attribute for root.
func makeUndeletable(t *testing.T, path string) {
	t.Helper()
	if os.Geteuid() != 0 {
		dir := filepath.Dir(path)
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o700) })
		return
	}
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("cannot make a file undeletable as root: chattr: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("chattr", "-i", path).Run() })
}

func TestRemovalErrorsAreReportedAndTheSweepGoesOn(t *testing.T) {
	tr := newTree(t)
	stuck := tr.file(p1+"/spill/stuck.txt", 10, 400*day)
	tr.file(p2+"/spill/a.txt", 10, 400*day)
	makeUndeletable(t, stuck)
	tr.age(p1+"/spill", 0)

	rep, err := retention.Sweep(t.Context(), retention.Options{Home: tr.home})
	if err != nil {
		t.Fatalf("Sweep = %v; a failed removal is not fatal", err)
	}
	tr.mustExist(p1 + "/spill/stuck.txt")
	tr.mustNotExist(p2 + "/spill/a.txt")
	if len(rep.Skipped) != 1 || rep.Skipped[0].Reason != retention.SkipError || rep.Skipped[0].Err == nil || rep.Skipped[0].Path != stuck {
		t.Fatalf("skipped %+v; want the stuck file with its error", rep.Skipped)
	}
	if len(rep.Removed) != 1 || rep.BytesFreed != 10 {
		t.Fatalf("removed %v, freed %d", tr.removed(rep), rep.BytesFreed)
	}
}

// TestReportJSONUsesCamelCaseKeys checks the JSON form the CLI prints:
// camelCase keys like every other report of the tool, and a skip's error
// as its text.
func TestReportJSONUsesCamelCaseKeys(t *testing.T) {
	rep := retention.Report{
		Home:    "/h",
		DryRun:  true,
		Removed: []retention.Entry{{Path: "/h/projects/p/spill/a.txt", Size: 3, ModTime: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Reason: retention.ReasonAge}},
		Skipped: []retention.Skip{
			{Path: "/h/projects/p/sessions/s.jsonl", Reason: retention.SkipLocked},
			{Path: "/h/projects/p/spill/b.txt", Reason: retention.SkipError, Err: &fs.PathError{Op: "lstat", Path: "/h/projects/p/spill/b.txt", Err: fs.ErrPermission}},
		},
		Scanned:    4,
		BytesFreed: 3,
		BytesKept:  9,
	}
	got, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"home":"/h","dryRun":true,` +
		`"removed":[{"path":"/h/projects/p/spill/a.txt","size":3,"modTime":"2026-01-02T03:04:05Z","isDir":false,"reason":"age"}],` +
		`"skipped":[{"path":"/h/projects/p/sessions/s.jsonl","reason":"` + string(retention.SkipLocked) + `"},` +
		`{"path":"/h/projects/p/spill/b.txt","reason":"` + string(retention.SkipError) + `","error":"lstat /h/projects/p/spill/b.txt: permission denied"}],` +
		`"scanned":4,"bytesFreed":3,"bytesKept":9}`
	if string(got) != want {
		t.Errorf("JSON\n got %s\nwant %s", got, want)
	}
}

func TestArchiveOfAYoungSessionIsKept(t *testing.T) {
	// A session resumed after MaxAge appends to its log but may only read
	// its archive (the context tool): the archive goes with its session,
	// not before it, or the refs the session holds lead nowhere.
	tr := newTree(t)
	tr.file(p1+"/sessions/s1.jsonl", 10, 1*day)
	tr.file(p1+"/sessions/s1.context/index.jsonl", 10, 60*day)
	tr.file(p1+"/sessions/s1.context/notes/aa.md", 10, 60*day)
	tr.dir(p1+"/sessions/s1.context/notes", 60*day)
	tr.dir(p1+"/sessions/s1.context", 60*day)
	tr.file(p1+"/sessions/s2.jsonl", 10, 60*day)
	tr.file(p1+"/sessions/s2.context/index.jsonl", 10, 60*day)
	tr.dir(p1+"/sessions/s2.context", 60*day)
	tr.file(p1+"/sessions/s3.context/index.jsonl", 10, 60*day)
	tr.dir(p1+"/sessions/s3.context", 60*day)

	rep := tr.sweep(retention.Options{})

	tr.mustExist(p1+"/sessions/s1.jsonl", p1+"/sessions/s1.context/index.jsonl", p1+"/sessions/s1.context/notes/aa.md")
	tr.mustNotExist(p1+"/sessions/s2.jsonl", p1+"/sessions/s2.context", p1+"/sessions/s3.context")
	// Logs first: an archive goes after its log (see
	// TestArchiveOfASessionResumedDuringTheSweepIsKept).
	equal(t, "removed", tr.removed(rep), []string{
		"age " + p1 + "/sessions/s2.jsonl",
		"age " + p1 + "/sessions/s2.context",
		"age " + p1 + "/sessions/s3.context",
	})
}
