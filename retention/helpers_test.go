package retention_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/retention"
)

const day = 24 * time.Hour

// tree builds a data home (and things outside it) for a test.
type tree struct {
	t    *testing.T
	home string // <root>/home
	out  string // <root>/outside, a sibling of the home for decoys
}

func newTree(t *testing.T) *tree {
	t.Helper()
	root := t.TempDir()
	tr := &tree{t: t, home: filepath.Join(root, "home"), out: filepath.Join(root, "outside")}
	for _, d := range []string{tr.home, tr.out} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// path returns the absolute path of rel under the home ("~/" prefix) or
// outside it ("out/" prefix); anything else is relative to the home.
func (tr *tree) path(rel string) string {
	if r, ok := strings.CutPrefix(rel, "out/"); ok {
		return filepath.Join(tr.out, r)
	}
	return filepath.Join(tr.home, rel)
}

// file writes size bytes to rel and makes it age old.
func (tr *tree) file(rel string, size int, age time.Duration) string {
	tr.t.Helper()
	p := tr.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		tr.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Repeat("x", size)), 0o600); err != nil {
		tr.t.Fatal(err)
	}
	tr.age(rel, age)
	return p
}

// dir creates rel and makes it age old; create its contents first.
func (tr *tree) dir(rel string, age time.Duration) string {
	tr.t.Helper()
	p := tr.path(rel)
	if err := os.MkdirAll(p, 0o700); err != nil {
		tr.t.Fatal(err)
	}
	tr.age(rel, age)
	return p
}

func (tr *tree) age(rel string, age time.Duration) {
	tr.t.Helper()
	when := time.Now().Add(-age)
	if err := os.Chtimes(tr.path(rel), when, when); err != nil {
		tr.t.Fatal(err)
	}
}

// symlink makes rel a symlink to target (both as for path).
func (tr *tree) symlink(rel, target string) string {
	tr.t.Helper()
	p := tr.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		tr.t.Fatal(err)
	}
	if err := os.Symlink(tr.path(target), p); err != nil {
		tr.t.Fatal(err)
	}
	return p
}

// sweep runs a sweep of the home and fails the test on error.
func (tr *tree) sweep(opts retention.Options) retention.Report {
	tr.t.Helper()
	opts.Home = tr.home
	rep, err := retention.Sweep(tr.t.Context(), opts)
	if err != nil {
		tr.t.Fatalf("Sweep: %v", err)
	}
	for _, s := range rep.Skipped {
		if s.Reason == retention.SkipError {
			tr.t.Errorf("unexpected error skip: %s: %v", s.Path, s.Err)
		}
	}
	return rep
}

// exists reports whether rel exists (a dangling symlink exists).
func (tr *tree) exists(rel string) bool {
	_, err := os.Lstat(tr.path(rel))
	return err == nil
}

// mustExist and mustNotExist check rels.
func (tr *tree) mustExist(rels ...string) {
	tr.t.Helper()
	for _, rel := range rels {
		if !tr.exists(rel) {
			tr.t.Errorf("%s was removed", rel)
		}
	}
}

func (tr *tree) mustNotExist(rels ...string) {
	tr.t.Helper()
	for _, rel := range rels {
		if tr.exists(rel) {
			tr.t.Errorf("%s survived", rel)
		}
	}
}

// removed returns the report's removed paths relative to the home, with
// their reasons, as "reason rel".
func (tr *tree) removed(rep retention.Report) []string {
	var out []string
	for _, e := range rep.Removed {
		rel, _ := filepath.Rel(tr.home, e.Path)
		out = append(out, string(e.Reason)+" "+filepath.ToSlash(rel))
	}
	return out
}

// skipped returns the report's skips as "reason rel", sorted.
func (tr *tree) skipped(rep retention.Report) []string {
	var out []string
	for _, s := range rep.Skipped {
		rel, _ := filepath.Rel(tr.home, s.Path)
		out = append(out, string(s.Reason)+" "+filepath.ToSlash(rel))
	}
	slices.Sort(out)
	return out
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}

// snapshot lists every path under root with its type, size and mtime.
func snapshot(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		out = append(out, p+" "+st.Mode().String()+" "+st.ModTime().String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
