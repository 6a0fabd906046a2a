package pathmatch_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
)

// Lookups answer as the package's functions do, each name looked up once:
// a second walk through the same directories gives the same answers, and
// a change of the file system after them is not seen (they are for one
// decision), while fresh Lookups see it.
func TestLookupsAnswerAsTheFunctions(t *testing.T) {
	dir := t.TempDir()
	cwd := filepath.Join(dir, "work")
	for _, d := range []string{"work/sub", "home/.ssh"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"work/keys": "../home/.ssh", "work/up": "/proc/self/cwd/..", "work/loop": "loop",
		"work/fd": "/dev/fd", "work/sub/back": "../../home", "work/abs": filepath.Join(dir, "home"),
	} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{
		filepath.Join(cwd, "keys", "id_ed25519"), filepath.Join(cwd, "up", "home", "x"), filepath.Join(cwd, "loop", "x"),
		filepath.Join(cwd, "sub", "back", ".ssh"), filepath.Join(cwd, "abs", "..", "work", "keys"), filepath.Join(cwd, "missing", "..", "keys"),
		filepath.Join(cwd, "fd", "3", "x"), "/proc/self/cwd/../x", "/proc/1/cwd/x", "/dev/stdin/x", "relative/../x",
	}
	l := pathmatch.NewLookups()
	for range 2 {
		for _, p := range paths {
			if got, want := l.Resolve(p), pathmatch.Resolve(p); got != want {
				t.Errorf("Lookups.Resolve(%q) = %q, want %q", p, got, want)
			}
			if got, want := l.ResolveFrom(p, cwd), pathmatch.ResolveFrom(p, cwd); got != want {
				t.Errorf("Lookups.ResolveFrom(%q) = %q, want %q", p, got, want)
			}
			for _, at := range []bool{false, true} {
				if got, want := l.ThroughDescriptor(p, cwd, at), pathmatch.ThroughDescriptor(p, cwd, at); got != want {
					t.Errorf("Lookups.ThroughDescriptor(%q, %v) = %v, want %v", p, at, got, want)
				}
			}
		}
	}
	secrets := []string{filepath.Join(dir, "home", ".ssh"), filepath.Join(cwd, "keys")}
	for _, p := range paths {
		if got, want := l.NewSet(secrets).Hits(p, false), pathmatch.NewSet(secrets).Hits(p, false); got != want {
			t.Errorf("Lookups.NewSet(…).Hits(%q) = %v, want %v", p, got, want)
		}
	}
	// Patterns are matched against the secrets as written and resolved:
	// work/keys resolves to home/.ssh.
	for p, hits := range map[string]bool{
		filepath.Join(dir, "home", ".s*", "id_*"): true, filepath.Join(dir, "h*", "{.ssh,x}"): true,
		filepath.Join(cwd, "k?ys"): true, filepath.Join(dir, "*"): false, filepath.Join(cwd, "s*"): false,
	} {
		for _, anc := range []bool{false, true} {
			got, want := l.PatternHits(p, secrets[1:], anc), pathmatch.PatternHits(p, secrets[1:], anc)
			if got != want || !anc && got != hits {
				t.Errorf("Lookups.PatternHits(%q, %v) = %v; PatternHits says %v, and without ancestors it hits: %v", p, anc, got, want, hits)
			}
		}
	}

	// Re-point keys: the Lookups made before keep their answer, fresh
	// ones and the functions follow the link where it leads now.
	key := filepath.Join(cwd, "keys", "id_ed25519")
	before := l.Resolve(key)
	if err := os.Remove(filepath.Join(cwd, "keys")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(cwd, "keys")); err != nil {
		t.Fatal(err)
	}
	if got := l.Resolve(key); got != before {
		t.Errorf("Lookups.Resolve after a change = %q, want the answer they gave, %q", got, before)
	}
	want := filepath.Join(cwd, "sub", "id_ed25519")
	if got := pathmatch.NewLookups().Resolve(key); got != want {
		t.Errorf("fresh Lookups.Resolve = %q, want %q", got, want)
	}
	var none *pathmatch.Lookups
	if got := none.Resolve(key); got != want {
		t.Errorf("nil Lookups.Resolve = %q, want %q", got, want)
	}

	// A directory is read once: a name made after the first read is not
	// among the entries.
	list := func(l *pathmatch.Lookups) int {
		t.Helper()
		entries, err := l.ReadDir(filepath.Join(cwd, "sub"))
		if err != nil {
			t.Fatal(err)
		}
		return len(entries)
	}
	fresh := pathmatch.NewLookups()
	n := list(fresh)
	if err := os.WriteFile(filepath.Join(cwd, "sub", "new"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := list(fresh); got != n {
		t.Errorf("Lookups.ReadDir after a change: %d entries, want the %d it read", got, n)
	}
	if got := list(pathmatch.NewLookups()); got != n+1 {
		t.Errorf("fresh Lookups.ReadDir: %d entries, want %d", got, n+1)
	}
	if got := list(nil); got != n+1 {
		t.Errorf("nil Lookups.ReadDir: %d entries, want %d", got, n+1)
	}
}
