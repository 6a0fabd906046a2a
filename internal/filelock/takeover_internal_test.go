package filelock

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// Where exchanges are not available, a waiter that moved aside a fresh
// lock made in place of the stale one it saw gives it back only if the
// place is still free: a plain rename would replace the empty lock
// directory a third process made there in the meantime (os.Rename refuses
// an existing directory only after its own lstat).
func TestMoveAsideGivesBackWithoutReplacing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs no-replace renames (Linux)")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl"+Suffix)
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	stale, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	// Another waiter took it over and locked.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	var third os.FileInfo
	hook := &stepHook{at: func(step string) {
		if step == "takeover:giveback" { // a third process locked meanwhile
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Error(err)
			}
			third, _ = os.Lstat(path)
		}
	}}
	if err := moveAside(path, asideName(path), stale, hook); err != nil {
		t.Fatal(err)
	}
	if third == nil {
		t.Fatal("the give-back step was never reached")
	}
	now, err := os.Lstat(path)
	if err != nil || !os.SameFile(now, third) {
		t.Errorf("the third process's lock directory was replaced: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}
