package migrate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/session"
)

// keptSetup lays out a sessions directory for one case of the check of
// session s1, whose copy began with first.
type keptSetup struct {
	name  string
	setup func(t testing.TB, dir string)
}

const keptFirst = `{"type":"meta"}` + "\n"

func keptCases() []keptSetup {
	log := func(dir string) string { return filepath.Join(dir, "s1.jsonl") }
	return []keptSetup{
		{"in place", func(t testing.TB, dir string) { writeTB(t, log(dir), keptFirst+`{"type":"user"}`+"\n") }},
		{"exactly the first line", func(t testing.TB, dir string) { writeTB(t, log(dir), keptFirst) }},
		{"shorter than the first line", func(t testing.TB, dir string) { writeTB(t, log(dir), `{"ty`) }},
		{"empty", func(t testing.TB, dir string) { writeTB(t, log(dir), "") }},
		{"a new session of the id", func(t testing.TB, dir string) { writeTB(t, log(dir), `{"type":"meta","x":1}`+"\n") }},
		{"gone", func(t testing.TB, dir string) {}},
		{"set aside", func(t testing.TB, dir string) { writeTB(t, log(dir)+".deleting", keptFirst) }},
		{"a symlink", func(t testing.TB, dir string) {
			target := filepath.Join(t.TempDir(), "log")
			writeTB(t, target, keptFirst)
			if err := os.Symlink(target, log(dir)); err != nil {
				t.Fatal(err)
			}
		}},
		{"a directory", func(t testing.TB, dir string) {
			if err := os.Mkdir(log(dir), 0o700); err != nil {
				t.Fatal(err)
			}
		}},
		{"a FIFO", func(t testing.TB, dir string) {
			if err := syscall.Mkfifo(log(dir), 0o600); err != nil {
				t.Skip(err)
			}
		}},
	}
}

func writeTB(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// openKept opens dir as a migration opens a source sessions directory for
// the checks, and lists its entries' types as the migration does.
func openKept(t testing.TB, dir string) (keptDir, map[string]fs.FileMode) {
	t.Helper()
	d, err := safefs.AnchorExisting(dir)
	if err != nil {
		t.Fatal(err)
	}
	types, err := entryTypes(d)
	if err != nil {
		t.Fatal(err)
	}
	k, err := openKeptDir(d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.h.close)
	return k, types
}

// TestKeptDirChecksAsAPathDoes: the check of a session through the
// sessions directory the migration holds open gives the same answer as
// the check by path, in every case (a log in place, replaced, set aside,
// gone, short, or something else at its name), and a file that is no
// log is refused even when the listing said it was one.
func TestKeptDirChecksAsAPathDoes(t *testing.T) {
	for _, tc := range keptCases() {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			k, types := openKept(t, dir)
			want := session.CheckKept(session.PathDir(dir), types, "s1", []byte(keptFirst))
			got := session.CheckKept(k, types, "s1", []byte(keptFirst))
			if (got == nil) != (want == nil) || errorKind(got) != errorKind(want) {
				t.Fatalf("through the open directory: %v\nby path: %v", got, want)
			}
			// The listing said a regular file: what is there now
			// decides.
			types["s1.jsonl"] = 0
			got = session.CheckKept(k, types, "s1", []byte(keptFirst))
			want = session.CheckKept(session.PathDir(dir), types, "s1", []byte(keptFirst))
			if (got == nil) != (want == nil) || errorKind(got) != errorKind(want) {
				t.Fatalf("after a listing of a regular file: through the open directory: %v\nby path: %v", got, want)
			}
		})
	}
}

// errorKind names the kind of a check's error.
func errorKind(err error) string {
	var de *session.DeletingError
	var nf *session.NotFoundError
	switch {
	case err == nil:
		return "nil"
	case errors.As(err, &de):
		return "deleting"
	case errors.As(err, &nf):
		return "not found"
	case errors.Is(err, safefs.ErrNotRegular):
		return "not regular"
	}
	return "other"
}

// BenchmarkCheckKept checks the thousand sessions of a directory as the
// end of a migration does, by path and through the open directory.
func BenchmarkCheckKept(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "home", "projects", "0123456789abcdef", "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	const n = 1000
	for i := range n {
		writeTB(b, filepath.Join(dir, fmt.Sprintf("s%04d.jsonl", i)), keptFirst+`{"type":"user"}`+"\n")
	}
	k, types := openKept(b, dir)
	for _, c := range []struct {
		name string
		dir  session.KeptDir
	}{{"path", session.PathDir(dir)}, {"open", k}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for i := range n {
					if err := session.CheckKept(c.dir, types, fmt.Sprintf("s%04d", i), []byte(keptFirst)); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
