//go:build linux

package sandbox_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/sandbox"
)

// mountedFS mounts a fresh file system of type fstype (made by mkfs with
// args) and returns its mount point; it skips unless it can.
func mountedFS(t *testing.T, mkfs string, args ...string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a file system image")
	}
	if _, err := exec.LookPath(mkfs); err != nil {
		t.Skipf("no %s", mkfs)
	}
	dir, err := os.MkdirTemp("/tmp", "walkmemo-fs-")
	if err != nil {
		t.Fatal(err)
	}
	img, mnt := filepath.Join(dir, "img"), filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("truncate", "-s", "96M", img).CombinedOutput(); err != nil {
		t.Fatalf("truncate: %v %s", err, out)
	}
	if out, err := exec.Command(mkfs, append(args, img)...).CombinedOutput(); err != nil {
		t.Skipf("%s: %v %s", mkfs, err, out)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, mnt).CombinedOutput(); err != nil {
		t.Skipf("mount: %v %s", err, out)
	}
	t.Cleanup(func() {
		exec.Command("umount", mnt).Run()
		os.RemoveAll(dir)
	})
	return mnt
}

// buildFscryptKey builds the fscrypt helper (internal/fscryptkey) into the
// workdir, where the sandboxed commands can run it.
func buildFscryptKey(t *testing.T, wd string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", filepath.Join(wd, ".fscrypt"), "./internal/fscryptkey")
	cmd.Dir = "."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the helper: %v %s", err, out)
	}
}

// On an ext4 file system with the encrypt feature (fscrypt), what an
// encrypted directory lists depends on whether its key is on the file
// system's keyring, and adding or removing the key changes no status
// change time. A command puts a repository whose fsmonitor runs code in
// an encrypted directory E while the key is there; then the key goes (the
// user locks it) and the check reads E locked: one subdirectory with an
// encoded name, no .git. Once the key is back, E lists r/.git again with
// its stamp unchanged: a remembered E would hide it at every later check.
// E is never remembered (statx reports it encrypted), so the check after
// the key comes back finds it. Inside the sandbox the key ioctls fail, so
// a command cannot lock or unlock a directory itself (seccomp).
func TestFscryptKeyChangesAListingButNotItsCtime(t *testing.T) {
	mnt := mountedFS(t, "mkfs.ext4", "-q", "-F", "-O", "encrypt")
	p := newRT127On(t, mnt)
	buildFscryptKey(t, p.wd)
	key := func(args ...string) {
		t.Helper()
		cmd := exec.Command(filepath.Join(p.wd, ".fscrypt"), args...)
		cmd.Dir = p.wd
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf(".fscrypt %s: %v %s", strings.Join(args, " "), err, out)
		}
	}
	if err := os.Mkdir(filepath.Join(p.wd, "E"), 0o755); err != nil {
		t.Fatal(err)
	}
	key("policy", "E")
	sb := p.sandbox(t)
	if rce := afterRun(t, sb); rce != nil {
		t.Fatalf("first AfterRun = %v", rce)
	}
	for _, op := range []string{"add", "remove"} {
		if out := p.bash(t, sb, "./.fscrypt "+op+" . && echo done"); strings.Contains(out, "done") || !strings.Contains(out, "operation not permitted") {
			t.Errorf(".fscrypt %s inside the sandbox: %s, want operation not permitted", op, out)
		}
	}
	fsmon := strings.ReplaceAll(strings.ReplaceAll(p.fsmonitor(), "\n", `\n`), "\t", `\t`)
	if out := p.bash(t, sb, "git init -q E/r && printf '"+fsmon+"' >> E/r/.git/config && echo planted"); !strings.Contains(out, "planted") {
		t.Fatalf("planting: %s", out)
	}
	// The check right after the plant would move it aside: the test is
	// of a check that reads E locked, so the key goes first.
	key("remove", ".")
	if out, _ := exec.Command("ls", "-a", filepath.Join(p.wd, "E")).CombinedOutput(); strings.Contains(string(out), "\nr\n") {
		t.Fatalf("E still lists r after the key was removed:\n%s", out)
	}
	time.Sleep(sandbox.MemoSlack + 300*time.Millisecond)
	if rce := afterRun(t, sb); rce != nil {
		t.Logf("AfterRun with E locked = %v", rce)
	}
	afterRun(t, sb)
	key("add", ".")
	rce := afterRun(t, sb)
	for i := range 3 {
		if rce != nil {
			break
		}
		rce = afterRun(t, sb)
		t.Logf("AfterRun %d later = %v", i+1, rce)
	}
	if rce == nil || len(rce.Moved) != 1 || rce.Moved[0].Path != "E/r/.git" {
		p.gitAnyway(filepath.Join(p.wd, "E", "r"), nil, "status", "--short")
		p.checkHome(t, "git status in E/r")
		sandbox.ForgetWalk(sb)
		full := afterRun(t, sb)
		t.Errorf("the remembered walk did not find E/r/.git once E was unlocked (%v); a full walk (ForgetWalk) = %v", rce, full)
	}
}

