package shellscan

import (
	"strings"
)

// gpgHomeFree are the gpg commands that do not open gpg's home directory:
// any other command (even --list-keys, --print-md or -c) creates
// ~/.gnupg (or $GNUPGHOME) with its keyring, and one that needs a key or a
// passphrase writes random_seed and starts gpg-agent, which keeps
// running. gpg refuses a line with two commands ("conflicting
// commands"), and these win over any other.
var gpgHomeFree = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"--version": true, "--help": true, "-h": true, "--warranty": true, "--dump-options": true,
		"--dump-option": true, "--dearmor": true, "--dearmour": true, "--enarmor": true, "--enarmour": true,
	}
}}

// gpgHome returns why gpg args (with no --homedir) writes gpg's home
// directory, or "".
func gpgHome(args []word) string {
	for _, a := range args {
		if a.text == "--" {
			break
		}
		if gpgHomeFree.get()[a.text] {
			return ""
		}
	}
	return "gpg creates and writes its home directory (~/.gnupg or GNUPGHOME: keyrings, trust database, random seed) and starts gpg-agent there, unless --homedir names one in the workdir"
}

// gpgRunners are gpg's options that run the program they name (the
// photo viewer through a shell, the agent, dirmngr and keyboxd it starts)
// or whose value lists one (show-photos runs the photo viewer, xdg-open
// by default).
var gpgRunners = []string{"--photo-viewer", "--exec-path", "--agent-program", "--dirmngr-program",
	"--keyboxd-program", "--pinentry-program"}

// gpgRuns returns why gpg args, with a --homedir the caller checks lies in
// the workdir, runs a program the line does not show, or "".
func gpgRuns(args []word) string {
	for _, a := range args {
		if a.text == "--" {
			break
		}
		opt, _, _ := strings.Cut(a.text, "=")
		if len(opt) > 3 && strings.HasPrefix(opt, "--") {
			for _, r := range gpgRunners {
				if strings.HasPrefix(r, opt) {
					return "gpg " + clipName(opt) + " runs the program it names"
				}
			}
		}
		if strings.Contains(a.text, "show-photos") || strings.Contains(a.text, "show-photo") {
			return "gpg's show-photos runs the photo viewer, a program the user's settings choose"
		}
	}
	return ""
}

// gpgTool returns why name args, another program of GnuPG, writes gpg's
// home directory, starts or signals its daemons, or writes the files its
// input names, or "" for the forms that only show.
func gpgTool(name string, args []word) string {
	switch name {
	case "gpgsm":
		if onlyVersion(args) || hasAny(args, "--dump-options", "--warranty") {
			return ""
		}
		return "gpgsm creates and writes gpg's home directory (~/.gnupg or GNUPGHOME) and starts gpg-agent there"
	case "gpgconf":
		if len(args) > 0 && (onlyVersion(args) || contains([]string{"--list-dirs", "--list-components",
			"--check-programs", "--dump-options"}, args[0].text)) && !hasPrefix(args, "--homedir") {
			return ""
		}
		return "gpgconf starts, stops or reconfigures gpg's daemons and settings in its home directory"
	case "dirmngr", "keyboxd", "scdaemon", "gpg-card", "gpg-wks-client", "gpg-wks-server", "gpgsplit",
		"dirmngr-client", "gpg-preset-passphrase", "gpg-pair-tool":
		if onlyVersion(args) {
			return ""
		}
		return name + " starts or talks to gpg's daemons, writes gpg's home directory or the files its input names"
	}
	return ""
}
