package spill_test

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestPutOfAStoredBodyOnAReadOnlyStore: a Put whose body is already stored
// refreshes the file's times where it can; a read-only mount (or a file of
// another owner) refuses that, and the Put still succeeds: the body is
// there to read.
func TestPutOfAStoredBodyOnAReadOnlyStore(t *testing.T) {
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m,mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs (%v)", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(mnt, syscall.MNT_DETACH) })
	s, err := spill.NewFileStore(filepath.Join(mnt, "spill"), storage.Encoding{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := s.Put(t.Context(), "body")
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("", mnt, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot remount read-only (%v)", err)
	}
	if got, ok, err := s.Get(t.Context(), ref); err != nil || !ok || got != "body" {
		t.Fatalf("Get: %q %v %v", got, ok, err)
	}
	if again, err := s.Put(t.Context(), "body"); err != nil || again != ref {
		t.Errorf("Put of a stored body on a read-only store: %q, %v", again, err)
	}
}
