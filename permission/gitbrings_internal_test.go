package permission

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
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

// BenchmarkGitHistoryWalk measures the look at a linear history of 5,000
// commits (each changing one of 500 files in 50 directories) for the
// absent .lite-agent, without the cache of clean commits: the cost a gate
// pays the first time a git command that writes the worktree meets a
// repository. It reports µs/commit.
func BenchmarkGitHistoryWalk(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	const n = 5000
	wd := b.TempDir()
	git := func(stdin string, args ...string) {
		c := exec.Command("git", args...)
		c.Dir = wd
		c.Stdin = strings.NewReader(stdin)
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
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
	rels := []string{".lite-agent/permissions.json", ".lite-agent/hooks.json", ".lite-agent"}
	for b.Loop() {
		i, err := historyHolds(wd, rels, nil, map[plumbing.Hash]bool{})
		if err != nil || i != -1 {
			b.Fatal(i, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/n, "µs/commit")
}
