package shellscan

import (
	"path"
	"slices"
	"strings"
)

// This file models the programs whose work is to change the running
// system rather than files: they signal or reprioritize processes the
// line did not start (the user's editor, lite-agent itself, with kill -1
// every process the user owns), stop services and edit schedules, change
// kernel, clock, network and session settings, and type into, or put
// text on the clipboard of, the user's desktop. None names a path the
// analysis could check, so a line that runs one of them so is opaque, as
// one that writes outside the workdir is; their forms that only show
// state stay understood.

// runKind says how runningTools judges a program's words.
type runKind int

const (
	// runAlways: opaque with any words but --help and --version.
	runAlways runKind = iota
	// runFirst: only shows state when its first word is one of show
	// ("" for no word at all).
	runFirst
	// runAll: only shows state when every word is one of show ("" for
	// no word at all).
	runAll
	// runAny: only shows state when one of its words is one of show
	// (an action that only shows, which the program then does alone).
	runAny
	// runVerb: a systemd tool, whose first operand, after options known
	// to choose nothing, must be one of show ("" for none); an option it
	// does not know (-H, which runs ssh) makes it opaque.
	runVerb
	// runCustom: judged by its own function below.
	runCustom
)

// runSpec is how runningTools judges one program, and what it changes.
type runSpec struct {
	kind runKind
	show []string
	what string
}

// The things runningTools change, as their reasons say them.
const (
	runProcs   = "signals or changes processes the line did not start (the user's editor, lite-agent itself; kill -1 every process the user owns); to stop a command an earlier call started, start it with run_in_background and stop it with the KillBackground tool, or kill $! in the line that starts it"
	runService = "stops, starts or schedules services and jobs outside the workdir"
	runSystem  = "changes kernel, clock, network or system settings outside the workdir"
	runDesktop = "types into the user's desktop session, or changes its clipboard, settings or terminals"
	runControl = "is a command of a service's control program (its name ends in ctl or adm) that is not known only to show state (status, show, list, get, info, logs)"
)

