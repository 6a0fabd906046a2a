package rewind_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/rewind"
)

// TestRestoreLeavesAFileAlreadyAtTheCheckpointAlone: the preflight
// accepts a file changed twice since the checkpoint that already holds
// the checkpoint's content (what a restore killed part-way put back), and
// the restore leaves it as it is: writing it again by an atomic replace
// would make a new inode owned by the agent's user, so another user's
// file (here nobody's) would change owner and a hard link would break,
// though no byte changes.
func TestRestoreLeavesAFileAlreadyAtTheCheckpointAlone(t *testing.T) {
	w := newWorld(t, nil)
	w.write("a.txt", "A\n")
	cp := w.prompt("change a")
	w.change("a.txt", []byte("B\n"))
	w.change("a.txt", []byte("C\n"))
	// Outside the agent: a.txt becomes another user's file (a hard link
	// of it) that happens to hold the checkpoint's content.
	theirs := filepath.Join(t.TempDir(), "theirs.txt")
	if err := os.WriteFile(theirs, []byte("A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = os.Chown(theirs, 65534, 65534)
	p := filepath.Join(w.dir, "a.txt")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(theirs, p); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Lstat(p)
	if _, err := w.restore(cp, rewind.Options{FilesOnly: true}); err != nil {
		t.Fatalf("restore: %v", err)
	}
	after, _ := os.Lstat(p)
	if !os.SameFile(before, after) {
		t.Errorf("a file already at the checkpoint's content was replaced: links %d -> %d",
			before.Sys().(*syscall.Stat_t).Nlink, after.Sys().(*syscall.Stat_t).Nlink)
	}
}
