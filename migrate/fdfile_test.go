//go:build unix && !migrate_portable

package migrate

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/internal/filestamp"
)

func TestFDFileReadsWhatItWrote(t *testing.T) {
	for _, size := range []int{0, 1, 511, 512, 513, 100_000} {
		data := bytes.Repeat([]byte("0123456789abcdef"), size/16+1)[:size]
		path := filepath.Join(t.TempDir(), "f")
		f, err := openFileAt(unix.AT_FDCWD, path, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := f.Write(data); n != size || err != nil {
			t.Fatalf("size %d: Write = %d, %v", size, n, err)
		}
		back, err := f.readAll()
		if err != nil || !bytes.Equal(back, data) {
			t.Errorf("size %d: readAll = %d bytes, %v", size, len(back), err)
		}
		if size > 10 {
			p := make([]byte, 10)
			if n, err := f.ReadAt(p, int64(size-5)); n != 5 || err != io.EOF || !bytes.Equal(p[:5], data[size-5:]) {
				t.Errorf("size %d: ReadAt past the end = %d, %v", size, n, err)
			}
		}
		// Read starts where Write left off: at the end.
		if n, err := f.Read(make([]byte, 8)); n != 0 || err != io.EOF {
			t.Errorf("size %d: Read at the end = %d, %v", size, n, err)
		}
		regular, mtime, err := f.status()
		st, serr := os.Stat(path)
		if err != nil || serr != nil || !regular || !mtime.Equal(st.ModTime()) {
			t.Errorf("size %d: status = %v, %v, %v; os.Stat %v, %v", size, regular, mtime, err, st.ModTime(), serr)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := openFileAt(unix.AT_FDCWD, path, unix.O_RDONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("size %d: read back %d bytes, %v", size, len(got), err)
		}
	}
}

func TestFDFileRefusesSymlinksAndExistingFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := openFileAt(unix.AT_FDCWD, filepath.Join(dir, "link"), unix.O_RDONLY, 0); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("opening a symlink: %v, want ELOOP", err)
	}
	if _, err := openFileAt(unix.AT_FDCWD, target, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL, 0o600); !errors.Is(err, os.ErrExist) {
		t.Errorf("creating an existing file: %v, want EEXIST", err)
	}
}

// touch stamps an open file through its descriptor and returns the state a
// stat of its name then gives (what removeMade compares).
func TestFDFileTouchStampsAsTheNameShows(t *testing.T) {
	if !stampsOpenFiles {
		t.Skip("this system stamps finished files by name")
	}
	path := filepath.Join(t.TempDir(), "f")
	f, err := openFileAt(unix.AT_FDCWD, path, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write([]byte("a line\n")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []time.Time{
		time.Date(2026, 7, 22, 12, 0, 0, 123456789, time.UTC),
		time.Date(1999, 1, 2, 3, 4, 5, 6, time.UTC),
	} {
		got, err := f.touch(want)
		if err != nil {
			t.Fatalf("touch %v: %v", want, err)
		}
		st, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		if byName := filestamp.Of(st); got != byName || !st.ModTime().Equal(want) {
			t.Errorf("touch %v: stamp %+v, the name's %+v (time %v)", want, got, byName, st.ModTime())
		}
	}
}