// runningTools are the programs this file models.
var runningTools = lazy[map[string]runSpec]{build: func() map[string]runSpec {
	always := func(what string) runSpec { return runSpec{kind: runAlways, what: what} }
	custom := func(what string) runSpec { return runSpec{kind: runCustom, what: what} }
	first := func(what string, show ...string) runSpec { return runSpec{kind: runFirst, show: show, what: what} }
	all := func(what string, show ...string) runSpec { return runSpec{kind: runAll, show: show, what: what} }
	anyOf := func(what string, show ...string) runSpec { return runSpec{kind: runAny, show: show, what: what} }
	verb := func(what string, show ...string) runSpec { return runSpec{kind: runVerb, show: show, what: what} }
	alts := anyOf(runSystem, "--display", "--query", "--list", "--get-selections", "--help", "--version")
	ipt := custom(runSystem)
	// apachectl passes what is not one of its own commands to httpd,
	// which takes -k stop beside -t: every word must only show.
	apache := all(runService, "configtest", "-t", "-v", "-V", "-S", "-M", "-l", "-L", "-h")
	m := map[string]runSpec{
		// Processes. kill of a job the line started (%1, $!) is
		// understood; see killOperands.
		"kill": custom(runProcs), "pkill": always(runProcs), "killall": always(runProcs),
		"killall5": always(runProcs), "skill": always(runProcs), "snice": always(runProcs),
		"xkill": always(runProcs), "renice": always(runProcs), "fuser": custom(runProcs),
		// fkill (npm's fkill-cli) kills by name, kill-port and killport
		// whatever listens on a port, as pkill and fuser -k do.
		"fkill": always(runProcs), "kill-port": always(runProcs), "killport": always(runProcs),
		// Services and schedules (systemctl and crontab only show state
		// so; at, batch, service, tmux and screen are opaque anyway).
		"systemctl": verb(runService, "", "status", "show", "cat", "list-units", "list-unit-files", "list-timers",
			"list-sockets", "list-dependencies", "list-jobs", "list-automounts", "list-paths", "list-machines",
			"is-active", "is-enabled", "is-failed", "is-system-running", "get-default", "show-environment"),
		"loginctl": verb(runService, "", "list-sessions", "session-status", "show-session", "list-users",
			"user-status", "show-user", "list-seats", "seat-status", "show-seat", "help"),
		"crontab":    custom(runService),
		"atrm":       always(runService),
		"journalctl": custom(runService),
		// Kernel, clock, network and system settings.
		"sysctl": custom(runSystem), "date": custom(runSystem),
		"hostnamectl": verb(runSystem, "", "status", "help"),
		"timedatectl": verb(runSystem, "", "status", "show", "list-timezones", "timesync-status", "show-timesync", "help"),
		"localectl": verb(runSystem, "", "status", "list-locales", "list-keymaps", "list-x11-keymap-models",
			"list-x11-keymap-layouts", "list-x11-keymap-variants", "list-x11-keymap-options", "help"),
		"hwclock": all(runSystem, "", "-r", "--show", "--get", "-V", "--version", "-h", "--help", "--verbose", "-v",
			"-u", "--utc", "--localtime", "-l", "--debug", "-D", "--test"),
		"update-alternatives": alts, "alternatives": alts,
		"ldconfig": anyOf(runSystem, "-p", "--print-cache", "-V", "--version", "-?", "--help", "--usage"),
		"modprobe": custom(runSystem),
		"depmod":   anyOf(runSystem, "-n", "--dry-run", "--show", "-V", "--version", "-h", "--help"),
		"insmod":   always(runSystem), "rmmod": always(runSystem), "kexec": always(runSystem),
		"swapon": all(runSystem, "", "--show", "-s", "--summary", "--noheadings", "--bytes", "--raw", "-h", "--help",
			"-V", "--version"),
		"swapoff": always(runSystem),
		"mount":   all(runSystem, "", "-l", "--show-labels", "-V", "--version", "-h", "--help"),
		"umount":  always(runSystem), "fusermount": always(runSystem), "fusermount3": always(runSystem),
		"rfkill": first(runSystem, "", "list", "event", "help"), "nmcli": custom(runSystem),
		"ip": custom(runSystem), "ifconfig": custom(runSystem), "route": custom(runSystem),
		"iptables": ipt, "ip6tables": ipt, "iptables-legacy": ipt, "ip6tables-legacy": ipt, "iptables-nft": ipt,
		"ip6tables-nft": ipt, "ebtables": ipt, "arptables": ipt,
		"iptables-restore": always(runSystem), "ip6tables-restore": always(runSystem),
		"nft":      custom(runSystem),
		"ufw":      first(runSystem, "status", "show", "version", "--version", "help", "--help"),
		"dmesg":    custom(runSystem),
		"log":      first(runSystem, "show", "stream", "stats", "help"),
		"shutdown": always(runSystem), "reboot": always(runSystem), "poweroff": always(runSystem),
		"halt": always(runSystem), "init": always(runSystem), "telinit": always(runSystem),
		"xcodebuild": custom(runSystem),
		// The desktop session.
		"setxkbmap":    anyOf(runDesktop, "-query", "-print", "-help", "-version", "-h", "-?"),
		"xmodmap":      all(runDesktop, "", "-pm", "-pk", "-pke", "-pp", "-help", "-grammar", "-version", "-verbose", "-quiet"),
		"xset":         all(runDesktop, "q", "-q", "-version"),
		"xrandr":       all(runDesktop, "", "-q", "--query", "--current", "--listmonitors", "--listactivemonitors", "--listproviders", "--verbose", "--version", "-v", "--help", "-h", "--prop", "--properties"),
		"xinput":       first(runDesktop, "", "list", "--list", "query-state", "--query-state", "list-props", "--list-props", "watch-props", "--watch-props", "test", "--test", "test-xi2", "--test-xi2", "get-feedbacks", "--get-feedbacks", "get-button-map", "--get-button-map", "version", "--version", "--help"),
		"gsettings":    first(runDesktop, "get", "list-schemas", "list-relocatable-schemas", "list-keys", "list-children", "list-recursively", "range", "describe", "writable", "monitor", "help", "--version", "--help"),
		"dconf":        first(runDesktop, "read", "list", "dump", "watch", "help", "--version", "--help"),
		"xdg-settings": first(runDesktop, "get", "check", "--list", "--help", "--version", "--manual"),
		"xdg-mime":     first(runDesktop, "query", "--help", "--version", "--manual"),
		"xdotool":      all(runDesktop, "version", "help", "--version", "--help", "-v", "-h"),
		"ydotool":      always(runDesktop), "wtype": always(runDesktop), "dotool": always(runDesktop),
		"xte": always(runDesktop), "cliclick": always(runDesktop),
		"pactl": first(runDesktop, "list", "info", "stat", "get-default-sink", "get-default-source",
			"get-sink-volume", "get-sink-mute", "get-source-volume", "get-source-mute", "subscribe", "help"),
		"amixer": custom(runDesktop),
		"brightnessctl": all(runDesktop, "", "info", "i", "get", "g", "max", "m", "-l", "--list", "-m",
			"--machine-readable"),
		"wmctrl":               custom(runDesktop),
		"xclip":                custom(runDesktop),
		"xsel":                 custom(runDesktop),
		"pbcopy":               always(runDesktop),
		"wl-copy":              always(runDesktop),
		"clip.exe":             always(runDesktop),
		"termux-clipboard-set": always(runDesktop),
		"wl-paste":             custom(runDesktop),
		"wall":                 always(runDesktop),
		"write":                always(runDesktop),
		"xdg-screensaver":      first(runDesktop, "status", "--help", "--version", "--manual"),
		"gnome-session-quit":   always(runDesktop), "xfce4-session-logout": always(runDesktop),
		"dm-tool": always(runDesktop), "xscreensaver-command": all(runDesktop, "-version", "-time", "-help"),
		"qdbus": first(runDesktop, ""), "qdbus6": first(runDesktop, ""), "qdbus-qt5": first(runDesktop, ""),
	}
	// Users and the console: passwords, login shells, accounts, the
	// hostname, virtual terminals and their keymaps and fonts.
	for _, n := range []string{"chfn", "usermod", "useradd", "userdel", "adduser", "deluser", "addgroup", "delgroup",
		"groupadd", "groupdel", "groupmod", "gpasswd", "chpasswd", "newusers", "vipw", "vigr", "chvt", "loadkeys",
		"setfont", "eject", "rtcwake", "pm-suspend", "pm-hibernate", "pm-suspend-hybrid", "needrestart", "wg-quick",
		"byobu", "awesome-client", "qtile", "kwriteconfig5", "kwriteconfig6", "xdg-desktop-menu", "xdg-desktop-icon",
		"xdg-icon-resource", "xdg-user-dirs-update", "plasma-apply-colorscheme", "plasma-apply-wallpaperimage",
		"plasma-apply-lookandfeel", "lookandfeeltool", "kscreen-doctor", "ddcutil", "light", "ntpdate",
		"lvcreate", "lvremove", "lvextend", "lvreduce", "lvresize", "lvchange", "lvrename", "vgcreate", "vgremove",
		"vgextend", "vgreduce", "vgchange", "vgrename", "pvcreate", "pvremove", "pvmove", "pvchange", "pvresize",
		// Control groups (cgget, lscgroup and lssubsys only show), file
		// capabilities, which give a program privileges wherever it lies.
		"cgcreate", "cgdelete", "cgset", "cgclassify", "cgconfigparser", "cgrulesengd", "setcap"} {
		m[n] = always(runSystem)
	}
	for n, s := range map[string]runSpec{
		"passwd":     custom(runSystem),
		"chsh":       anyOf(runSystem, "-l", "--list-shells"),
		"hostname":   custom(runSystem),
		"domainname": first(runSystem, ""), "nisdomainname": first(runSystem, ""), "ypdomainname": first(runSystem, ""),
		"tailscale": first(runSystem, "", "status", "ip", "version", "netcheck", "whois", "ping", "bugreport",
			"--version", "--help"),
		"wg":               first(runSystem, "", "show", "showconf", "genkey", "genpsk", "pubkey", "--version", "--help"),
		"zellij":           first(runDesktop, "list-sessions", "ls", "list-aliases", "--version", "-V", "--help", "-h"),
		"xfconf-query":     custom(runDesktop),
		"gnome-extensions": first(runDesktop, "list", "info", "show", "version", "help", "--version", "--help"),
		"xbacklight":       all(runDesktop, "-get", "-getf", "-version", "-help"),
		"chronyc": first(runSystem, "tracking", "sources", "sourcestats", "activity", "ntpdata", "serverstats",
			"rtcdata", "smoothing", "help"),
		"resolvectl": first(runSystem, "", "status", "query", "service", "openpgp", "tlsa", "statistics", "monitor",
			"show-cache", "show-server-state", "help"),
		"networkctl": first(runSystem, "", "list", "status", "lldp", "label", "help"),
		"zfs": first(runSystem, "", "list", "get", "holds", "userspace", "groupspace", "projectspace", "diff",
			"version", "help"),
		"zpool":      custom(runSystem),
		"cryptsetup": first(runSystem, "status", "isLuks", "luksDump", "benchmark", "--version", "--help"),
		"udisksctl":  first(runSystem, "status", "info", "dump", "monitor", "help", "--version"),
		"tc":         custom(runSystem), "bridge": custom(runSystem),
		"ethtool": custom(runSystem),
		"iw":      all(runSystem, "list", "dev", "phy", "--version", "help"),
		"fwupdmgr": first(runSystem, "get-devices", "get-updates", "get-upgrades", "get-history", "get-remotes",
			"get-releases", "security", "--version", "--help"),
		"apt-mark": first(runSystem, "showhold", "showauto", "showmanual", "showinstall", "showremove", "showpurge",
			"--version", "--help"),
		"swaymsg": custom(runDesktop), "i3-msg": custom(runDesktop),
		"hyprctl": custom(runDesktop),
		"bspc":    first(runDesktop, "query", "subscribe"),
		// Terminals driven from outside (kitty @ send-text types into
		// another window); kitty and wezterm that only start a terminal
		// are left to the words they run.
		"kitty": custom(runDesktop), "kitten": custom(runDesktop), "wezterm": custom(runDesktop),
		// More of systemd and of the machine's settings: DNS, the boot
		// loader, home areas, devices, power profiles, CPU frequency,
		// the GPU (nvidia-smi -r resets it under the user's programs),
		// mounts, system extensions and the console.
		"systemd-resolve": custom(runSystem),
		"bootctl":         verb(runSystem, "", "status", "list", "is-installed", "help"),
		"homectl":         verb(runSystem, "", "list", "inspect", "help"),
		"portablectl":     verb(runSystem, "", "list", "inspect", "is-attached", "help"),
		"systemd-sysext":  verb(runSystem, "", "status", "list", "help"),
		"systemd-confext": verb(runSystem, "", "status", "list", "help"),
		"udevadm":         custom(runSystem),
		"powerprofilesctl": first(runSystem, "", "get", "list", "list-holds", "list-actions", "version",
			"--help", "-h", "--version"),
		"tuned-adm": first(runSystem, "list", "active", "recommend", "verify", "--help", "-h", "--version", "-v"),
		"cpupower": first(runSystem, "frequency-info", "idle-info", "info", "monitor", "help", "--help", "-h",
			"--version", "-v"),
		"nvidia-smi":     custom(runSystem),
		"systemd-mount":  first(runSystem, "--list"),
		"systemd-umount": always(runSystem),
		"setleds":        first(runSystem, ""),
		"setterm":        always(runSystem), "kbdrate": always(runSystem), "deallocvt": always(runSystem),
		// Servers and service managers: stopping a database or a web
		// server, flushing a cache server, removing the shared memory
		// a running server uses.
		"ipcrm":         always(runProcs),
		"pg_ctl":        custom(runService),
		"pg_ctlcluster": custom(runService),
		"mysqladmin":    custom(runService),
		"redis-cli":     first(runService, "ping", "info", "dbsize", "--version", "-v", "--help"),
		"mongosh":       always(runService), "mongo": always(runService),
		"nginx":         all(runService, "-t", "-T", "-v", "-V", "-h", "-?"),
		"apachectl":     apache,
		"apache2ctl":    apache,
		"supervisorctl": first(runService, "status", "avail", "pid", "version", "help", "tail", "maintail"),
		// pm2 and forever start their daemon, and make their directory
		// in the home, on any command but --help and --version (pm2
		// list included).
		"pm2": always(runService), "forever": always(runService),
		"rabbitmqctl": first(runService, "status", "cluster_status", "environment", "report", "list_queues",
			"list_exchanges", "list_bindings", "list_connections", "list_channels", "list_consumers", "list_users",
			"list_vhosts", "list_permissions", "list_policies", "node_health_check", "version", "help"),
		"rc-service": custom(runService), "sv": first(runService, "status", "s"),
		"rc-update":   custom(runService),
		"chkconfig":   first(runService, "", "--list"),
		"initctl":     first(runService, "list", "status", "version", "show-config", "check-config", "help"),
		"update-rc.d": always(runService),
		// Checkpointing and restoring processes (criu dump stops and
		// kills the tree it dumps; criu check only tests the kernel), and
		// the dumps of crashed processes (coredumpctl debug runs a
		// debugger, dump -o writes a file).
		"criu":        all(runProcs, "check", "--all", "--extra", "--experimental", "-V", "-h"),
		"coredumpctl": custom(runProcs),
		// ss -K closes the sockets it lists, of any process.
		"ss": custom(runSystem),
	} {
		m[n] = s
	}
	return m
}}

