package safefs_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// dirsHelperEnv names the tree TestDirsHelper works in when the test
// binary is run by TestCreatedDirectoriesAreSyncedInTheirParents.
const dirsHelperEnv = "SAFEFS_DIRS_HELPER"

// TestDirsHelper is the traced child of
// TestCreatedDirectoriesAreSyncedInTheirParents; it does nothing in a
// normal run.
func TestDirsHelper(t *testing.T) {
	root := os.Getenv(dirsHelperEnv)
	if root == "" {
		t.Skip("helper of TestCreatedDirectoriesAreSyncedInTheirParents")
	}
	d, err := safefs.Anchor(filepath.Join(root, "home", "projects", "p", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("s.context/notes/n.md", []byte("note")); err != nil {
		t.Fatal(err)
	}
	if err := d.Append("t.context/index.jsonl", []byte("{}\n"), true); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFileExclusive("u.context/x", []byte("x")); err != nil {
		t.Fatal(err)
	}
}

// TestCreatedDirectoriesAreSyncedInTheirParents traces (strace) Anchor,
// WriteFile, Append and WriteFileExclusive creating directories on their
// way to a file, and checks that the parent of every directory created was
// fsynced after it: otherwise a power loss can take the new directory
// away, and with it the file whose own fsync (and its directory's) were
// reported done.
func TestCreatedDirectoriesAreSyncedInTheirParents(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		missing(t, "strace is not installed")
	}
	root := t.TempDir()
	trace := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command(strace, "-f", "-y", "-o", trace, "-e", "trace=mkdir,mkdirat,fsync,fdatasync",
		os.Args[0], "-test.run=^TestDirsHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), dirsHelperEnv+"="+root)
	if out, err := cmd.CombinedOutput(); err != nil {
		missing(t, fmt.Sprintf("strace cannot run the helper (%v): %s", err, out))
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// A call another thread interrupts is split over two lines ("<unfinished
	// ...>", then "<... resumed>"): a sync counts once started, a mkdir
	// unless it failed on the same line.
	// A directory is made by path (mkdir, mkdirat(AT_FDCWD, path)) or, as
	// a Dir makes one below its handle, relative to an open directory
	// (mkdirat(3</dir>, name)).
	mkdir := regexp.MustCompile(`mkdir(?:at)?\((?:AT_FDCWD[^,]*, |\d+<([^>]+)>, )?"([^"]+)"`)
	sync := regexp.MustCompile(`f(?:data)?sync\(\d+<([^>]+)>`)
	unsynced := map[string]bool{} // parents owed a sync
	created := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := mkdir.FindStringSubmatch(sc.Text()); m != nil && !strings.Contains(sc.Text(), "= -1") {
			unsynced[filepath.Dir(filepath.Join(m[1], m[2]))] = true
			created++
		} else if m := sync.FindStringSubmatch(sc.Text()); m != nil {
			delete(unsynced, m[1])
		}
	}
	if created < 8 {
		t.Fatalf("the trace shows %d directories created, want at least 8: is it complete?", created)
	}
	for p := range unsynced {
		t.Errorf("a directory was created in %s, which was not fsynced after", p)
	}
}

// missing skips the test for want of strace, naming the script that
// installs it, or fails it under CI, where nothing may skip for that.
func missing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s (CI is set: run scripts/install-strace.sh)", why)
	}
	t.Skipf("%s; install it with scripts/install-strace.sh", why)
}
