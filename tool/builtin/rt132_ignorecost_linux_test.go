package builtin_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSearchesBoundTheirGitignoreWork (rt132files): a .gitignore of a
// million bytes holds some 150,000 patterns (bash: seq -f 'p%g' 150000 >
// .gitignore), every path a walk looks at was matched against all of
// them, and the walk looked at its context once a directory: glob and grep
// of 3,000 files took half a minute whatever their deadline (a cloned
// repository of 100,000 files, 20 minutes). A search now stops when its
// context is done, at the next entry, and after a bounded
// amount of pattern matching, saying its result is incomplete; an ordinary
// .gitignore still hides what it names.
func TestSearchesBoundTheirGitignoreWork(t *testing.T) {
	ws := t.TempDir()
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "p%d\n", i)
	}
	writeFile(t, filepath.Join(ws, ".gitignore"), b.String())
	if err := os.MkdirAll(filepath.Join(ws, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 3000 {
		if err := os.WriteFile(filepath.Join(ws, "d", fmt.Sprintf("f%d", i)), []byte("needle\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(ws, "d", "p7"), "needle\n") // ignored
	tools := fileAndSearchTools(t, ws)
	for _, s := range []struct {
		tool  string
		input map[string]any
	}{
		{"glob", map[string]any{"pattern": "**/*"}},
		{"grep", map[string]any{"pattern": "needle"}},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		start := time.Now()
		res := callBounded(t, ctx, byName(t, tools, s.tool), s.input)
		cancel()
		if d := time.Since(start); d > 4*time.Second {
			t.Errorf("%s with a deadline of 1s took %v: %.100q", s.tool, d, res.Content)
		}
		if raceEnabled {
			// The bound is of patterns matched, not of time: under the
			// race detector the whole search takes 20 s or more.
			continue
		}
		start = time.Now()
		res = callBounded(t, context.Background(), byName(t, tools, s.tool), s.input)
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("%s took %v", s.tool, d)
		}
		if strings.Contains(res.Content, "p7") {
			t.Errorf("%s showed the ignored d/p7: %.200q", s.tool, res.Content)
		}
		if !strings.Contains(res.Content, "too many patterns") && !strings.Contains(res.Content, "d/f") {
			t.Errorf("%s = %.200q, want files or the note that it stopped", s.tool, res.Content)
		}
	}

	// An ordinary .gitignore: the whole search, the ignored file left out.
	writeFile(t, filepath.Join(ws, ".gitignore"), "p7\n*.log\n")
	writeFile(t, filepath.Join(ws, "d", "x.log"), "needle\n")
	for _, c := range []struct {
		tool  string
		input map[string]any
		want  string
	}{
		{"glob", map[string]any{"pattern": "**/*.log"}, "No files found"},
		{"glob", map[string]any{"pattern": "d/p*"}, "No files found"},
		{"glob", map[string]any{"pattern": "d/f299*"}, "d/f2999"},
		{"grep", map[string]any{"pattern": "needle", "include": "f2999"}, "d/f2999:1: needle"},
		{"grep", map[string]any{"pattern": "needle", "include": "*.log"}, "No matches found"},
	} {
		res := call(t, byName(t, tools, c.tool), c.input)
		if !strings.Contains(res.Content, c.want) || strings.Contains(res.Content, "stopped") {
			t.Errorf("%s %v with an ordinary .gitignore = %.300q, want %q", c.tool, c.input, res.Content, c.want)
		}
	}
}
