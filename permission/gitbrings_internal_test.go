package permission

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestOutermost(t *testing.T) {
	for _, tc := range []struct {
		rels  []string
		outer []string
		index []int
	}{
		{[]string{".lite-agent/permissions.json", ".lite-agent/hooks.json", ".lite-agent"}, []string{".lite-agent"}, []int{2}},
		{[]string{".lite-agent", ".Lite-Agent/hooks.json"}, []string{".lite-agent"}, []int{0}},
		{[]string{"a", "A"}, []string{"a"}, []int{0}},
		{[]string{"conf/prod.yaml", "config", "conf/dev.yaml"}, []string{"conf/prod.yaml", "config", "conf/dev.yaml"}, []int{0, 1, 2}},
		{[]string{"ab/c", "a"}, []string{"ab/c", "a"}, []int{0, 1}},
		{nil, nil, nil},
	} {
		outer, index := outermost(tc.rels)
		if !slices.Equal(outer, tc.outer) || !slices.Equal(index, tc.index) {
			t.Errorf("outermost(%q) = %q %v, want %q %v", tc.rels, outer, index, tc.outer, tc.index)
		}
	}
}

// linearHistory makes in a new directory a repository whose main branch
// is a line of n commits, each changing one of 500 files in 50
// directories, and returns the directory and a function that runs git
// there with stdin.
func linearHistory(tb testing.TB, n int) (string, func(stdin string, args ...string)) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("no git")
	}
	wd := tb.TempDir()
	git := func(stdin string, args ...string) {
		tb.Helper()
		c := exec.Command("git", args...)
		c.Dir = wd
		c.Stdin = strings.NewReader(stdin)
		c.Env = append(c.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := c.CombinedOutput(); err != nil {
			tb.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("", "init", "-q", "-b", "main")
	var in strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&in, "commit refs/heads/main\nmark :%d\ncommitter t <t@e> %d +0000\ndata 2\nc\n", i, 1700000000+i)
		if i > 1 {
			fmt.Fprintf(&in, "from :%d\n", i-1)
		}
		fmt.Fprintf(&in, "M 644 inline src/d%d/f%d.txt\ndata 8\n%07d\n", i%50, i%500, i)
	}
	git(in.String(), "fast-import", "--quiet")
	return wd, git
}

// TestHistoryReadOverSeveralCalls checks that a history larger than one
// walk may read is read over several calls of one gate: each call asks
// while the walk has not reached the end, and a later one allows, as the
// commits already read are followed without being read again. Before,
// every call read the same first commits and asked, however many there
// were. A branch added later with .lite-agent is still found.
func TestHistoryReadOverSeveralCalls(t *testing.T) {
	wd, git := linearHistory(t, 2500)
	rels := []string{".lite-agent/hooks.json", ".lite-agent"}
	c := &historyCache{maxCommits: 1000, maxTime: time.Minute}
	var answers []int
	for range 5 {
		i, err := c.holds(wd, rels, nil)
		if err != nil {
			i = -2
		}
		answers = append(answers, i)
		if i == -1 {
			break
		}
	}
	if !slices.Equal(answers, []int{-2, -2, -1}) {
		t.Fatalf("answers %v (-2 an error), want two errors and then none", answers)
	}
	// A fresh cache cannot read the history in one call.
	if _, err := (&historyCache{maxCommits: 1000, maxTime: time.Minute}).holds(wd, rels, nil); err == nil {
		t.Fatal("a fresh cache read 2,500 commits in one call bounded to 1,000")
	}
	git("commit refs/heads/evil\ncommitter t <t@e> 1800000000 +0000\ndata 2\ne\nfrom refs/heads/main\nM 644 inline .lite-agent/hooks.json\ndata 2\n{}\n",
		"fast-import", "--quiet")
	if i, err := c.holds(wd, rels, nil); err != nil || i != 1 {
		t.Fatalf("with branch evil: %d, %v; want 1 (.lite-agent)", i, err)
	}
}

// BenchmarkGitHistoryWalk measures the look at a linear history of 5,000
// commits (each changing one of 500 files in 50 directories) for the
// absent .lite-agent, without the cache of clean commits: the cost a gate
// pays the first time a git command that writes the worktree meets a
// repository. It reports µs/commit.
func BenchmarkGitHistoryWalk(b *testing.B) {
	const n = 5000
	wd, _ := linearHistory(b, n)
	rels := []string{".lite-agent/permissions.json", ".lite-agent/hooks.json", ".lite-agent"}
	for b.Loop() {
		i, err := historyHolds(wd, rels, nil, newHistoryMemo(), maxBringCommits, maxBringTime)
		if err != nil || i != -1 {
			b.Fatal(i, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/n, "µs/commit")
}