// runningGuessNot are names of runningTools that are also common words
// (write, log, date, init, light, hostname): among the words of a command
// the analysis does not model they are taken for data (rc-service nginx
// status), but in the forms no data word takes (date -s, log erase,
// nginx -s).
var runningGuessNot = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"write": true, "log": true, "date": true, "init": true, "mount": true, "halt": true,
		"wall": true, "light": true, "hostname": true, "bridge": true, "tc": true, "iw": true, "wg": true,
		"passwd": true, "nginx": true}
}}

// runningName reports whether name is a program this file models, for
// the analysis to look at among the words of a command it does not
// model (logsave log pkill -f vim).
func runningName(name string) bool {
	_, ok := runningTools.get()[name]
	return ok // runningState takes the common words among them for data
}

// runningState returns why the command prog args (name its program's
// name) changes the running system outside the workdir (see
// runningTools), or "". guess says the
// command was guessed among the words of one the analysis does not
// model: kill is then only taken as itself with a process id.
func runningState(prog, name string, args []word, guess bool) string {
	spec, ok := runningTools.get()[name]
	if !ok && !guess && strings.HasSuffix(name, ".exe") &&
		(!strings.Contains(prog, "/") || path.IsAbs(prog) || strings.HasPrefix(prog, "..")) {
		// Under WSL, PATH finds the programs of Windows (cmd.exe,
		// powershell.exe, taskkill.exe, schtasks.exe, reg.exe), as
		// /mnt/c/Windows/System32/cmd.exe names them, which run code and
		// change the Windows side's processes, services and settings. A
		// project's own (./app.exe) is not one.
		return clipName(name) + " is a Windows program (WSL) outside the workdir, which the analysis does not model"
	}
	if !ok {
		if guess || !controlFamily(name) {
			return ""
		}
		if slices.ContainsFunc(args, func(a word) bool { return a.dynamic }) {
			return name + " gets a word only known when it runs"
		}
		if controlShows(args) {
			return ""
		}
		if len(args) > 0 && !strings.HasPrefix(args[0].text, "-") {
			name += " " + clipName(args[0].text)
		}
		return name + " " + runControl
	}
	if guess && runningGuessNot.get()[name] {
		// Only the forms no data word takes: date -s, log erase.
		switch {
		case name == "date" && slices.ContainsFunc(args, func(a word) bool {
			return a.text == "-s" || strings.HasPrefix(a.text, "--se")
		}):
			return "date -s " + spec.what
		case name == "log" && len(args) > 0 && args[0].text == "erase":
			return "log erase " + spec.what
		case name == "nginx" && hasPrefix(args, "-s"):
			return "nginx -s " + spec.what
		}
		return ""
	}
	for _, a := range args {
		if a.dynamic && !(name == "kill" && lastJob(a)) {
			return name + " gets a word only known when it runs"
		}
	}
	if onlyHelp(args) {
		return ""
	}
	first := ""
	if len(args) > 0 {
		first = args[0].text
	}
	shows := spec.shows(args)
	switch spec.kind {
	case runVerb:
		v, ok := systemdVerb(args)
		shows, first = ok && contains(spec.show, v), v
	case runCustom:
		shows = runningCustom(name, args, guess)
	}
	if shows {
		return ""
	}
	if first != "" && !strings.HasPrefix(first, "-") {
		return name + " " + clipName(first) + " " + spec.what
	}
	return name + " " + spec.what
}

