package shellscan

import (
	"strings"
	"testing"
)

// TestRunAsAnotherUserIsOpaque checks that whatever runs a command as
// another user is opaque, however it is reached: what root may do is not
// bounded by the workdir, and even sudo -l, -v and -n true may prompt for
// a password and refresh the user's cached credentials.
func TestRunAsAnotherUserIsOpaque(t *testing.T) {
	for _, line := range []string{
		"sudo ls", "sudo -n true", "sudo -l", "sudo -v", "sudo -k", "sudo", "sudo -u nobody ls",
		"sudo -e notes.txt", "doas ls", "doas -u bob ls", "pkexec ls", "run0 ls", "run0 -u bob true",
		"su -c ls", "su root -c 'git status'", "su -l bob -c ls", "runuser -u bob -- ls", "runuser -l bob -c ls",
		"ksu bob -e /bin/ls", "sudo-rs ls", "please ls", "gksudo ls", "kdesu -c ls",
		// Through wrappers and shells.
		"env sudo ls", "env -i sudo ls", "nice sudo ls", "nice -n 5 doas ls", "timeout 5 sudo ls",
		"command sudo ls", "command -- sudo ls", "exec sudo ls", "nohup sudo ls", "setsid run0 ls",
		"time sudo ls", "echo x | xargs sudo ls", "find . -exec sudo ls {} +", "bash -c 'sudo ls'",
		"sh -c 'su -c ls'", `out=$(sudo -n true); echo "$out"`, "ls && sudo -l", "/usr/bin/sudo ls",
		"SUDO ls", "Doas ls", "sudo.ws ls",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	// The command such a line runs is still seen, for deny rules.
	a := analyzeBash("sudo -u bob make clean", "/home/u", "/w")
	found := false
	for _, u := range a.units {
		if strings.HasPrefix(u.text, "make clean") {
			found = true
		}
	}
	if !found {
		t.Errorf("sudo -u bob make clean: the inner command is not a unit: %+v", a.units)
	}
}
