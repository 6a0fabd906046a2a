package shellscan

import (
	"strings"
)

// This file models, beside the programs runningTools names, two open
// families of programs that change the running system: the control
// programs of services and daemons, named after what they control
// (systemctl, apachectl, etcdctl, bluetoothctl, wpctl, mdadm, iscsiadm),
// which the analysis knows by the ending of their name; and, in the
// caller (see Analysis.Unmodelled), the programs that PATH finds in an
// sbin directory, where systems keep their administration programs.

// controlFamily reports whether name, a program the analysis does not
// otherwise model, is a control program: its name ends in ctl or adm
// after at least two other characters. kubectl, the container engines
// (nerdctl) and the programs of runningTools, homestate.go and macos.go
// are modelled by their own rules.
func controlFamily(name string) bool {
	stem, ok := strings.CutSuffix(name, "ctl")
	if !ok {
		stem, ok = strings.CutSuffix(name, "adm")
	}
	if !ok || len(strings.Trim(stem, "-_.")) < 2 {
		return false
	}
	_, modelled := runningTools.get()[name]
	return !modelled && !containerEngines.get()[name] && !guessable(name)
}

// controlVerbs are the commands a control program of controlFamily is
// taken to only show state with, as its first word, and the prefixes of
// such commands (systemd's list-units, is-active, get-default).
var controlVerbs = lazy[[2][]string]{build: func() [2][]string {
	return [2][]string{
		{"status", "show", "list", "ls", "info", "get", "help", "version", "logs", "--help", "--version", "-h", "-V"},
		{"list-", "show-", "get-", "is-"},
	}
}}

// controlShows reports whether a control program of controlFamily only
// shows state with args: its first word is a command of controlVerbs,
// and no other word is an option but a few that only choose how it
// prints. What any other option of a program the analysis does not know
// does (a host to act on, a file to write, a command to run) is unknown.
func controlShows(args []word) bool {
	if len(args) == 0 {
		return false // many read commands from their input (bluetoothctl)
	}
	verbs := controlVerbs.get()
	first := args[0].text
	if !contains(verbs[0], first) && !hasAnyPrefix(first, verbs[1]) {
		return false
	}
	for _, a := range args[1:] {
		if strings.HasPrefix(a.text, "-") && !contains([]string{"--no-pager", "--no-legend", "--json", "--help",
			"--version"}, a.text) {
			return false
		}
	}
	return true
}

// hasAnyPrefix reports whether s begins with one of prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// adminReaders are programs systems keep in an sbin directory (macOS's
// lsof, netstat, ping and iostat; Debian's getcap and runlevel) that
// only show state whatever their words: see adminShows.
var adminReaders = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"lsof", "netstat", "ping", "ping6", "traceroute", "traceroute6", "mtr", "iostat",
		"md5", "getcap", "getpcaps", "runlevel", "ioreg", "system_profiler", "kextstat", "findfs", "filefrag",
		"isosize", "validlocale", "zdump"} {
		m[n] = true
	}
	return m
}}

// adminForms are the forms that only show state of programs systems keep
// in an sbin directory that also change it: see adminShows.
var adminForms = lazy[map[string]runSpec]{build: func() map[string]runSpec {
	all := func(show ...string) runSpec { return runSpec{kind: runAll, show: show} }
	first := func(show ...string) runSpec { return runSpec{kind: runFirst, show: show} }
	return map[string]runSpec{
		"arp":            all("", "-a", "-n", "-an", "-na", "-v", "-e"),
		"pwck":           all("-r", "-q", "-rq", "-qr"),
		"grpck":          all("-r", "-q", "-rq", "-qr"),
		"visudo":         all("-c", "-q", "-s", "--check", "--quiet", "--strict"),
		"sshd":           all("-t", "-T"),
		"pmset":          first("-g"),
		"scutil":         first("--get", "--dns", "--proxy", "--nwi"),
		"diskutil":       first("list", "info", "activity"),
		"softwareupdate": all("-l", "--list", "--history"),
		"spctl":          all("--status"),
		"nvram":          all("-p", "-x", "-xp", "-px"),
	}
}}

// adminShows reports whether the command name args, of a program the
// analysis does not model, is known only to show state should PATH find
// it in an sbin directory (see Analysis.Unmodelled): --help and
// --version, a program of adminReaders, or a form of adminForms.
func adminShows(name string, args []word) bool {
	if onlyHelp(args) || adminReaders.get()[name] {
		return true
	}
	if name == "logsave" {
		// e2fsprogs' logsave FILE CMD (in /usr/sbin) only runs CMD,
		// which the analysis guesses among its words, and writes FILE,
		// a word the caller checks as any unmodelled command's.
		return true
	}
	spec, ok := adminForms.get()[name]
	return ok && spec.shows(args)
}

// unmodelled records the program p of a command the analysis does not
// model, which the caller looks up (see Analysis.Unmodelled), unless the
// command is known only to show state.
func (an *analyzer) unmodelled(p word, name string, args []word) {
	if an.guess || p.dynamic || p.pattern || adminShows(name, args) || contains(an.a.unmodelled, p.text) {
		return
	}
	if len(an.a.unmodelled) >= maxAccessPaths {
		an.opaque("the line runs too many programs the analysis does not model to look up")
		return
	}
	an.a.unmodelled = append(an.a.unmodelled, p.text)
}