// shows reports whether args only shows state by a spec of kind
// runFirst, runAll or runAny.
func (spec runSpec) shows(args []word) bool {
	shows := false
	switch spec.kind {
	case runFirst:
		first := ""
		if len(args) > 0 {
			first = args[0].text
		}
		shows = contains(spec.show, first)
	case runAll:
		shows = len(args) > 0 || contains(spec.show, "")
		for _, a := range args {
			shows = shows && contains(spec.show, a.text)
		}
	case runAny:
		for _, a := range args {
			shows = shows || contains(spec.show, a.text)
		}
	}
	return shows
}

// onlyHelp reports whether args are only --help and --version, which
// every program here takes to print and exit (onlyVersion's -h is
// shutdown's halt).
func onlyHelp(args []word) bool {
	for _, a := range args {
		if a.text != "--help" && a.text != "--version" {
			return false
		}
	}
	return len(args) > 0
}

// lastJob reports whether w is $! (or ${!}): the process id of the last
// job the line itself put in the background (each line runs in a shell
// of its own), which kill may signal.
func lastJob(w word) bool {
	return w.dynamic && (w.text == "$!" || w.text == "${!}")
}

// runningCustom reports whether the command name args of runningTools
// judged by its own rules only shows state, or signals what the line
// started.
func runningCustom(name string, args []word, guess bool) bool {
	switch name {
	case "kill":
		return killOperands(args, guess)
	case "fuser":
		// -k (alone or in a cluster, -mk) kills what uses the file.
		for _, a := range args {
			if a.text == "--kill" || strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "--") && strings.ContainsRune(a.text, 'k') {
				return false
			}
		}
		return true
	case "crontab":
		// crontab -l [-u user] lists; a file operand or - replaces the
		// table, -r removes it, -e edits it.
		list := false
		for i := 0; i < len(args); i++ {
			switch args[i].text {
			case "-l":
				list = true
			case "-u":
				i++
			default:
				return false
			}
		}
		return list
	case "journalctl":
		// Vacuuming, rotating, flushing and key setup change the journal;
		// getopt takes an unambiguous prefix of a long option.
		for _, a := range args {
			opt, _, _ := strings.Cut(a.text, "=")
			if len(opt) < 4 || !strings.HasPrefix(opt, "--") {
				continue
			}
			for _, w := range []string{"--vacuum-size", "--vacuum-time", "--vacuum-files", "--rotate", "--flush",
				"--sync", "--relinquish-var", "--smart-relinquish-var", "--setup-keys", "--update-catalog"} {
				if strings.HasPrefix(w, opt) {
					return false
				}
			}
		}
		return true
	case "sysctl":
		return sysctlReads(args)
	case "date":
		return dateReads(args)
	case "ip":
		return ipShows(args)
	case "ifconfig":
		// ifconfig [-a|-s|-l|-v] [interface] shows; more words set.
		ops := 0
		for _, a := range args {
			switch {
			case contains([]string{"-a", "-s", "-v", "-l", "-L", "-m", "-u", "-d"}, a.text):
			case strings.HasPrefix(a.text, "-"):
				return false
			default:
				ops++
			}
		}
		return ops <= 1
	case "route":
		// OpenBSD's route exec runs a command in a routing table, and
		// its nameserver and sourceaddr set the resolver and the source
		// address.
		for _, a := range args {
			if contains([]string{"add", "del", "delete", "flush", "change", "replace", "exec", "nameserver",
				"sourceaddr"}, a.text) {
				return false
			}
		}
		return true
	case "iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy", "iptables-nft", "ip6tables-nft",
		"ebtables", "arptables":
		return iptablesShows(args)
	case "dmesg":
		// -c, -C, -D, -E and -n clear the ring buffer or set the
		// console's level.
		for _, a := range args {
			t := a.text
			if strings.HasPrefix(t, "--") {
				opt, _, _ := strings.Cut(t, "=")
				for _, w := range []string{"--clear", "--read-clear", "--console-off", "--console-on", "--console-level"} {
					if len(opt) >= 4 && strings.HasPrefix(w, opt) {
						return false
					}
				}
				continue
			}
			if strings.HasPrefix(t, "-") {
				for _, c := range t[1:] {
					if strings.ContainsRune("CcDEn", c) {
						return false
					}
					if strings.ContainsRune("Ffls", c) {
						break // the rest is a value
					}
				}
			}
		}
		return true
	case "xcodebuild":
		// Installing Xcode's packages, platforms and components, and
		// accepting its license, change the system; building is the
		// project's own code, as make is.
		for i, a := range args {
			switch a.text {
			case "-runFirstLaunch", "-downloadPlatform", "-downloadAllPlatforms", "-downloadComponent",
				"-importPlatform", "-importComponent":
				return false
			case "-license":
				if i+1 >= len(args) || args[i+1].text != "check" {
					return false
				}
			}
		}
		return true
	case "nmcli":
		return nmcliShows(args)
	case "amixer":
		// set, sset and cset change a control; -s reads such commands.
		for _, a := range args {
			if contains([]string{"set", "sset", "cset", "-s", "--stdin"}, a.text) {
				return false
			}
		}
		return true
	case "hostname", "tc", "bridge", "ethtool", "xfconf-query", "swaymsg", "i3-msg", "mysqladmin", "rc-service",
		"nft", "zpool", "rc-update", "kitty", "kitten", "wezterm", "systemd-resolve", "nvidia-smi", "modprobe",
		"pg_ctl", "pg_ctlcluster", "hyprctl", "udevadm", "passwd", "coredumpctl", "ss":
		return runningMore(name, args)
	case "wmctrl":
		// -l, -d, -m list; -c closes, -k, -s and the others change.
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") || strings.Trim(a.text[1:], "ldmpGxvhV") != "" || a.text == "-" {
				return false
			}
		}
		return true
	case "xclip":
		// xclip reads the clipboard only with -o (-out); it sets it by
		// default, with -i (-in) and with -f (-filter).
		out := false
		for _, a := range args {
			switch {
			case a.text == "-o" || a.text == "-ou" || a.text == "-out":
				out = true
			case len(a.text) >= 2 && (strings.HasPrefix("-in", a.text) || strings.HasPrefix("-filter", a.text)):
				return false
			}
		}
		return out
	case "xsel":
		// xsel sets the selection from its standard input unless -o
		// (--output) is given; -a, -f, -c, -d, -x and -k change it.
		out := false
		for _, a := range args {
			t := a.text
			switch {
			case t == "--output":
				out = true
			case contains([]string{"--input", "--append", "--follow", "--clear", "--delete", "--exchange", "--keep"}, t):
				return false
			case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--"):
				if strings.ContainsAny(t, "iafcdxk") {
					return false
				}
				out = out || strings.ContainsRune(t, 'o')
			}
		}
		return out
	case "wl-paste":
		// --watch runs the command it is given on every change.
		for _, a := range args {
			opt, _, _ := strings.Cut(a.text, "=")
			if len(opt) >= 3 && strings.HasPrefix("--watch", opt) ||
				strings.HasPrefix(opt, "-") && !strings.HasPrefix(opt, "--") && strings.ContainsRune(opt, 'w') {
				return false
			}
		}
		return true
	}
	return false
}

