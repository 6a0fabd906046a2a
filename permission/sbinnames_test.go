package permission_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// Where /usr/sbin is a link to /usr/bin (Arch, Fedora 42 and later), the
// programs systems keep in sbin lie in a bin directory: they are judged by
// their names, however the line names them. A file of that name the
// workdir holds is the project's own program; other programs of the
// merged directory, and the forms that only show, are not caught.
func TestSbinNamesInAMergedLayout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "usr", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("bin", filepath.Join(dir, "usr", "sbin")); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"losetup", "fstrim", "update-locale", "apache2", "mkfs.ext4", "e2fsck", "rt52tool"} {
		if err := os.WriteFile(filepath.Join(bin, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	wd := t.TempDir()
	if err := os.WriteFile(filepath.Join(wd, "fstrim"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := "PATH=" + filepath.Join(dir, "usr", "sbin") + ":" + bin
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: t.TempDir(),
		BashEnv: func() []string { return []string{"HOME=/nowhere", path} }})
	for _, line := range []string{"losetup -f x.img", "fstrim -a", "update-locale LANG=C", "apache2 -k stop",
		"mkfs.ext4 x.img", "e2fsck -p x.img", filepath.Join(bin, "losetup") + " -D", "nice losetup -D",
		"bash -c 'fstrim -a'", "Losetup -D"} {
		if out := authorize(t, g, line); out.Run {
			t.Errorf("%q was allowed", line)
		} else if !strings.Contains(out.Verdict.Reason, "system administration program") {
			t.Errorf("%q: reason %q", line, out.Verdict.Reason)
		}
	}
	for _, line := range []string{"rt52tool x", "losetup --help", "./fstrim -a", "ls"} {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("%q was refused: %s", line, out.Verdict.Reason)
		}
	}
}
