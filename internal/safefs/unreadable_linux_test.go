package safefs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// unreadableHelperEnv names the directory TestUnreadableParentHelper
// anchors in when TestAnchorUnderAParentItCannotRead runs it.
const unreadableHelperEnv = "SAFEFS_UNREADABLE_HELPER"

// TestUnreadableParentHelper is the child of
// TestAnchorUnderAParentItCannotRead, run as an unprivileged user; it does
// nothing in a normal run.
func TestUnreadableParentHelper(t *testing.T) {
	parent := os.Getenv(unreadableHelperEnv)
	if parent == "" {
		t.Skip("helper of TestAnchorUnderAParentItCannotRead")
	}
	d, err := safefs.Anchor(filepath.Join(parent, "home", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Append("s.context/index.jsonl", []byte("{}\n"), true); err != nil {
		t.Fatal(err)
	}
}

// TestAnchorUnderAParentItCannotRead: a store may be made in a directory
// its user can write and search but not read (mode 0300). Syncing the
// parent of a directory it creates is a help for durability that such a
// parent cannot be opened for; it must not make the store fail. The child
// runs as nobody (setpriv), as root reads every directory.
func TestAnchorUnderAParentItCannotRead(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the child as another user")
	}
	tooltest.Need(t, tooltest.CanaryTools, "setpriv")
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatal(err)
	}
	base, err := os.MkdirTemp("", "safefs-unreadable-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	parent := filepath.Join(base, "p")
	if err := os.Mkdir(parent, 0o700); err != nil {
		t.Fatal(err)
	}
	// nobody may search base and write and search parent, not read it.
	if err := os.Chmod(base, 0o711); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(parent, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(parent, 0o300); err != nil {
		t.Fatal(err)
	}
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin,
		"-test.run=^TestUnreadableParentHelper$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), unreadableHelperEnv+"="+parent)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, serr := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin, "-test.run=^$").CombinedOutput(); serr != nil {
			t.Skipf("cannot run the test binary as nobody: %v", serr)
		}
		t.Fatalf("the store failed under a parent it cannot read: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(parent, "home", "sessions", "s.context", "index.jsonl")); err != nil {
		t.Fatal(err)
	}
}