// killOperands reports whether kill args only lists signals, signals
// nothing (signal 0 only tests that a process exists), or signals the
// jobs the line itself started: a job spec (%1, %%, %+) or $!. Any other
// operand (a process id, 0 for the whole process group, -1 for every
// process the user owns, a name to util-linux's kill) may be a process
// the line did not start. guess (kill among the words of a command the
// analysis does not model) only counts an operand that looks like a
// process id.
func killOperands(args []word, guess bool) bool {
	if len(args) == 0 {
		return true // prints the usage
	}
	switch args[0].text {
	case "-l", "-L", "--list", "--table":
		return true
	}
	zero := false
	ops := args
	switch t := args[0].text; {
	case t == "-s" || t == "-n":
		if len(args) < 2 {
			return true
		}
		zero = args[1].text == "0"
		ops = args[2:]
	case t == "--":
		ops = args[1:]
	case strings.HasPrefix(t, "-") && len(t) > 1:
		zero = t == "-0"
		ops = args[1:]
	}
	if len(ops) > 0 && ops[0].text == "--" {
		ops = ops[1:]
	}
	if zero && !hasPrefix(ops, "-") {
		// Signal 0, unless another option follows: bash's kill takes
		// every -s (kill -0 -s 9 1), util-linux's every signal option.
		return true
	}
	for _, o := range ops {
		t := o.text
		if lastJob(o) || strings.HasPrefix(t, "%") {
			continue
		}
		if guess && !isDigits(strings.TrimPrefix(t, "-")) {
			continue
		}
		return false
	}
	return true
}

