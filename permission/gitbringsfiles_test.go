//go:build linux

package permission_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/permission"
)

// TestGitHistoryCheckReadsOnlyRegularFiles checks that the look at a
// repository's history (whether git checkout may bring the absent
// protected .lite-agent) neither waits on a FIFO nor reads a device put
// where git keeps a file: each of these made `git checkout -q B` wait
// forever for a writer (FETCH_HEAD as a FIFO hung lite-agent permissions
// check until SIGKILL; SIGTERM did not end it). The line asks instead.
// The history of each repository holds no .lite-agent, so a gate that
// read it in full would allow the line: the look-alike without the
// special file is allowed.
func TestGitHistoryCheckReadsOnlyRegularFiles(t *testing.T) {
	lookGit(t)
	cases := []struct {
		name string
		// rel returns the file of the repository at wd to replace.
		rel func(t *testing.T, wd string) string
	}{
		{"FETCH_HEAD", func(*testing.T, string) string { return ".git/FETCH_HEAD" }},
		{"ORIG_HEAD", func(*testing.T, string) string { return ".git/ORIG_HEAD" }},
		{"a reflog", func(*testing.T, string) string { return ".git/logs/refs/heads/B" }},
		{"a pack", func(t *testing.T, wd string) string {
			gitIn(t, wd, "gc", "-q")
			packs, _ := filepath.Glob(filepath.Join(wd, ".git/objects/pack/*.pack"))
			if len(packs) != 1 {
				t.Fatalf("packs after gc: %v", packs)
			}
			rel, _ := filepath.Rel(wd, packs[0])
			return rel
		}},
		{"a loose object", func(t *testing.T, wd string) string {
			h := gitIn(t, wd, "rev-parse", "B")
			return filepath.Join(".git/objects", h[:2], h[2:])
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home, wd := t.TempDir(), t.TempDir()
			gitBringsRepo(t, wd, true)
			const line = "git checkout -q B"
			if v := decideWithin(t, bringsGate(home, wd), line); v.Decision != permission.Allow {
				t.Fatalf("before the FIFO: %v (%s), want it allowed", v.Decision, v.Reason)
			}
			p := filepath.Join(wd, tc.rel(t, wd))
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			// A reader left waiting on the FIFO gets its end of file.
			t.Cleanup(func() {
				if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
			})
			if v := decideWithin(t, bringsGate(home, wd), line); v.Decision == permission.Allow {
				t.Errorf("%s a FIFO: allowed (%s), want an ask", tc.rel(t, wd), v.Reason)
			}
		})
	}
	// A device in place of a special head: /dev/zero, read whole, never
	// ends. (A link out of the project inside .git is asked about by the
	// analysis of git's files as well; this holds the history check to
	// the same answer.)
	t.Run("a device", func(t *testing.T) {
		t.Parallel()
		home, wd := t.TempDir(), t.TempDir()
		gitBringsRepo(t, wd, true)
		if err := os.Symlink("/dev/zero", filepath.Join(wd, ".git", "FETCH_HEAD")); err != nil {
			t.Fatal(err)
		}
		if v := decideWithin(t, bringsGate(home, wd), "git checkout -q B"); v.Decision == permission.Allow {
			t.Errorf("FETCH_HEAD a link to /dev/zero: allowed (%s), want an ask", v.Reason)
		}
	})
}

// TestGitHistoryCheckReadsLongReflogLines checks that a reflog line
// longer than a scanner's buffer (a commit subject of 2 MiB) hides none
// of the entries after it: the only commit holding .lite-agent is named
// by the entry after such a line. The check stopped reading at the long
// line and allowed `git checkout -q B`.
func TestGitHistoryCheckReadsLongReflogLines(t *testing.T) {
	lookGit(t)
	home, wd := t.TempDir(), t.TempDir()
	gitBringsRepo(t, wd, true)
	hidden := commitLiteAgentOn(t, wd, "gone")
	gitIn(t, wd, "branch", "-q", "-D", "gone")
	gitIn(t, wd, "reflog", "expire", "--expire=now", "--all")
	const line = "git checkout -q B"
	if v := decideWithin(t, bringsGate(home, wd), line); v.Decision != permission.Allow {
		t.Fatalf("with the commit unreachable: %v (%s), want it allowed", v.Decision, v.Reason)
	}
	zero := strings.Repeat("0", 40)
	head := gitIn(t, wd, "rev-parse", "HEAD")
	entry := func(old, new, msg string) string {
		return old + " " + new + " t <t@example.com> 1700000000 +0000\t" + msg + "\n"
	}
	logs := entry(zero, head, "checkout: "+strings.Repeat("x", 2<<20)) + entry(head, hidden, "commit: gone")
	f, err := os.OpenFile(filepath.Join(wd, ".git", "logs", "HEAD"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(logs); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if v := decideWithin(t, bringsGate(home, wd), line); v.Decision == permission.Allow {
		t.Errorf("the reflog names the commit with .lite-agent after a 2 MiB line: allowed (%s), want an ask", v.Reason)
	}
}

// commitLiteAgentOn makes branch from the current one, commits
// .lite-agent/hooks.json on it, goes back to main and returns the
// commit's name.
func commitLiteAgentOn(t *testing.T, wd, branch string) string {
	t.Helper()
	gitIn(t, wd, "checkout", "-q", "-b", branch)
	writeTreeMode(t, wd, map[string]string{".lite-agent/hooks.json": "{}"}, 0o644)
	gitIn(t, wd, "add", "-A")
	gitIn(t, wd, "commit", "-q", "-m", branch)
	h := gitIn(t, wd, "rev-parse", "HEAD")
	gitIn(t, wd, "checkout", "-q", "main")
	return h
}

// bringsGate is a gate allowing bash in wd, with the project's
// .lite-agent protected.
func bringsGate(home, wd string) *permission.Gate {
	return permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home,
		Protected: []string{filepath.Join(home, ".lite-agent"), filepath.Join(wd, ".lite-agent")}})
}

// decideWithin is g's verdict on the bash line, failing the test if the
// gate takes more than a minute (a wait that would never end).
func decideWithin(t *testing.T, g *permission.Gate, line string) permission.Verdict {
	t.Helper()
	in, err := json.Marshal(map[string]string{"command": line})
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		v   permission.Verdict
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := g.Decide(t.Context(), permission.Call{Name: "bash", Input: in})
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.v
	case <-time.After(time.Minute):
		t.Fatalf("%q: no verdict after a minute", line)
	}
	panic("unreachable")
}

// lookGit skips the test without git.
func lookGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
}
