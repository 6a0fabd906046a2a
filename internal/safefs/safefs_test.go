package safefs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

func wantStorageError(t *testing.T, err error, msg string) {
	t.Helper()
	var se *storage.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *storage.Error", err, err)
	}
	if !strings.Contains(se.Error(), msg) {
		t.Fatalf("error %q does not contain %q", se.Error(), msg)
	}
}

func TestAnchorCreatesDirectories0700(t *testing.T) {
	syscall.Umask(0o022)
	root := t.TempDir()
	d, err := safefs.Anchor(filepath.Join(root, "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(root, "a"), d.Path()} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o700 {
			t.Errorf("%s mode %v, want 0700", p, st.Mode().Perm())
		}
	}
}

func TestFilesAreCreated0600(t *testing.T) {
	syscall.Umask(0o022)
	d, err := safefs.Anchor(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Append("log.jsonl", []byte("x\n"), false); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("sub/rec.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFileExclusive("copy", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"log.jsonl", "sub/rec.json", "copy"} {
		st, err := os.Stat(filepath.Join(d.Path(), rel))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600", rel, st.Mode().Perm())
		}
	}
	st, _ := os.Stat(filepath.Join(d.Path(), "sub"))
	if st.Mode().Perm() != 0o700 {
		t.Errorf("sub mode %v", st.Mode().Perm())
	}
}

func TestSymlinkedRootIsRefused(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "real")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	_, err := safefs.Anchor(link)
	wantStorageError(t, err, "must not be a symlink")
}

func TestReplacedDirectoryIsDetected(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "sessions")
	d, err := safefs.Anchor(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("a.json", []byte("1")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir, dir+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err = d.ReadFile("a.json")
	wantStorageError(t, err, "Storage directory changed")
	wantStorageError(t, d.WriteFile("b.json", []byte("2")), "Storage directory changed")
	if _, err := os.Lstat(filepath.Join(dir, "b.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("wrote into the replacement directory")
	}

	// Replaced by a symlink to the original.
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir+".moved", dir); err != nil {
		t.Fatal(err)
	}
	wantStorageError(t, d.Check(), "Storage directory changed")
}

func TestSymlinkedRecordIsRefused(t *testing.T) {
	d, err := safefs.Anchor(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(d.Path(), "rec.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(d.Path(), "sub")); err != nil {
		t.Fatal(err)
	}
	_, err = d.ReadFile("rec.json")
	wantStorageError(t, err, "Symlink paths are not allowed")
	wantStorageError(t, d.Append("rec.json", []byte("x"), false), "Symlink")
	wantStorageError(t, d.WriteFile("sub/secret", []byte("x")), "Symlink")
	_, err = d.ReadDir("sub")
	wantStorageError(t, err, "Symlink")
	if b, _ := os.ReadFile(outside); string(b) != "secret" {
		t.Errorf("outside file changed: %q", b)
	}
	// Removing the link removes the link only.
	if err := d.RemoveAll("sub"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("RemoveAll followed a symlink: %v", err)
	}
}

func TestEscapesAreRefused(t *testing.T) {
	d, err := safefs.Anchor(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"..", "../x", "a/../../x", "/etc/passwd", "a/.."} {
		_, err := d.Resolve(rel)
		if rel == "a/.." {
			if err == nil {
				t.Errorf("%q: .. components are refused even when they stay inside", rel)
			}
			continue
		}
		wantStorageError(t, err, "Path escapes workspace")
	}
	wantStorageError(t, d.RemoveAll(""), "storage directory itself")
}

func TestAtomicWriteReplacesAndCleansUp(t *testing.T) {
	d, err := safefs.Anchor(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("r.json", []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("r.json", []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := d.ReadFile("r.json"); string(b) != "new" {
		t.Errorf("content %q", b)
	}
	// A rename that fails (the target is a non-empty directory) leaves no temp file.
	if err := os.MkdirAll(filepath.Join(d.Path(), "busy", "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("busy", []byte("data")); err == nil {
		t.Fatal("replacing a directory succeeded")
	}
	ents, _ := os.ReadDir(d.Path())
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temp file left: %s", e.Name())
		}
	}
}

func TestExclusiveWriteNeverReplaces(t *testing.T) {
	d, err := safefs.Anchor(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFileExclusive("x.broken-1", []byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFileExclusive("x.broken-1", []byte("b")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second exclusive write: %v", err)
	}
	if b, _ := d.ReadFile("x.broken-1"); string(b) != "a" {
		t.Errorf("content %q", b)
	}
}

func TestMissingFileMatchesErrNotExist(t *testing.T) {
	d, err := safefs.Anchor(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.ReadFile("nope")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
	if err := d.Remove("nope"); err != nil {
		t.Errorf("removing a missing file: %v", err)
	}
}

func TestLockLivesBesideTarget(t *testing.T) {
	d, err := safefs.Anchor(filepath.Join(t.TempDir(), "tasks", "list"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := d.Lock(t.Context(), "", filelock.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := d.Real() + ".lock"; l.Path() != want {
		t.Errorf("lock at %s, want %s", l.Path(), want)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l, err = d.Lock(t.Context(), "s.jsonl", filelock.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(d.Real(), "s.jsonl.lock"); l.Path() != want {
		t.Errorf("lock at %s, want %s", l.Path(), want)
	}
	l.Release()
}

func TestRemovedDirectoryIsNotAMissingRecord(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	d, err := safefs.Anchor(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	_, err = d.ReadFile("x.txt")
	wantStorageError(t, err, "Storage directory changed")
	if errors.Is(err, fs.ErrNotExist) {
		t.Error("a vanished storage directory reads as a missing record")
	}
}

func TestAncestorReplacedBySymlinkIsDetected(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "home", "sessions")
	d, err := safefs.Anchor(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Another tree with a directory at the same relative path.
	other := filepath.Join(root, "other", "sessions")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "home"), filepath.Join(root, "home.old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "other"), filepath.Join(root, "home")); err != nil {
		t.Fatal(err)
	}
	wantStorageError(t, d.Check(), "Storage directory changed")
	wantStorageError(t, d.WriteFile("x.json", []byte("1")), "Storage directory changed")
	if _, err := os.Lstat(filepath.Join(other, "x.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("wrote through the symlinked ancestor")
	}
}

func TestAppendCreatesTheFileAndItsDirectoriesThenAppends(t *testing.T) {
	d, err := safefs.Anchor(filepath.Join(t.TempDir(), "root"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"a\n", "b\n"} {
		if err := d.Append("sub/dir/log.jsonl", []byte(line), true); err != nil {
			t.Fatal(err)
		}
	}
	got, err := d.ReadFile("sub/dir/log.jsonl")
	if err != nil || string(got) != "a\nb\n" {
		t.Fatalf("ReadFile = %q, %v", got, err)
	}
	st, err := d.Lstat("sub/dir")
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("directory mode %v, %v", st.Mode(), err)
	}
}
