package retention_test

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/storage"
)

// The sweep takes an entry's lock relative to a handle on its directory
// (through /proc/self/fd/<n>, which is no path its user knows, in the
// portable build). When taking it fails (here: the home is mounted
// read-only, so mkdir fails), the error in the report names the lock by
// its real path, in the *storage.Error and in its cause.
func TestLockErrorNamesTheRealPath(t *testing.T) {
	tr := newTree(t)
	if err := syscall.Mount("tmpfs", tr.home, "tmpfs", 0, "size=1m,mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs (%v)", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(tr.home, syscall.MNT_DETACH) })
	log := tr.file(p1+"/sessions/old.jsonl", 10, 40*day)
	if err := syscall.Mount("", tr.home, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot remount read-only (%v)", err)
	}
	rep, err := retention.Sweep(t.Context(), retention.Options{Home: tr.home})
	if err != nil {
		t.Fatal(err)
	}
	tr.mustExist(p1 + "/sessions/old.jsonl")
	if len(rep.Skipped) != 1 || rep.Skipped[0].Reason != retention.SkipError || rep.Skipped[0].Err == nil {
		t.Fatalf("skipped %+v, want one error", rep.Skipped)
	}
	got := rep.Skipped[0].Err
	want := log + filelock.Suffix
	if msg := got.Error(); strings.Contains(msg, "/proc/self/fd") || !strings.Contains(msg, want) {
		t.Errorf("error %q; want it to name %s and no descriptor path", msg, want)
	}
	var se *storage.Error
	if !errors.As(got, &se) || se.File != want {
		t.Errorf("error %#v; want a *storage.Error whose File is %s", got, want)
	}
	if !errors.Is(got, syscall.EROFS) {
		t.Errorf("error %v; want its cause, EROFS, kept", got)
	}
	if filepath.Dir(want) != filepath.Dir(log) {
		t.Fatal("bad fixture")
	}
}
