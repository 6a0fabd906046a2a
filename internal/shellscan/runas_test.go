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

// TestPagerCommandsAreOpaque checks that what makes a pager or a viewer
// run a command is opaque: less and more's +cmd (+!cmd runs a shell
// command where there is a terminal), man (-P, MANPAGER), the editors,
// and a pager variable set on the line. Plain reading stays understood.
func TestPagerCommandsAreOpaque(t *testing.T) {
	for _, line := range []string{
		"less '+!rm x' f", "less +G f", "more '+!rm x' f", "less -R '+|mrm x' f", "cat f | less '+!x'",
		"man -P 'rm x' ls", "man ls", "view -c '!x'", "vim -c '!x' f", "vi f", "less -k keys f",
		"less --lesskey-src=k f", "LESSOPEN='|rm %s' less f", "PAGER='rm x' git log", "MANPAGER=x git help log",
		"env LESSOPEN='|x %s' less f", "export PAGER=x", "pager f", "sensible-pager f",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{"less f", "less -R f", "more f", "cat f | less", "less -N -S f"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