// Ideas that turned out closed: each plants, in a tree the check has
// remembered, a repository by a change that might leave a remembered
// stamp as it was; the next check must find it.
func TestRememberedWalkAttacksThatFail(t *testing.T) {
	deep := "d" + strings.Repeat("/d", 59) // depth 60, past maxOpenDepth
	tests := []struct {
		name, plant, path string
	}{
		{"exchange of a remembered leaf with a repository elsewhere (same name)",
			"mkdir -p stage/a && git init -q stage/a && printf '{fsmonitor}' >> stage/a/.git/config && " +
				"mv stage/a/.git stage/a/dotgit && mv stage/a/dotgit stage/a/.git && ./.fscrypt exchange stage/a node_modules/p3/lib/a",
			"node_modules/p3/lib/a/.git"},
		{"exchange of two remembered leaves of the same shape, one given a repository first",
			"git init -q node_modules/p4/lib/b/r && printf '{fsmonitor}' >> node_modules/p4/lib/b/r/.git/config && " +
				"./.fscrypt exchange node_modules/p4/lib/b node_modules/p4/lib/a",
			"node_modules/p4/lib/a/r/.git"},
		{"a .git file hard-linked into a remembered leaf",
			"printf 'gitdir: /nowhere\\n' > gitfile && ln gitfile node_modules/p5/dist/esm/.git", "node_modules/p5/dist/esm/.git"},
		{"a repository made in a remembered leaf past maxOpenDepth",
			"git init -q " + deep + "/r && printf '{fsmonitor}' >> " + deep + "/r/.git/config", deep + "/r/.git"},
		{"chmod, utimensat and an xattr on a remembered directory, then a repository",
			"chmod 700 node_modules/p6/lib && touch -d @0 node_modules/p6/lib && (setfattr -n user.x -v 1 node_modules/p6/lib 2>/dev/null; true) && " +
				"git init -q node_modules/p6/lib/a/r && printf '{fsmonitor}' >> node_modules/p6/lib/a/r/.git/config",
			"node_modules/p6/lib/a/r/.git"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newRT127(t)
			for i := range 8 {
				for _, d := range []string{"lib/a", "lib/b", "dist/esm"} {
					dir := filepath.Join(p.wd, "node_modules", fmt.Sprintf("p%d", i), d)
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					writeFile(t, filepath.Join(dir, "f.js"), "x\n")
				}
			}
			if err := os.MkdirAll(filepath.Join(p.wd, deep), 0o755); err != nil {
				t.Fatal(err)
			}
			buildFscryptKey(t, p.wd)
			sb := p.sandbox(t)
			time.Sleep(sandbox.MemoSlack + 100*time.Millisecond)
			if rce := afterRun(t, sb); rce != nil {
				t.Fatalf("first AfterRun = %v", rce)
			}
			if rce := afterRun(t, sb); rce != nil {
				t.Fatalf("second AfterRun = %v", rce)
			}
			if read, remembered := sandbox.WalkStats(sb); remembered < 50 {
				t.Fatalf("the second check read %d directories and remembered %d", read, remembered)
			}
			fsmon := strings.ReplaceAll(strings.ReplaceAll(p.fsmonitor(), "\n", `\n`), "\t", `\t`)
			line := strings.NewReplacer("{fsmonitor}", fsmon).Replace(tt.plant)
			if out := p.bash(t, sb, line+" && echo planted"); !strings.Contains(out, "planted") {
				t.Fatalf("planting: %s", out)
			}
			rce := afterRun(t, sb)
			if rce == nil || len(rce.Moved) != 1 || rce.Moved[0].Path != tt.path {
				t.Fatalf("AfterRun after the plant = %v, want %s moved aside", rce, tt.path)
			}
		})
	}
}

// A background command keeps a remembered directory changing while checks
// run (so that some check reads it between two changes, one of them just
// after the read), then renames a repository into it: some check, at the
// latest the first after the command ends, must find it.
func TestRememberedWalkRacingBackgroundChanges(t *testing.T) {
	p := newRT127(t)
	for i := range 8 {
		if err := os.MkdirAll(filepath.Join(p.wd, "node_modules", fmt.Sprintf("p%d", i), "lib", "a"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sb := p.sandbox(t)
	time.Sleep(sandbox.MemoSlack + 100*time.Millisecond)
	for range 2 {
		if rce := afterRun(t, sb); rce != nil {
			t.Fatalf("AfterRun = %v", rce)
		}
	}
	fsmon := strings.ReplaceAll(strings.ReplaceAll(p.fsmonitor(), "\n", `\n`), "\t", `\t`)
	D := "node_modules/p3/lib"
	line := "git init -q --bare stage && mv stage/HEAD stage/H && printf '" + fsmon + "' >> stage/config && " +
		"end=$((SECONDS+3)); while [ $SECONDS -lt $end ]; do mkdir " + D + "/t; rmdir " + D + "/t; done; " +
		"mkdir " + D + "/r && mv stage " + D + "/r/.git && mv " + D + "/r/.git/H " + D + "/r/.git/HEAD; echo planted"
	done := make(chan string)
	go func() { done <- p.bash(t, sb, line) }()
	var found []string
	checks := 0
	for running := true; running; {
		select {
		case out := <-done:
			if !strings.Contains(out, "planted") {
				t.Errorf("background: %s", out)
			}
			running = false
		default:
		}
		rce := afterRun(t, sb)
		checks++
		if rce != nil {
			for _, m := range rce.Moved {
				found = append(found, m.Path)
			}
		}
	}
	for range 2 {
		if rce := afterRun(t, sb); rce != nil {
			for _, m := range rce.Moved {
				found = append(found, m.Path)
			}
		}
	}
	t.Logf("%d checks while the command ran; found %v", checks, found)
	if !slices.Contains(found, D+"/r/.git") {
		t.Errorf("no check found %s/r/.git", D)
	}
}
