package shellscan

import (
	"slices"
	"strings"
)

// runningMore reports whether the command name args, of the programs of
// runningTools judged by rules of their own that runningCustom does not
// hold, only shows state.
func runningMore(name string, args []word) bool {
	switch name {
	case "hostname":
		// hostname NAME, -F FILE and -b set the host's name; the other
		// options show it.
		for _, a := range args {
			t := a.text
			switch {
			case contains([]string{"--fqdn", "--long", "--short", "--domain", "--ip-address", "--all-ip-addresses",
				"--all-fqdns", "--alias", "--nis", "--yp", "--version", "--help"}, t):
			case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && len(t) > 1 && strings.Trim(t[1:], "aAdfiIsyVh") == "":
			default:
				return false
			}
		}
		return true
	case "mysqladmin":
		// mysqladmin runs every command it is given (status shutdown);
		// an option's value as a word of its own is taken for one.
		for _, a := range args {
			if !contains([]string{"status", "ping", "version", "variables", "processlist", "extended-status",
				"--version", "--help", "-V", "-s", "--silent", "-v", "--verbose"}, a.text) {
				return false
			}
		}
		return len(args) > 0
	case "rc-service":
		// rc-service NAME status, and -l, -e NAME, -r NAME, which list,
		// test or resolve; any other command starts or stops NAME.
		switch {
		case len(args) == 2 && args[1].text == "status":
			return true
		case len(args) >= 1 && len(args) <= 2 && contains([]string{"-l", "--list", "-e", "--exists", "-r", "--resolve"}, args[0].text):
			return true
		}
		return false
	case "tc", "bridge":
		// As ip: OBJECT [show|list|…], -b and -batch run a file's commands.
		return ipShows(args)
	case "ethtool":
		// ethtool DEV and its options that show (-i, -S, -k …); -s, -K,
		// -G and the others set, -p blinks, -r restarts, -f flashes.
		ops := 0
		for _, a := range args {
			t := a.text
			switch {
			case contains([]string{"-i", "-S", "-k", "-g", "-a", "-c", "-l", "-m", "-T", "-d", "-P", "-x", "-n",
				"-u", "--driver", "--statistics", "--show-features", "--show-offload", "--show-ring", "--show-pause",
				"--show-coalesce", "--show-channels", "--module-info", "--show-time-stamping", "--show-permaddr",
				"--show-priv-flags", "--show-eee", "--show-fec", "--version", "-h", "--help", "--json"}, t):
			case strings.HasPrefix(t, "-"):
				return false
			default:
				ops++
			}
		}
		return ops <= 1
	case "xfconf-query":
		// -s, -r, -n, -T and -R set, reset, create or toggle a property.
		for _, a := range args {
			t := a.text
			if contains([]string{"--set", "--reset", "--create", "--toggle", "--recursive"}, t) ||
				strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t, "srnTR") {
				return false
			}
		}
		return true
	case "nft":
		// nft joins its words into one text and runs every command of
		// it: list ruleset \; flush ruleset flushes. A later option may
		// be taken too (-f FILE, -i), as getopt permutes.
		if len(args) == 1 && contains([]string{"-v", "--version", "-h", "--help"}, args[0].text) {
			return true
		}
		if len(args) == 0 || !contains([]string{"list", "describe", "monitor"}, args[0].text) {
			return false
		}
		for _, a := range args[1:] {
			if strings.ContainsAny(a.text, ";\n") || strings.HasPrefix(a.text, "-") {
				return false
			}
		}
		return true
	case "zpool":
		// zpool events -c clears the event log.
		if len(args) > 0 && args[0].text == "events" {
			for _, a := range args[1:] {
				if a.text == "--" {
					break
				}
				if strings.HasPrefix(a.text, "-") && strings.ContainsRune(a.text, 'c') {
					return false
				}
			}
		}
		return len(args) == 0 || contains([]string{"list", "status", "iostat", "get", "history", "events", "version",
			"help"}, args[0].text)
	case "rc-update":
		// rc-update [-v] [show …] shows; add, del and -u (--update),
		// wherever getopt finds it, change the runlevels or the
		// dependency cache.
		var ops []string
		for _, a := range args {
			switch {
			case a.text == "-v" || a.text == "--verbose":
			case strings.HasPrefix(a.text, "-"):
				return false
			default:
				ops = append(ops, a.text)
			}
		}
		return len(ops) == 0 || ops[0] == "show"
	case "kitty", "kitten":
		// kitty @ CMD (kitty +kitten @, kitten @) drives the user's
		// kitty windows: send-text types into them, launch runs a
		// program. Only ls, get-text and get-colors, right after @, read.
		for i, a := range args {
			if a.text == "@" || strings.HasPrefix(a.text, "@") {
				return a.text == "@" && i+1 < len(args) && contains([]string{"ls", "get-text", "get-colors"}, args[i+1].text)
			}
		}
		return true
	case "wezterm":
		// wezterm cli CMD drives its panes: send-text types, spawn runs.
		if len(args) > 0 && args[0].text == "cli" {
			return len(args) > 1 && contains([]string{"list", "list-clients", "get-text", "get-pane-direction"}, args[1].text)
		}
		return true
	case "systemd-resolve":
		// The options that set DNS of a link, revert it, flush the
		// caches or reset the statistics; getopt takes a prefix.
		for _, a := range args {
			opt, _, _ := strings.Cut(a.text, "=")
			if len(opt) < 4 || !strings.HasPrefix(opt, "--") {
				continue
			}
			for _, w := range []string{"--set-dns", "--set-domain", "--set-llmnr", "--set-mdns", "--set-dnsovertls",
				"--set-dnssec", "--set-nta", "--revert", "--flush-caches", "--reset-statistics",
				"--reset-server-features"} {
				if strings.HasPrefix(w, opt) {
					return false
				}
			}
		}
		return true
	case "nvidia-smi":
		// Queries (-q, -L, --query-gpu=… --format=csv) read; every other
		// option (-pm, -r, -pl, -c, -ac, -f, which logs to a file) sets
		// or writes.
		for i := 0; i < len(args); i++ {
			t := args[i].text
			switch {
			case contains([]string{"-q", "--query", "-L", "--list-gpus", "-x", "--xml-format", "-h", "--help",
				"--version", "-u", "--unit"}, t):
			case contains([]string{"-i", "--id", "-d", "--display", "-l", "--loop", "-lms", "--loop-ms"}, t):
				i++
			case strings.HasPrefix(t, "--query-") || strings.HasPrefix(t, "--format=") || strings.HasPrefix(t, "--id=") ||
				strings.HasPrefix(t, "--display=") || strings.HasPrefix(t, "--loop="):
			default:
				return false
			}
		}
		return true
	case "pg_ctl", "pg_ctlcluster":
		// The operation is the one operand (pg_ctl) or the last
		// (pg_ctlcluster VERSION CLUSTER ACTION), after the values of
		// options: status as the value of -D, -l or -o (pg_ctl -D status
		// stop) is no operation, and stop signals the process the data
		// directory's postmaster.pid names.
		if name == "pg_ctl" && len(args) == 1 && contains([]string{"-V", "--version", "-?"}, args[0].text) {
			return true
		}
		values := []string{"-D", "--pgdata", "-e", "-l", "--log", "-m", "--mode", "-N", "-o", "--options", "-p",
			"-P", "-S", "-t", "--timeout", "-U"}
		var ops []string
		for i := 0; i < len(args); i++ {
			t := args[i].text
			switch {
			case contains(values, t):
				i++
			case strings.HasPrefix(t, "-"):
			default:
				ops = append(ops, t)
			}
		}
		if name == "pg_ctl" {
			return len(ops) == 1 && ops[0] == "status"
		}
		return (len(ops) == 2 || len(ops) == 3) && ops[len(ops)-1] == "status"
	case "hyprctl":
		// hyprctl takes its options anywhere, and --batch there replaces
		// what came before it: hyprctl monitors --batch 'dispatch exit'
		// runs dispatch exit.
		if slices.ContainsFunc(args, func(a word) bool { return a.text == "--batch" }) {
			return false
		}
		return len(args) > 0 && contains([]string{"monitors", "workspaces", "activeworkspace", "clients",
			"activewindow", "devices", "version", "layers", "binds", "getoption", "cursorpos", "splash",
			"systeminfo", "instances", "layouts", "animations", "globalshortcuts"}, args[0].text)
	case "udevadm":
		// info, monitor and settle read or wait; info -c (--cleanup-db)
		// empties the udev database.
		if len(args) == 0 || !contains([]string{"info", "monitor", "settle"}, args[0].text) {
			return false
		}
		for _, a := range args[1:] {
			if a.text == "--cleanup-db" || strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "--") &&
				strings.ContainsRune(a.text, 'c') {
				return false
			}
		}
		return true
	case "modprobe":
		// An option that only shows (the configuration, dependencies, an
		// alias resolved) or a dry run. -D and -R choose what loading
		// prints, not whether -r (--remove) removes, so with a removal
		// only a dry run or a dump of the configuration counts.
		dump := []string{"-c", "--showconfig", "--show-config", "-n", "--dry-run", "--show", "--show-modversions",
			"--dump-modversions", "--show-exports", "-V", "--version", "-h", "--help"}
		shows, remove := false, false
		for _, a := range args {
			t := a.text
			switch {
			case contains(dump, t):
				return true
			case t == "-D" || t == "--show-depends" || t == "-R" || t == "--resolve-alias":
				shows = true
			case strings.HasPrefix(t, "--rem") || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsRune(t, 'r'):
				remove = true
			}
		}
		return shows && !remove
	case "passwd":
		// passwd -S [-a] [USER] shows the status of a password; -d, -l,
		// -e and the others change it even beside -S (the last action
		// given wins), and -R and -P name where the files lie.
		status, ops := false, 0
		for _, a := range args {
			t := a.text
			switch {
			case t == "--status":
				status = true
			case t == "--all":
			case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && len(t) > 1 && strings.Trim(t[1:], "Sa") == "":
				status = status || strings.ContainsRune(t, 'S')
			case strings.HasPrefix(t, "-"):
				return false
			default:
				ops++
			}
		}
		return status && ops <= 1
	case "coredumpctl":
		// list and info show the dumps; debug (gdb) runs a debugger on
		// one, dump writes it, -o (--output) names a file to write.
		v, ok := systemdVerb(args)
		if !ok || !contains([]string{"", "list", "info", "help"}, v) {
			return false
		}
		return !slices.ContainsFunc(args, func(a word) bool {
			return strings.HasPrefix(a.text, "-o") || strings.HasPrefix(a.text, "--ou")
		})
	case "ss":
		// -K (--kill) closes every socket the filter lists; -D (--diag)
		// writes a raw dump to the file it names.
		for _, a := range args {
			t := a.text
			if t == "--" {
				break
			}
			if t == "--kill" || strings.HasPrefix(t, "--diag") ||
				strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t, "KD") {
				return false
			}
		}
		return true
	case "swaymsg", "i3-msg":
		// -t get_… asks; any command (exec, exit, kill) is run.
		get := false
		for i := 0; i < len(args); i++ {
			t := args[i].text
			switch {
			case t == "-t" || t == "--type":
				if i+1 >= len(args) || !strings.HasPrefix(args[i+1].text, "get_") && args[i+1].text != "subscribe" {
					return false
				}
				get = true
				i++
			case strings.HasPrefix(t, "-t") && !strings.HasPrefix(t, "--") || strings.HasPrefix(t, "--type="):
				v := strings.TrimPrefix(strings.TrimPrefix(t, "--type="), "-t")
				if !strings.HasPrefix(v, "get_") {
					return false
				}
				get = true
			case contains([]string{"-r", "--raw", "-p", "--pretty", "-q", "--quiet", "-m", "--monitor", "-v",
				"--version", "-h", "--help"}, t):
			default:
				return false
			}
		}
		return get
	}
	return false
}
