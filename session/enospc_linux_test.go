package session_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// mountSmallTmpfs mounts a tmpfs of size bytes on a fresh temporary
// directory and unmounts it at the end of the test. It skips the test where
// mounting is not permitted (not root, or no CAP_SYS_ADMIN).
func mountSmallTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs to fill (%v): run as root, as .ci/run does, to test a full disk", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// fillDisk writes a file in dir until the file system is full, then frees
// free bytes of it, and returns its path.
func fillDisk(t *testing.T, dir string, free int64) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := bytes.Repeat([]byte("f"), 64<<10)
	var n int64
	for {
		m, err := f.Write(block)
		n += int64(m)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Truncate(max(n-free, 0)); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAppendOnFullDiskCutsBackAndRecovers fills a small tmpfs so that an
// append fails part-way with ENOSPC, and checks that the error says so,
// that the log is back to its previous bytes (no partial record), that
// nothing was set aside, and that after space is freed the next append
// succeeds and every record reads back.
func TestAppendOnFullDiskCutsBackAndRecovers(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts session.FileOptions
	}{
		{"plaintext", session.FileOptions{}},
		{"durable", session.FileOptions{Durable: true}},
		{"xchacha20poly1305 durable", session.FileOptions{Durable: true, Encoding: storage.Encoding{Codec: aead(t, codec.XChaCha20Poly1305, "k1", 1)}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := mountSmallTmpfs(t, "1m")
			cp := newCP(t, dir, tt.opts)
			appendTexts(t, cp, "full", "one", "two")
			path := filepath.Join(dir, "full.jsonl")
			before := readFile(t, path)
			// Leave a little room, less than the next batch needs, so that
			// the write is cut short rather than refused outright.
			filler := fillDisk(t, dir, 16<<10)
			big := []session.Event{userText(strings.Repeat("x", 100<<10)), userText("after the big one")}
			_, err := cp.Append(t.Context(), "full", big, 2)
			if err == nil {
				t.Fatal("Append on a full disk succeeded")
			}
			var se *storage.Error
			if !errors.As(err, &se) || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), path) {
				t.Errorf("error %v (%T), want a *storage.Error naming the log and ENOSPC", err, err)
			}
			if after := readFile(t, path); !bytes.Equal(after, before) {
				t.Fatalf("the log holds %d bytes after the failed append, want its %d previous bytes", len(after), len(before))
			}
			if aside, _ := filepath.Glob(path + ".*-*"); len(aside) != 0 {
				t.Errorf("files set aside after a failed append: %v", aside)
			}
			// A new session on the full disk leaves no file behind.
			if _, err := cp.Append(t.Context(), "fresh", big, 0); err == nil {
				t.Fatal("Append of a new session on a full disk succeeded")
			}
			if _, err := os.Lstat(filepath.Join(dir, "fresh.jsonl")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed first append left its log: %v", err)
			}
			// The failed append left the head as it was.
			if h, err := cp.Head(t.Context(), "full"); err != nil || h != 2 {
				t.Fatalf("Head after the failed append = %d, %v", h, err)
			}
			if err := os.Remove(filler); err != nil {
				t.Fatal(err)
			}
			if h, err := cp.Append(t.Context(), "full", big, 2); err != nil || h != 4 {
				t.Fatalf("Append after freeing space = %d, %v", h, err)
			}
			got := readTexts(t, newCP(t, dir, tt.opts), "full")
			if len(got) != 4 || got[0] != "one" || got[1] != "two" || len(got[2]) != 100<<10 || got[3] != "after the big one" {
				t.Errorf("records after recovery: %d, want 4", len(got))
			}
		})
	}
}
