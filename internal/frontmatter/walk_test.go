package frontmatter

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// walkResult collects what one Walk saw.
type walkResult struct {
	files    []string // shown paths, in order
	data     map[string]string
	problems []string // "path: detail"
}

func newWalker(maxEntries, maxFiles int, maxBytes int64) *Walker {
	return NewWalker(WalkOptions{
		Match:        func(name string) bool { return strings.HasSuffix(name, ".md") },
		MaxEntries:   maxEntries,
		MaxFiles:     maxFiles,
		Files:        "definition files",
		MaxFileBytes: maxBytes,
	})
}

// walk runs w over root, skipping invalid entries.
func walk(t *testing.T, w *Walker, root string) (walkResult, error) {
	t.Helper()
	r := walkResult{data: map[string]string{}}
	err := w.Walk(t.Context(), root, "", func(shown string, data []byte) error {
		r.files = append(r.files, shown)
		r.data[shown] = string(data)
		return nil
	}, func(p *Problem) error {
		r.problems = append(r.problems, p.Error())
		return nil
	})
	return r, err
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWalkReadsMatchingFilesInLexicalOrder(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "b.md"), "B")
	write(t, filepath.Join(root, "a", "z.md"), "AZ")
	write(t, filepath.Join(root, "a.txt"), "ignored")
	r, err := walk(t, newWalker(100, 100, 1<<10), root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "a", "z.md"), filepath.Join(root, "b.md")}
	if !slices.Equal(r.files, want) || r.data[want[0]] != "AZ" || len(r.problems) != 0 {
		t.Fatalf("files %q, data %q, problems %q; want %q", r.files, r.data, r.problems, want)
	}
}

func TestWalkSkipsAMissingRootAndOneReachedTwice(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "a.md"), "A")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	w := newWalker(100, 100, 1<<10)
	if r, err := walk(t, w, filepath.Join(root, "missing")); err != nil || len(r.files) != 0 {
		t.Fatalf("missing root: %q, %v", r.files, err)
	}
	r, err := walk(t, w, link)
	if err != nil || !slices.Equal(r.files, []string{filepath.Join(link, "a.md")}) {
		t.Fatalf("linked root: %q, %v; want the file shown under the link", r.files, err)
	}
	if r, err := walk(t, w, root); err != nil || len(r.files) != 0 {
		t.Fatalf("second walk of the same directory: %q, %v", r.files, err)
	}
}

func TestWalkFollowsNoLinkBelowTheRoot(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "secret.md"), "S")
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, "file.md")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "dir")); err != nil {
		t.Fatal(err)
	}
	r, err := walk(t, newWalker(100, 100, 1<<10), root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "file.md") + ": is a symbolic link"}
	if len(r.files) != 0 || !slices.Equal(r.problems, want) {
		t.Fatalf("files %q, problems %q; want problems %q", r.files, r.problems, want)
	}
}

func TestWalkPassesInvalidEntriesToInvalid(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "big.md"), "0123456789")
	write(t, filepath.Join(root, "ok.md"), "ok")
	stop := errors.New("stop")
	var got *Problem
	err := newWalker(100, 100, 4).Walk(t.Context(), root, "", func(string, []byte) error {
		t.Fatal("a file larger than the limit was passed on")
		return nil
	}, func(p *Problem) error { got = p; return stop })
	if err != stop {
		t.Fatalf("err = %v, want invalid's error", err)
	}
	if got == nil || got.Path != filepath.Join(root, "big.md") || got.Detail != "larger than 4 bytes" {
		t.Fatalf("problem = %+v", got)
	}
}

func TestWalkRefusesASpecialFileWithoutBlocking(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	root := t.TempDir()
	if err := mkfifo(filepath.Join(root, "pipe.md")); err != nil {
		t.Skip("no FIFOs:", err)
	}
	r, err := walk(t, newWalker(100, 100, 1<<10), root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "pipe.md") + ": not a regular file"}
	if !slices.Equal(r.problems, want) {
		t.Fatalf("problems %q, want %q", r.problems, want)
	}
}

func TestWalkStopsWithAProblemAtTheLimits(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"a.md", "b.md", "c.md"} {
		write(t, filepath.Join(root, name), name)
	}
	tests := []struct {
		name                 string
		maxEntries, maxFiles int
		path, detail         string
	}{
		{"too many entries", 3, 100, root, "more than 3 entries"},
		{"too many files", 100, 2, filepath.Join(root, "c.md"), "more than 2 definition files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := walk(t, newWalker(tt.maxEntries, tt.maxFiles, 1<<10), root)
			var p *Problem
			if !errors.As(err, &p) || p.Path != tt.path || p.Detail != tt.detail {
				t.Fatalf("err = %v, want %s: %s", err, tt.path, tt.detail)
			}
		})
	}
}

func TestWalkRefusesARootThatIsNotADirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	write(t, file, "x")
	_, err := walk(t, newWalker(100, 100, 1<<10), file)
	var p *Problem
	if !errors.As(err, &p) || p.Path != file || p.Detail != "not a directory" {
		t.Fatalf("err = %v", err)
	}
}

func TestWalkStopsWhenTheContextIsDone(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "a.md"), "A")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := newWalker(100, 100, 1<<10).Walk(ctx, root, "", func(string, []byte) error { return nil }, func(*Problem) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
