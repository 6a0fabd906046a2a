//go:build linux

package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/sandbox"
)

// The check remembers the directories it read (dirMemo) and, while one
// keeps its stamp, does not read it again; it still finds every
// repository a command then plants in a remembered part of the tree: a
// new one in a leaf, one moved in whole, a leaf replaced by a repository,
// a git directory not named .git, and a plain repository whose
// configuration alone changes (which changes no directory).
func TestRememberedWalkFindsWhatCommandsPlant(t *testing.T) {
	tests := []struct {
		name, plant, path string
	}{
		{"git init in a remembered leaf", "git init -q node_modules/p3/lib/a/sub && printf '{fsmonitor}' >> node_modules/p3/lib/a/sub/.git/config",
			"node_modules/p3/lib/a/sub/.git"},
		{"a repository moved in whole", "git init -q /tmp/r && printf '{fsmonitor}' >> /tmp/r/.git/config && mv /tmp/r node_modules/p5/lib/a/r",
			"node_modules/p5/lib/a/r/.git"},
		{"a leaf replaced by a repository", "rm -rf node_modules/p7/lib/a && mkdir node_modules/p7/lib/a && git init -q node_modules/p7/lib/a && " +
			"printf '{fsmonitor}' >> node_modules/p7/lib/a/.git/config", "node_modules/p7/lib/a/.git"},
		{"a bare repository in a remembered leaf", "git init -q --bare node_modules/p9/lib/a/b && printf '{fsmonitor}' >> node_modules/p9/lib/a/b/config",
			"node_modules/p9/lib/a/b/HEAD"},
		{"the configuration of a repository that was there", "printf '{fsmonitor}' >> node_modules/p2/.git/config",
			"node_modules/p2/.git"},
		{"a hook in a repository that was there", "printf '#!/bin/sh\\n{pwned}\\n' > node_modules/p2/.git/hooks/post-checkout",
			"node_modules/p2/.git"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newRT127(t)
			var dirs int
			for i := range 12 {
				for _, d := range []string{"lib/a", "lib/b", "dist/esm", "src"} {
					dir := filepath.Join(p.wd, "node_modules", fmt.Sprintf("p%d", i), d)
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					writeFile(t, filepath.Join(dir, "f.js"), "x\n")
				}
			}
			p.git(t, p.wd, "init", "-q", "node_modules/p2")
			sb := p.sandbox(t)
			if err := filepath.WalkDir(p.wd, func(_ string, d os.DirEntry, err error) error {
				if err == nil && d.IsDir() {
					dirs++
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(sandbox.MemoSlack + 100*time.Millisecond)
			if rce := afterRun(t, sb); rce != nil {
				t.Fatalf("first AfterRun = %v", rce)
			}
			if read, _ := sandbox.WalkStats(sb); read < dirs/2 {
				t.Fatalf("the first check read %d directories of %d", read, dirs)
			}
			if rce := afterRun(t, sb); rce != nil {
				t.Fatalf("second AfterRun = %v", rce)
			}
			read, remembered := sandbox.WalkStats(sb)
			if remembered < dirs/2 || read > dirs/4 {
				t.Fatalf("the second check read %d directories and remembered %d of %d: the memo is not used", read, remembered, dirs)
			}

			fsmon := strings.ReplaceAll(strings.ReplaceAll(p.fsmonitor(), "\n", `\n`), "\t", `\t`)
			line := strings.NewReplacer("{fsmonitor}", fsmon, "{pwned}", p.pwned()).Replace(tt.plant)
			if out := p.bash(t, sb, line+" && echo planted"); !strings.Contains(out, "planted") {
				t.Fatalf("planting: %s", out)
			}
			rce := afterRun(t, sb)
			if rce == nil || len(rce.Moved) != 1 || rce.Moved[0].Path != tt.path || rce.Incomplete != "" {
				t.Fatalf("AfterRun after the plant = %v, want %s moved aside", rce, tt.path)
			}
			if again := afterRun(t, sb); again != nil {
				t.Errorf("AfterRun once more = %v, want nil", again)
			}
		})
	}
}

// A directory is remembered only when it last changed more than
// MemoSlack before the check read it: a change just after the read could
// keep its time, within one tick of the kernel's coarse clock.
func TestRecentDirectoriesAreNotRemembered(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		ago  time.Duration
		want bool
	}{
		{0, false}, {time.Millisecond, false}, {sandbox.MemoSlack, false},
		{sandbox.MemoSlack + time.Millisecond, true}, {time.Hour, true}, {-time.Second, false},
	} {
		if got := sandbox.RememberedAt(now.Add(-tc.ago), now); got != tc.want {
			t.Errorf("changed %v before the read: remembered %v, want %v", tc.ago, got, tc.want)
		}
	}
}