// sysctlReads reports whether sysctl args only reads: no name=value
// (which sets it, with or without -w), no -w, -p, -f or --load (which
// set what a file lists) or --system.
func sysctlReads(args []word) bool {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "-r" || t == "--pattern":
			// The pattern: NetBSD's -r is raw output and takes none,
			// so a name=value after it is set there.
			i++
			if i < len(args) && strings.Contains(args[i].text, "=") {
				return false
			}
		case strings.HasPrefix(t, "--"):
			if !contains([]string{"--all", "--values", "--names", "--binary", "--ignore", "--quiet", "--help",
				"--version", "--deprecated"}, t) {
				return false
			}
		case t == "-":
			return false
		case strings.HasPrefix(t, "-"):
			for k := 1; k < len(t); k++ {
				if t[k] == 'r' {
					if k == len(t)-1 {
						i++ // the pattern is the next word, as above
						if i < len(args) && strings.Contains(args[i].text, "=") {
							return false
						}
					}
					break
				}
				if strings.IndexByte("aAXneNqbhVdoxlTi", t[k]) < 0 {
					return false
				}
			}
		case strings.Contains(t, "="):
			return false
		}
	}
	return true
}

// dateReads reports whether date args only prints a date: no -s or
// --set, and no operand but a +FORMAT (an operand such as 010100002020
// sets the clock, but after BSD's -j).
func dateReads(args []word) bool {
	j := false
	var ops []word
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(t, "--"):
			opt, _, hasVal := strings.Cut(t, "=")
			if len(opt) >= 3 && strings.HasPrefix("--set", opt) {
				return false
			}
			if !hasVal && contains([]string{"--date", "--file", "--reference"}, opt) {
				i++
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for k := 1; k < len(t); k++ {
				c := t[k]
				if c == 's' {
					return false
				}
				if c == 'j' {
					j = true
				}
				if strings.IndexByte("dfrvzI", c) >= 0 {
					if k == len(t)-1 && c != 'I' {
						i++ // the value is the next word
					}
					break
				}
			}
		default:
			ops = append(ops, args[i])
		}
	}
	for _, o := range ops {
		if !strings.HasPrefix(o.text, "+") && !j {
			return false
		}
	}
	return true
}

