package pathmatch

import "testing"

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
