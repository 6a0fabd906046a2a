//go:build linux

package builtin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestADeleteThroughAFlippedParentLeavesTheDeniedFile (review65f): a
// child process swaps the directory "d" with a symbolic link to the
// denied "secrets/" in a tight loop while delete_file removes d/key and
// d/gone, behind a gate that denies secrets/, and the test puts d/key back
// through a handle on the real directory (never by name). secrets/key must
// survive every call, and some deletes must succeed.
func TestADeleteThroughAFlippedParentLeavesTheDeniedFile(t *testing.T) {
	ws := t.TempDir()
	for _, d := range []string{"secrets", "d"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(ws, "secrets", "key"), "SECRET=key")
	writeFile(t, filepath.Join(ws, "secrets", "gone"), "SECRET=gone")
	real, err := unix.Open(filepath.Join(ws, "d"), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(real)
	put := func() {
		fd, err := unix.Openat(real, "key", unix.O_WRONLY|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		unix.Write(fd, []byte("plain key"))
		unix.Close(fd)
	}
	put()
	symlink(t, "secrets", filepath.Join(ws, "dl"))
	_, tools := gatedFileTools(t, ws)
	del := byName(t, tools, "delete_file")
	startSwapper(t, filepath.Join(ws, "d"), filepath.Join(ws, "dl"))
	const rounds = 1000
	deleted := 0
	for range rounds {
		for _, p := range []string{"d/key", "d/gone"} {
			res := call(t, del, map[string]any{"path": p})
			if !res.IsError && strings.HasPrefix(res.Content, "Deleted") {
				deleted++
			}
		}
		var st unix.Stat_t
		if unix.Fstatat(real, "key", &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			put()
		}
	}
	failures := 0
	for _, name := range []string{"key", "gone"} {
		if got := readFile(t, filepath.Join(ws, "secrets", name)); !strings.HasPrefix(got, "SECRET=") {
			failures++
			t.Errorf("secrets/%s is now %q", name, got)
		}
	}
	if deleted == 0 {
		failures++
		t.Errorf("no delete succeeded in %d rounds: the test exercised nothing", rounds)
	}
	t.Logf("%d deletes succeeded, %d failures", deleted, failures)
}
