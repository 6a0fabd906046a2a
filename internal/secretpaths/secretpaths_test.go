package secretpaths

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	got := system(filepath.Join(roots, "me"), []string{roots, filepath.Join(roots, "missing")}, "", "", -1)
	for _, want := range []string{"/etc/shadow", "/etc/sudoers.d", "/root/.ssh", filepath.Join(roots, "alice", ".ssh"),
		filepath.Join(roots, "alice", ".netrc")} {
		if !slices.Contains(got, want) {
			t.Errorf("system lacks %s: %q", want, got)
		}
	}
	if slices.Contains(got, filepath.Join(roots, "me", ".ssh")) {
		t.Errorf("system holds the user's own home: %q", got)
	}
	if slices.Contains(system(RootHome, nil, "", "", -1), "/root/.ssh") {
		t.Errorf("system holds /root's credentials when home is /root")
	}
}

// The runtime directories' registry logins (podman's and buildah's
// containers/auth.json) are secret: $XDG_RUNTIME_DIR's, the user's
// /run/user/<uid> whether it exists or not, and each other one found;
// a relative runtime directory has none.
func TestSystemRuntimeDirectories(t *testing.T) {
	run := t.TempDir()
	if err := os.Mkdir(filepath.Join(run, "1001"), 0o700); err != nil {
		t.Fatal(err)
	}
	xdg := t.TempDir()
	got := system(RootHome, nil, run, xdg, 1000)
	for _, want := range []string{filepath.Join(xdg, "containers", "auth.json"),
		filepath.Join(run, "1000", "containers", "auth.json"), filepath.Join(run, "1001", "containers", "auth.json")} {
		if !slices.Contains(got, want) {
			t.Errorf("system lacks %s: %q", want, got)
		}
	}
	if RuntimeCredentials("run/user/1") != nil || RuntimeCredentials("") != nil {
		t.Error("RuntimeCredentials of an empty or relative directory is not empty")
	}
	if !slices.Contains(System(RootHome), filepath.Join(RunUser, strconv.Itoa(os.Getuid()), "containers", "auth.json")) {
		t.Errorf("System lacks the user's /run/user/%d/containers/auth.json", os.Getuid())
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
		"/h/.docker", "/h/.config/gh", "/h/.netrc", "/h/.git-credentials", "/h/.config/containers/auth.json",
		"/h/Library/Keychains"} {
		if !slices.Contains(got, want) {
			t.Errorf("UserCredentials lacks %s: %q", want, got)
		}
	}
	if UserCredentials("") != nil || UserCredentials("h") != nil {
		t.Error("UserCredentials of an empty or relative home is not empty")
	}
}

// A variable that moves a credential location names it by its value
// (GNUPGHOME, each of KUBECONFIG's paths, a file beneath a secret
// directory), and one that moves a directory of settings names the
// credential locations beneath it (XDG_CONFIG_HOME, CARGO_HOME); relative
// and empty values, other variables and entries without '=' name none.
func TestEnvCredentials(t *testing.T) {
	got := EnvCredentials([]string{"GNUPGHOME=/srv/g/", "KUBECONFIG=/k/a:rel:/k/b", "AWS_CONFIG_FILE=/a/config",
		"XDG_CONFIG_HOME=/x", "CARGO_HOME=/c", "DOCKER_CONFIG=rel", "NETRC=", "TMPDIR=/tmp", "PGPASSFILE"})
	for _, want := range []string{"/srv/g", "/k/a", "/k/b", "/a/config", "/x/gh", "/x/gcloud", "/x/git/credentials",
		"/c/credentials", "/c/credentials.toml"} {
		if !slices.Contains(got, filepath.FromSlash(want)) {
			t.Errorf("EnvCredentials: no %s in %v", want, got)
		}
	}
	for _, not := range []string{"/x", "/c", "/c/config.toml", "/tmp", "rel", ""} {
		if slices.Contains(got, filepath.FromSlash(not)) {
			t.Errorf("EnvCredentials: %q in %v", not, got)
		}
	}
	for name, rel := range EnvLocations() {
		if len(EnvCredentials([]string{name + "=/v"})) == 0 {
			t.Errorf("%s (for %s) moves no credential location", name, rel)
		}
	}
}

// TestPrintedSettings checks that pip's, Terraform's, ngrok's and
// Sentry's settings files are printed settings of an absolute home, and
// not among the credentials the sandbox hides.
func TestPrintedSettings(t *testing.T) {
	got := PrintedSettings("/h/u/")
	want := []string{"/h/u/.config/pip/pip.conf", "/h/u/.pip/pip.conf", "/h/u/.terraformrc", "/h/u/.config/ngrok/ngrok.yml",
		"/h/u/.ngrok2/ngrok.yml", "/h/u/.sentryclirc"}
	if !slices.Equal(got, want) {
		t.Errorf("PrintedSettings = %q, want %q", got, want)
	}
	for _, p := range got {
		if slices.Contains(UserCredentials("/h/u"), p) {
			t.Errorf("%s is also among UserCredentials, which the sandbox hides", p)
		}
	}
	if PrintedSettings("h") != nil || PrintedSettings("") != nil {
		t.Error("a relative or empty home has printed settings")
	}
}

// TestEnvCredentialsPrintedSettings checks that PIP_CONFIG_FILE and
// XDG_CONFIG_HOME move pip.conf, a printed setting, with them.
func TestEnvCredentialsPrintedSettings(t *testing.T) {
	got := EnvCredentials([]string{"PIP_CONFIG_FILE=/p/pip.ini", "XDG_CONFIG_HOME=/x"})
	for _, want := range []string{"/p/pip.ini", "/x/pip/pip.conf"} {
		if !slices.Contains(got, want) {
			t.Errorf("EnvCredentials = %q, want %s among them", got, want)
		}
	}
}
