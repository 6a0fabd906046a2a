package archive_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestPutOnFullDiskLeavesTheIndexReadable fills a small tmpfs so that the
// index line of a Put is written only in part (the index's last page has
// room for its first bytes, the disk none for the rest): the Put fails with
// a *storage.Error, the index is back to its previous bytes, and every
// entry put before still reads back, as does a Put once space is freed.
// A partial line left behind would make the index corrupt, and with it
// every Put, Search and Read of the session's archive.
func TestPutOnFullDiskLeavesTheIndexReadable(t *testing.T) {
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m,mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs to fill (%v): run as root to test a full disk", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(mnt, 0); err != nil {
			t.Errorf("unmount %s: %v", mnt, err)
		}
	})
	dir := filepath.Join(mnt, "s.context")
	a := open(t, dir, archive.Options{SessionID: "s"})
	// Index lines of ASCII content up to 512 bytes are 88 bytes longer.
	var contents []string
	for i := range 6 {
		contents = append(contents, strings.Repeat(string(rune('a'+i)), 512)) // 600-byte lines
	}
	contents = append(contents, strings.Repeat("g", 4000-6*600-88)) // the index is now 4000 bytes
	for _, c := range contents {
		put(t, a, c, nil)
	}
	index := filepath.Join(dir, archive.IndexFile)
	before, err := os.ReadFile(index)
	if err != nil || len(before) != 4000 {
		t.Fatalf("index of %d bytes (%v), want 4000", len(before), err)
	}

	// Fill the disk, then free one page: the new note takes it, and the
	// 600-byte index line finds room for 96 bytes only.
	filler := filepath.Join(mnt, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for block := bytes.Repeat([]byte("f"), 64<<10); ; {
		m, err := f.Write(block)
		n += int64(m)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Truncate(n - 4096); err != nil {
		t.Fatal(err)
	}
	f.Close()

	_, err = a.Put(t.Context(), strings.Repeat("h", 512), nil)
	var se *storage.Error
	if !errors.As(err, &se) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Put on a full disk: %v, want a *storage.Error for ENOSPC", err)
	}
	if after, err := os.ReadFile(index); err != nil || !bytes.Equal(after, before) {
		t.Fatalf("the index changed on a failed Put: %d bytes, was %d (%v)", len(after), len(before), err)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	for _, c := range append(contents, strings.Repeat("h", 512)) {
		e := put(t, a, c, nil)
		if got := read(t, a, archive.ReadRequest{Ref: e.Ref}); !strings.Contains(got, c) {
			t.Fatalf("entry %.8s… does not read back after the full disk", c)
		}
	}
}