// ipShows reports whether ip args only shows state: after its options,
// an object with no command (ip addr) or with show, list, lst, ls, get or
// help; -b and -batch run the commands of a file, netns exec a program.
func ipShows(args []word) bool {
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i].text, "-"); i++ {
		opt := strings.TrimPrefix(args[i].text, "-")
		opt = strings.TrimPrefix(opt, "-")
		switch {
		case opt == "b" || opt == "batch" || opt == "force" || strings.HasPrefix(opt, "ba"):
			return false
		case contains([]string{"n", "netns", "f", "family", "l", "loops", "rc", "rcvbuf"}, opt):
			i++ // the value
		}
	}
	if i+1 >= len(args) {
		return true
	}
	return contains([]string{"show", "list", "lst", "ls", "get", "help"}, args[i+1].text)
}

// iptablesShows reports whether the firewall tool args only lists or
// checks rules (-L, -S, -C, with -n, -v, -t …): any command that appends,
// deletes, inserts, replaces, flushes, zeroes or makes chains, or sets a
// policy, changes them, and --modprobe names a program it runs.
func iptablesShows(args []word) bool {
	shows := false
	for _, a := range args {
		t := a.text
		switch {
		case strings.HasPrefix(t, "--"):
			opt, _, _ := strings.Cut(t, "=")
			for _, w := range []string{"--append", "--delete", "--insert", "--replace", "--flush", "--zero",
				"--new-chain", "--delete-chain", "--policy", "--rename-chain", "--new", "--atomic-commit",
				"--init-table", "--change-counters", "--modprobe"} {
				if len(opt) >= 4 && strings.HasPrefix(w, opt) {
					return false
				}
			}
			shows = shows || contains([]string{"--list", "--list-rules", "--check", "--version", "--help"}, opt)
		case strings.HasPrefix(t, "-") && len(t) > 1:
			if strings.ContainsAny(t[1:], "ADIRFZNXPE") {
				return false
			}
			shows = shows || strings.ContainsAny(t[1:], "LSCVh")
		}
	}
	return shows
}

