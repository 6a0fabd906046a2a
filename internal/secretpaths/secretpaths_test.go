package secretpaths

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The other users' homes found under the home roots, and /root, hold
// secret credential locations; the user's own home is left to
// UserCredentials.
func TestSystemOtherHomes(t *testing.T) {
	roots := t.TempDir()
	for _, u := range []string{"alice", "me"} {
		if err := os.Mkdir(filepath.Join(roots, u), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	got := system(filepath.Join(roots, "me"), []string{roots, filepath.Join(roots, "missing")})
	for _, want := range []string{"/etc/shadow", "/etc/sudoers.d", "/root/.ssh", filepath.Join(roots, "alice", ".ssh"),
		filepath.Join(roots, "alice", ".netrc")} {
		if !slices.Contains(got, want) {
			t.Errorf("system lacks %s: %q", want, got)
		}
	}
	if slices.Contains(got, filepath.Join(roots, "me", ".ssh")) {
		t.Errorf("system holds the user's own home: %q", got)
	}
	if slices.Contains(system(RootHome, nil), "/root/.ssh") {
		t.Errorf("system holds /root's credentials when home is /root")
	}
}

// A process's environment and memory are secret, and so, for a read of a
// whole tree, the directories that hold them; /proc's other files are not.
func TestIsProcSecret(t *testing.T) {
	for p, want := range map[string][2]bool{
		"/proc/self/environ":        {true, true},
		"/proc/1/mem":               {true, true},
		"/proc/1/task/2/environ":    {true, true},
		"/proc/thread-self/environ": {true, true},
		"/proc":                     {false, true},
		"/proc/1":                   {false, true},
		"/proc/1/task":              {false, true},
		"/proc/1/task/2":            {false, true},
		"/proc/cpuinfo":             {false, false},
		"/proc/sys/kernel/hostname": {false, false},
		"/proc/1/status":            {false, false},
		"/proc/1/task/2/status":     {false, false},
		"/tmp/proc/1/environ":       {false, false},
		"proc/1/environ":            {false, false},
		"/proc/1/../1/environ":      {true, true},
	} {
		for i, anc := range []bool{false, true} {
			if got := IsProcSecret(p, anc); got != want[i] {
				t.Errorf("IsProcSecret(%q, %v) = %v, want %v", p, anc, got, want[i])
			}
		}
	}
}

// UserCredentials names the credential locations of an absolute home and
// none of an empty or relative one.
func TestUserCredentials(t *testing.T) {
	got := UserCredentials("/h/")
	for _, want := range []string{"/h/.ssh", "/h/.aws", "/h/.gnupg", "/h/.config/gcloud", "/h/.azure", "/h/.kube",
		"/h/.docker", "/h/.config/gh", "/h/.netrc", "/h/.git-credentials"} {
		if !slices.Contains(got, want) {
			t.Errorf("UserCredentials lacks %s: %q", want, got)
		}
	}
	if UserCredentials("") != nil || UserCredentials("h") != nil {
		t.Error("UserCredentials of an empty or relative home is not empty")
	}
}
