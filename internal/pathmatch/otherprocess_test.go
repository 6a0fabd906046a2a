package pathmatch

import "testing"

// A path through another process's working directory (round 89: echo x
// >> /proc/PID/cwd/.bashrc wrote the home an editor ran in) is told
// apart from the command's own (/proc/self, /proc/thread-self), with what
// follows the directory.
func TestOtherProcessCwd(t *testing.T) {
	for p, want := range map[string]string{
		"/proc/1/cwd":                     "/",
		"/proc/1234/cwd/.bashrc":          "/.bashrc",
		"/proc/1234/task/1234/cwd/a/../b": "/b",
		"../../proc/1/cwd/x":              "/x",
		"/proc/self/../1/cwd/x":           "/x",
		"//proc//77/cwd//.ssh/id_rsa":     "/.ssh/id_rsa",
	} {
		if got, ok := OtherProcessCwd(p); !ok || got != want {
			t.Errorf("OtherProcessCwd(%q) = %q, %v; want %q, true", p, got, ok, want)
		}
	}
	for _, p := range []string{"/proc/self/cwd/x", "/proc/thread-self/cwd", "/proc/self/task/12/cwd/x", "/proc/1/status",
		"/proc/1/root/etc/hosts", "/proc/cpuinfo", "proc/x/cwd", "/w/process/1/cwd", "/proc/1/fd/3"} {
		if got, ok := OtherProcessCwd(p); ok {
			t.Errorf("OtherProcessCwd(%q) = %q, true; want false", p, got)
		}
	}
	// ResolveFrom leaves it lexical, not the command's directory.
	if got := ResolveFrom("/proc/1234/cwd/.bashrc", "/w"); got != "/proc/1234/cwd/.bashrc" {
		t.Errorf("ResolveFrom = %q, want the path as it is", got)
	}
	if got := ResolveFrom("/proc/self/cwd/x", "/w"); got != "/w/x" {
		t.Errorf("ResolveFrom(/proc/self/cwd/x) = %q, want /w/x", got)
	}
}
