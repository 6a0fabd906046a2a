package pathmatch

import (
	"os"
	"path/filepath"
	"testing"
)

// TestThroughDescriptor checks which paths go through a file descriptor
// as a directory, lexically and through /dev/fd's link to /proc/self/fd.
func TestThroughDescriptor(t *testing.T) {
	for _, c := range []struct {
		p    string
		at   bool
		want bool
	}{
		{"/dev/fd/3/home/.ssh/id_ed25519", false, true},
		{"/dev/fd/0/../home/x", false, true},
		{"/dev/stdin/home/x", false, true},
		{"/proc/self/fd/0/x", false, true},
		{"/proc/thread-self/fd/7/x", false, true},
		{"/proc/123/task/123/fd/7/x", false, true},
		{"/proc/self/cwd/../../dev/fd/3/x", false, true},
		{"/dev/fd/3", false, false},
		{"/dev/fd/3", true, true},
		{"/dev/stdin", true, true},
		{"/dev/stdin", false, false},
		{"/dev/stdout", true, false},
		{"/dev/fd/1", true, false},
		{"/dev/null", true, false},
		{"/proc/self/status", true, false},
		{"/work/fd/3/x", false, false},
	} {
		if got := ThroughDescriptor(c.p, "/work", c.at); got != c.want {
			t.Errorf("ThroughDescriptor(%q, at=%v) = %v, want %v", c.p, c.at, got, c.want)
		}
	}
}

// TestThroughDescriptorFollowsLinks checks that a link leading to /dev/fd
// or to a process's directory is walked as the kernel walks it, also
// after a component that does not exist yet (a line may make it), where
// ResolveFrom takes the rest as written.
func TestThroughDescriptorFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	for name, to := range map[string]string{"d": "/dev/fd", "p": "/proc/self", "rel": "d"} {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		p    string
		want bool
	}{
		{filepath.Join(dir, "d", "3", "x"), true},
		{filepath.Join(dir, "rel", "3", "x"), true},
		{filepath.Join(dir, "p", "fd", "0", "x"), true},
		{dir + "/missing/../d/3/x", true},
		{filepath.Join(dir, "d", "3"), false},
		{filepath.Join(dir, "x", "3", "x"), false},
	} {
		if got := ThroughDescriptor(c.p, "/work", false); got != c.want {
			t.Errorf("ThroughDescriptor(%q) = %v, want %v", c.p, got, c.want)
		}
	}
	// ResolveFrom, on the same walk, stops at the missing component.
	p := dir + "/missing/../rel"
	if got, want := ResolveFrom(p, "/work"), filepath.Join(dir, "rel"); got != want {
		t.Errorf("ResolveFrom(%q) = %q, want %q", p, got, want)
	}
	if got, want := ResolveFrom(filepath.Join(dir, "rel", "3", "x"), "/work"), "/proc/self/fd/3/x"; got != want {
		t.Errorf("ResolveFrom(rel/3/x) = %q, want %q", got, want)
	}
}