// systemdVerb returns the first operand of a systemd tool's args (its
// verb, "" for none) and whether every option is one known to choose
// only what it shows and how: -H and --host (which run ssh), -M and
// --machine, and any option not known are not. Options may follow the
// verb (getopt permutes), so every word is looked at.
func systemdVerb(args []word) (string, bool) {
	flags := []string{"--user", "--system", "--no-pager", "--full", "--all", "--quiet", "--no-legend", "--recursive",
		"--failed", "--plain", "--help", "--version", "--value", "--reverse", "--after", "--before",
		"--with-dependencies", "--show-types", "--no-ask-password", "--static", "--transient", "--pretty",
		"-l", "-a", "-q", "-r", "-h", "--"}
	values := []string{"--type", "--state", "--property", "--lines", "--output", "-t", "-p", "-P", "-n", "-o"}
	verb := ""
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case !strings.HasPrefix(t, "-") || t == "-":
			if verb == "" {
				verb = t
			}
		case contains(flags, t):
		case contains(values, t):
			i++
		default:
			opt, _, hasVal := strings.Cut(t, "=")
			if hasVal && contains(values, opt) && strings.HasPrefix(opt, "--") {
				continue
			}
			if len(t) > 2 && !strings.HasPrefix(t, "--") && contains(values, t[:2]) {
				continue // -n5, -ojson
			}
			if len(t) > 2 && !strings.HasPrefix(t, "--") && strings.Trim(t[1:], "laqr") == "" {
				continue // -la
			}
			return verb, false
		}
	}
	return verb, true
}

// nmcliShows reports whether nmcli args only shows state: after options
// known to choose only what it prints, an object (general, networking,
// radio, connection, device, monitor) with no command, or with show,
// status, list or permissions (device wifi list; radio and a kind with
// no value). nmcli also takes abbreviated commands (nmcli d s), which are
// not understood; an abbreviated object (nmcli c show) is.
func nmcliShows(args []word) bool {
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i].text, "-"); i++ {
		switch args[i].text {
		case "-t", "--terse", "-p", "--pretty", "-a", "--ask", "-v", "--version", "-h", "--help":
		case "-f", "--fields", "-g", "--get-values", "-m", "--mode", "-c", "--colors", "-e", "--escape":
			i++
		default:
			return false
		}
	}
	rest := args[min(i, len(args)):]
	if len(rest) == 0 {
		return true
	}
	more := make([]string, 0, len(rest))
	for _, a := range rest[1:] {
		more = append(more, a.text)
	}
	object := rest[0].text
	for _, o := range []string{"general", "networking", "radio", "connection", "device", "monitor", "help"} {
		if object != "" && strings.HasPrefix(o, object) {
			object = o // nmcli c show: objects may be abbreviated
			break
		}
	}
	switch object {
	case "monitor", "help":
		return true
	case "radio":
		return len(more) <= 1
	case "networking":
		return len(more) == 0 || more[0] == "connectivity"
	case "general", "connection", "device":
		if len(more) >= 2 && more[0] == "wifi" && more[1] == "list" {
			return true
		}
		return len(more) == 0 || contains([]string{"show", "status", "list", "permissions"}, more[0])
	}
	return false
}
