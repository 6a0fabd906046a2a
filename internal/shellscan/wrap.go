package shellscan

import (
	"os"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
)

// wrapped looks inside the command ws: shells, wrappers, the commands
// whose file operands it knows, cd, and the commands and builtins that make
// a line opaque. It reports whether ws only wraps another command that was
// recorded as a unit of its own.
func (an *analyzer) wrapped(ws []word, depth, chain int) bool {
	name := programName(foldCase(path.Base(ws[0].text)))
	defer an.runsDirect(depth, chain)()
	args := ws[1:]
	if an.guess {
		if builtinOnly.get()[name] || guessDataWords.get()[name] || len(args) == 0 && !an.stdinFed {
			// A builtin is no program to run; a data word or a command
			// given nothing does nothing the caller does not check, but
			// env and printenv given nothing print the environment
			// (hyperfine -N --show-output env, round 99).
			if len(args) == 0 && (name == "env" || name == "printenv") {
				an.envPrinter(name, nil)
			}
			return false
		}
		if isShell(name) {
			an.opaque(name + " is a shell among the words of a command the analysis does not model, which may run it")
		}
		switch name {
		case "printf", "test", "[":
			return false // no -v, no arithmetic: the programs of that name
		case "patch":
			// patch writes the files its diff names: a diff it reads from
			// the line's input or from -i. kubectl patch … -p '{…}' is no
			// such run.
			if !an.stdinFed && !hasPrefix(args, "-i") && !hasPrefix(args, "--i") {
				return false
			}
		}
	}
	if an.plainRead && !an.guess && ws[0].text == "read" {
		return false // read -r line: see plainRead
	}
	if !an.guess && ws[0].text == "set" && strictSet(args) {
		return false // set -euo pipefail
	}
	if name == "npm" {
		var ok bool
		if args, ok = an.npm(name, args); !ok {
			an.seeInside(name, args, depth, chain)
			return false
		}
	}
	if name == "pnpm" {
		if why := pnpmCodeOption(args); why != "" {
			an.opaque(name + " " + why)
			an.seeInside(name, args, depth, chain)
			return false
		}
	}
	defer an.linkMakerCall(ws[0].text, name, args)()
	if why := packageCreator(name, args); why != "" {
		an.opaque(why)
	}
	an.workdirCode(name, args)
	if name == "xargs" && an.xargsReader(args, depth, chain) {
		return true
	}
	if why, ok := opaqueCommands.get()[name]; ok {
		an.opaque(name + " " + why)
		an.seeInside(name, args, depth, chain)
		return false
	}
	if subs, ok := runners.get()[name]; ok {
		if i, ok := runnerSubcommand(subs, args); ok {
			an.opaque(name + " " + args[i].text + " runs a command the analysis does not see")
			an.seeInside(name, args[i+1:], depth, chain)
			return false
		}
	}
	if why := configWrite(name, args); why != "" {
		an.opaque(why)
		return false
	}
	if why := hookInstall(name, args); why != "" {
		an.opaque(why)
		return false
	}
	if why := homeInstall(name, args); why != "" {
		an.opaque(why)
		return false
	}
	if why := kustomizeHelmCommand(name, args); why != "" {
		an.opaque(why)
	}
	if name == "kubectl" || name == "k3s" || name == "microk8s" {
		if inner := clusterInner(name, args); inner != nil {
			return an.inner(inner, depth, chain)
		}
	}
	if why := an.homeState(ws[0].text, name, args); why != "" {
		// The rest of the model still runs: the code it runs from files
		// the line writes (echo … > setup.py && pip install .) is also
		// worth saying.
		an.opaque(why)
	}
	an.credentialPrinter(name, args)
	an.envPrinter(name, args)
	if why := runningState(ws[0].text, name, args, an.guess); why != "" {
		an.opaque(why)
	}
	if why := outsideState(name, args); why != "" {
		an.opaque(why)
	}
	an.scriptRunner(name, args)
	if name == "gh" {
		an.ghBrings(args)
	}
	if why := glabHubState(name, args); why != "" {
		an.opaque(why)
	}
	if why := remoteState(name, args, an.stdinFed); why != "" {
		an.opaque(why)
	}
	if strings.HasPrefix(name, "git-") {
		an.opaque(name + " is a git program run outside git's own option checks")
		return false
	}
	if containerEngines.get()[name] && !an.container(name, args, depth, chain) {
		return false
	}
	if done, wraps := an.rustupToolchain(name, args, depth, chain); done {
		return wraps
	}
	an.opensslConfig(name, args)
	an.cargoConfig(name, args)
	switch name {
	case "sh", "bash", "rbash", "dash", "ash", "zsh", "ksh", "mksh", "yash":
		return an.shell(name, args, depth)
	case "fish", "csh", "tcsh", "pwsh", "powershell", "nu", "elvish", "xonsh":
		if len(args) == 0 || !onlyVersion(args) {
			// with no argument it reads commands from its standard input
			an.opaque(name + " commands are not analyzed")
		}
		return false
	case "printf":
		for _, a := range args {
			if a.dynamic || strings.HasPrefix(a.text, "-v") {
				an.opaque("printf -v assigns a variable")
				break
			}
			if !strings.HasPrefix(a.text, "-") || a.text == "--" {
				break
			}
		}
		return false
	case "test", "[":
		for _, a := range args {
			switch a.text {
			case "-v", "-R", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-o":
				an.opaque(name + " " + a.text + " evaluates its operands as code or reads shell state")
			}
			if a.dynamic {
				an.opaque(name + " gets an operand that is only known when it runs")
			}
			if a.pattern {
				// {-v,} and -[v] (where ./-v exists) are -v to test.
				an.opaque(name + " gets an operand bash expands first, which may be an operator such as -v")
			}
		}
		return false
	case "cd", "pushd", "popd":
		an.cd(name, args)
		return false
	case "less", "more":
		// +cmd runs less's commands when it starts, among them !cmd
		// (a shell command) and |m cmd. Without a terminal less only
		// copies its files, as cat does, but that is the caller's
		// environment, not the line's. (more is less on some systems.)
		for _, a := range args {
			if strings.HasPrefix(a.text, "+") || strings.HasPrefix(a.text, "-+") && strings.ContainsAny(a.text, "!|") {
				an.opaque(name + " " + clipName(a.text) + " runs commands of " + name + " when it starts, which may run a shell command")
				return false
			}
		}
	case "npx":
		return an.npx(args, depth, chain)
	case "wait":
		for _, a := range args {
			if a.dynamic || strings.HasPrefix(a.text, "-") && strings.Contains(a.text, "p") {
				an.opaque("wait -p assigns a variable, whose subscript is evaluated as code")
				break
			}
		}
		return false
	case "command":
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") || a.text == "--" {
				break
			}
			if strings.Contains(a.text, "p") || strings.HasPrefix(a.text, "--") {
				an.opaque("command " + a.text + " changes how the command is found")
				return false
			}
			if strings.ContainsAny(a.text, "vV") {
				return false // only looks the command up
			}
		}
		return an.inner(optionsEnd(args, "", nil), depth, chain)
	case "time":
		return an.inner(an.optionsPaths(args, "fo", []string{"--format", "--output"}, false, map[string]accessMode{"-o": modeWrite, "--output": modeWrite}), depth, chain)
	case "nice":
		return an.inner(optionsEnd(args, "n", []string{"--adjustment"}), depth, chain)
	case "caffeinate":
		// macOS's caffeinate [-dimsu] [-t secs] [-w pid] [command …]
		// runs its command as nice does.
		return an.inner(optionsEnd(args, "tw", nil), depth, chain)
	case "nohup", "setsid":
		if len(args) > 0 && strings.HasPrefix(args[0].text, "-") && args[0].text != "--" {
			an.opaque(name + " " + args[0].text + " is an option the analysis does not know")
			return false
		}
		if name == "setsid" && len(args) > 0 {
			// The bash tool ends a line by killing its process group;
			// setsid's command runs in a session (and group) of its own,
			// which outlives the line (redteam63). Its command is still
			// analyzed, for the deny rules.
			an.opaque("setsid runs its command in a session of its own, which outlives the line")
		}
		return an.inner(optionsEnd(args, "", nil), depth, chain)
	case "timeout":
		ops := optionsEnd(args, "sk", []string{"--signal", "--kill-after"})
		if len(ops) > 0 {
			ops = ops[1:] // the duration
		}
		return an.inner(ops, depth, chain)
	case "env":
		return an.env(args, depth, chain)
	case "sudo", "doas":
		an.sudo(name, args, depth, chain)
		return false
	case "su", "runuser":
		an.su(name, args, depth)
		return false
	case "find":
		an.find(args, depth, chain)
		return false
	case "git":
		an.git(args)
		return false
	case "arch":
		// macOS's arch runs the command it is given (arch -arm64 make),
		// as nice does, but with options the analysis does not model;
		// GNU's takes no operand.
		if len(args) > 0 && !onlyVersion(args) {
			an.opaque("arch runs the command it is given, as macOS's does")
			an.seeInside(name, args, depth, chain)
			return false
		}
	case "gio":
		// gio launch runs a desktop file's Exec line, gio open the handler
		// of a file's type; copy, save, move, trash … write the locations
		// they name as URIs (file:///…, percent-encoded), and trash:// is
		// in the home directory.
		if len(args) > 0 && !(gioReads.get()[args[0].text] || args[0].text == "mime" && len(args) < 3) {
			an.opaque("gio " + clipName(args[0].text) + " runs programs or writes locations the analysis does not model")
			return false
		}
	case "trash-put", "trash", "trash-rm", "trash-empty", "trash-restore", "gtrash", "gvfs-trash", "rmtrash", "trashy":
		// They move files into the trash of the home directory
		// (~/.local/share/Trash/files and info, or a volume's
		// .Trash-UID at its top), or delete or restore its files
		// (round redteam133, tools: trash-put README wrote
		// ~/.local/share/Trash/info/README.trashinfo while allowed).
		// trash-list only prints it.
		if !onlyVersion(args) {
			an.opaque(name + " moves files into or out of the trash in the home directory")
			return false
		}
	case "make", "gmake":
		an.make(name, args)
	case "npm", "pnpm", "yarn":
		// They run the scripts of package.json (npm install its
		// lifecycle scripts), with the settings of .npmrc (and pnpm's of
		// pnpm-workspace.yaml), and those scripts mostly run node files;
		// install and rebuild run node-gyp rebuild for a package with a
		// binding.gyp (see nodeGypFiles).
		if !onlyVersion(args) {
			an.usesCode(name, "/", append(append([]string{".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", "pnpm-workspace.yaml"}, languageFiles.get()["node"]...), nodeGypFiles...)...)
		}
		an.packageRunnerTarget(name, args)
	case "bun":
		if !onlyVersion(args) {
			an.usesCode(name, "/", nodeGypFiles...)
		}
		an.rt61Bun(args)
		an.packageRunnerTarget(name, args)
		an.bunRunsPath(args, depth, chain)
	case "cargo":
		// It builds the crate of Cargo.toml and runs its build script
		// (build.rs), its tests and its binaries, with the toolchain a
		// rust-toolchain file names.
		if !onlyVersion(args) {
			an.usesCode(name, "/", "*.rs", "Cargo.toml", "rust-toolchain", "rust-toolchain.toml")
			an.cargoMake(args)
			an.rt61Cargo(args)
		}
	}
	if name == "go" || strings.HasPrefix(name, "go1.") {
		an.goWorkSync(name, args)
		if tool, ok := goToolArgs(args); ok {
			if why := goTool(name, tool); why != "" {
				an.opaque(why)
			}
		}
		if an.goCommand(name, args); an.goModel(name, args) {
			return false
		}
	}
	if n := checkerName(name); n == "pytest" || n == "ruff" {
		// The settings files of checkers the checkers table models:
		// pytest's -c and --config-file (cache_dir, addopts) and
		// pytest-cov's, ruff's cache-dir.
		an.settingsCodeUses(n, args)
		if n == "pytest" {
			an.rt61Pytest(args)
		}
	}
	if an.checker(checkerName(name), args) {
		return false
	}
	an.checkerCode(checkerName(name), args)
	if isCompiler(name) {
		an.compilerMapper(name, args)
		an.compiler(name, args)
	}
	if jdkTools.get()[name] {
		an.java(name, args)
	}
	if name == "rustc" || name == "rustdoc" {
		an.rustc(name, args)
	}
	if name == "cargo" {
		an.cargoRustc(name, args)
	}
	if isPython(name) {
		// python3 -m uv run x runs uv's command-line tool, as uv run x
		// does: the tool's command is judged as the tool's (pip and
		// ensurepip, which install into this python, are judged below).
		if mod, after, ok := pythonModule(args); ok {
			if why := pythonDownloader(mod, after); why != "" {
				an.opaque(why)
			}
			// A submodule of a tool's package (spacy.cli, uv.__main__)
			// is judged as the tool: its command-line entry points take
			// the tool's subcommands.
			top, _, _ := strings.Cut(mod, ".")
			prog := strings.ReplaceAll(top, "_", "-")
			if prog != "pip" && prog != "ensurepip" && guessable(prog) {
				an.inner(append([]word{{text: prog}}, after...), depth, chain)
			}
		}
	}
	if an.interpreter(ws[0].text, name, args) {
		return false
	}
	if !guessable(name) && !noFiles.get()[name] {
		an.unmodelled(ws[0], name, args)
	}
	n := len(an.a.accesses)
	an.fileCommand(name, args)
	if listsNamesOnly(name, args) {
		for i := n; i < len(an.a.accesses); i++ {
			an.a.accesses[i].names = true
		}
	}
	return false
}

// listsNamesOnly reports whether the command name args shows only names
// and metadata of the files it is given (ls, stat, du …), never their
// contents, nor names read from a file (du --files0-from, tree
// --fromfile, ls and du's --exclude-from kin).
func listsNamesOnly(name string, args []word) bool {
	switch name {
	case "ls", "dir", "vdir", "stat", "du", "tree", "readlink", "realpath":
	default:
		return false
	}
	for _, a := range args {
		if a.dynamic || strings.HasPrefix(a.text, "-") && strings.Contains(strings.ToLower(a.text), "from") {
			return false
		}
	}
	return true
}

// opaqueCommands are the commands and builtins that run code the analysis
// cannot see, change what later commands run, or evaluate data as code,
// with the reason.
var opaqueCommands = lazy[map[string]string]{build: func() map[string]string {
	m := map[string]string{
		"eval": "runs a string as commands", "source": "runs the commands of a file",
		".": "runs the commands of a file", "trap": "runs a command later",
		"hash": "changes what later commands run", "enable": "changes what later commands run",
		"builtin": "bypasses functions and changes how the command is found", "exec": "replaces the shell",
		"set": "changes shell options", "shopt": "changes shell options", "alias": "changes what later commands run",
		"unalias": "changes what later commands run", "unset": "changes the environment",
		"read": "assigns variables from its input", "mapfile": "assigns variables from its input",
		"readarray": "assigns variables from its input", "getopts": "assigns variables",
		"let": "evaluates its arguments as arithmetic", "declare": "assigns variables or their attributes",
		"typeset": "assigns variables or their attributes", "local": "assigns variables",
		"export": "changes the environment", "readonly": "assigns variables", "fc": "runs commands from the history",
		"history": "changes the history", "bind": "changes key bindings", "complete": "registers commands to run",
		"compgen": "can run commands and functions", "coproc": "runs a command with pipes to the shell",
		"select": "runs its body for input it reads", "ulimit": "changes resource limits",
		"xargs": "runs commands built from its input", "parallel": "runs commands built from its input",
		"watch": "runs its arguments as a shell command", "flock": "runs a command, possibly through a shell",
		"chroot": "runs a command in another root", "ln": "creates links that change where paths lead",
		"link":  "creates a hard link that changes what a path holds",
		"split": "writes files whose names it builds", "csplit": "writes files whose names it builds",
		"patch": "writes files named in its input",
		"jobs":  "-x runs a command",
		// setuptools' old installer, as pip install into the python that
		// runs it (python3 -m easy_install: easy-install).
		"easy_install": "installs packages into the environment of its python, which may lie outside the workdir",
		"easy-install": "installs packages into the environment of its python, which may lie outside the workdir",
	}
	// Programs that run a command as another user, as sudo does.
	for _, n := range []string{"run0", "ksu", "sudo-rs", "su-rs", "please", "pleaseedit", "calife", "sux",
		"gksu", "gksudo", "kdesu", "kdesudo", "beesu", "lxsu", "lxsudo", "pkexec"} {
		m[n] = "runs a command as another user, which the workdir does not contain"
	}
	for _, n := range []string{"strace", "ltrace", "script", "unshare", "setpriv", "prlimit", "nsenter",
		"firejail", "bwrap", "systemd-run", "flatpak-spawn", "fakeroot", "fakechroot", "proot", "faketime",
		"valgrind", "gdb", "lldb", "perf", "catchsegv", "dbus-run-session", "xvfb-run", "sg", "newgrp",
		"expect", "tmux", "screen", "torsocks", "proxychains", "proxychains4", "numactl", "cgexec",
		"capsh", "unbuffer", "rlwrap", "nix-shell", "run-parts", "start-stop-daemon", "daemonize",
		"setarch", "linux32", "linux64", "pkexec", "stdbuf", "ionice", "taskset", "chrt", "busybox",
		"toybox", "ssh", "ld.so", "ld-linux.so.2", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
		"time-wrapper", "entr", "inotifywait", "nsjail", "minijail0", "sandbox-exec", "socat", "nc",
		"ncat", "netcat", "telnet", "at", "batch", "service", "install",
		"dpkg", "apt", "apt-get", "vi", "vim", "nvim", "emacs", "nano", "ed", "ex", "less", "more",
		"man", "git-shell", "jsc", "tclsh", "wish", "lua", "luajit", "R", "Rscript", "gawk", "dc", "bc",
		"m4", "env-update", "sudoedit", "zip", "7z", "7za", "cpio", "pax", "ar", "dd", "tee",
		"eatmydata", "chronic", "nocache", "trickle", "tini", "dumb-init", "catatonit", "runcon", "chpst",
		"sshpass", "ifne", "pee", "sem", "lckdo", "with-lock-ex", "envdir", "envuidgid", "softlimit",
		"setuidgid", "bunx", "pnpx", "mktemp", "rename", "rename.ul", "prename", "file-rename",
		"mknod", "fallocate", "tic", "infocmp",
		// Other names of vim, ed, gdb and interpreters, which run commands
		// given to them (view -es -c '!cmd').
		"view", "rview", "vimdiff", "rvim", "gvim", "gview", "gvimdiff", "evim", "eview", "vimx", "vi",
		"nvi", "elvis", "vile", "editor", "sensible-editor", "select-editor", "red", "gdbtui",
		"gdb-multiarch", "wish", "jrunscript", "jjs", "emacs-nox", "emacs-gtk", "xemacs", "jed", "joe",
		"mcedit", "micro", "kak", "helix", "hx", "pico", "sensible-pager", "pager",
		// More programs that run the command they are given (ssh-agent rm x)
		// or a program named in their options (sftp -S prog).
		"ssh-agent", "sftp", "dbus-launch", "systemd-inhibit", "systemd-cat", "gpg-agent", "xinit",
		"startx", "openvt", "schroot", "dchroot", "cpulimit", "rr", "uftrace", "cgdb", "tsocks",
		"rust-gdb", "rust-gdbgui", "rust-lldb",
		"lxc-attach", "xterm", "uxterm", "gnome-terminal", "konsole", "urxvt", "x-terminal-emulator",
		// Clients whose commands run a shell (sqlite3 '.shell …', psql
		// '\\! …') or write the files they name (ATTACH 'f').
		"sqlite3", "sqlite", "sqlcipher", "psql", "mysql", "mariadb", "duckdb", "gnuplot", "octave", "ftp",
		"lftp", "mail", "mailx", "w3m", "lynx", "scriptlive", "scriptreplay", "gpg-connect-agent", "busctl",
		"gdbus", "dbus-send", "sensible-browser", "x-www-browser", "www-browser", "xdg-open", "corepack",
		// Extractors, which write the paths their input names.
		"dpkg-deb", "jar", "unsquashfs", "unrar", "unar", "lha", "arj", "cabextract", "uudecode", "unshar",
		"bsdcpio", "rpm2archive",
		// Python's debugger reads code from its standard input; scalar
		// rewrites git's configuration outside git's option checks; cpan
		// builds and installs modules.
		"pdb", "scalar", "cpan", "cpanm",
		// More programs that run the command they are given: LLVM's not
		// and lli, setarch's personality names, glibc's memusage and
		// sotruss, profilers, fakeroot's variants, dpkg-architecture -c,
		// gettext's msgexec and msgfilter, ssh's other names, ssh-copy-id
		// and sshfs (ssh -o ProxyCommand=…), and util-linux's uclampset
		// and choom.
		"not", "lli", "i386", "i486", "i586", "i686", "x86_64", "aarch64", "armv7l", "armv8l", "ppc", "ppc32",
		"ppc64", "ppc64le", "s390", "s390x", "uname26", "memusage", "sotruss", "heaptrack", "fakeroot-sysv",
		"fakeroot-tcp", "dpkg-architecture", "msgexec", "msgfilter", "slogin", "ssh-copy-id", "sshfs", "uclampset",
		"choom", "luit", "systemd-socket-activate", "pg_virtualenv", "gcore", "jdb",
		// lli's kin, which execute the machine code of an object file
		// (llvm-jitlink x.o, llvm-rtdyld -execute x.o, an assembler's
		// output the line made), llvm-exegesis, which runs the snippets
		// of its -snippets-file, their executors, bugpoint, which runs
		// the program of --exec-command, and Debian's
		// make-first-existing-target, which runs make (or its -c command)
		// on a makefile the analysis does not read (redteam63).
		"llvm-jitlink", "llvm-rtdyld", "llvm-jitlink-executor", "lli-child-target", "llvm-exegesis", "bugpoint",
		"make-first-existing-target",
		// Programs that detach their command into a session of its own,
		// which outlives the line (redteam63), as setsid's does.
		"dtach", "abduco", "s6-setsid",
		// Extractors and splitters that write the paths their input names,
		// and argcomplete's activation, which writes shell startup code.
		"ptar", "gpgtar", "gpg-zip", "split-file", "activate-global-python-argcomplete",
		// Programs that write, create and remove the paths their
		// configuration or input names, as patch does those of its diff:
		// systemd-tmpfiles (w, f, L, r lines), systemd-sysusers, zic.
		"systemd-tmpfiles", "systemd-sysusers", "zic",
		// Container runtimes and tools that run a container with host
		// paths mounted (apptainer and distrobox mount the home
		// directory); docker, podman and their kin are modelled in
		// container.go.
		"runc", "crun", "youki", "runsc", "ctr", "crictl", "lxc", "incus", "apptainer", "singularity",
		"distrobox", "distrobox-enter", "toolbox", "systemd-nspawn", "machinectl",
		// moreutils' mispipe runs its two command strings through sh, the
		// output of the first fed to the second: mispipe "printf 'touch
		// ../home/p'" sh ran what the first printed, a second string the
		// analysis takes for a shell given nothing (redteam133).
		"mispipe",
		// Ruby's debugger runs its script whatever its name (rdbg -n
		// x.txt), and its -e and -c commands; ruby-rewrite -l loads a
		// rewriter of any name, and rbs -r (prototype runtime) requires
		// the library it names (-r ./x loads x.rb): redteam133.
		"rdbg", "ruby-rewrite", "rbs",
		// Multi-call binaries, which run the program their first word
		// or an option names (coreutils --coreutils-prog=kill, as
		// busybox and toybox above): the applet is not looked at.
		"coreutils", "uu-coreutils", "sbase-box", "ubase-box"} {
		if _, ok := m[n]; !ok {
			m[n] = "runs commands or writes files in ways the analysis does not model"
		}
	}
	for _, n := range []string{"tee", "dd", "gawk", "less", "more"} {
		delete(m, n) // modeled below
	}
	return m
}}

// programName returns the name under which the analysis knows the program
// name: a versioned or flavored name of a shell, an interpreter or an
// opaque command (perl5.36.0, perl5.36-x86_64-linux-gnu, tclsh8.6,
// vim.basic) is that program; any other name is itself (sha256sum stays).
func programName(name string) string {
	// A version after a dash (not-14, lli-14): the program without it.
	if j := strings.LastIndexByte(name, '-'); j > 0 && j < len(name)-1 && strings.Trim(name[j+1:], "0123456789.") == "" {
		if base := programName(name[:j]); base != name[:j] || knownProgram(base) {
			return base
		}
	}
	i := strings.IndexAny(name, "0123456789.")
	if i <= 0 {
		return name
	}
	base := name[:i]
	if _, ok := opaqueCommands.get()[base]; ok {
		return base
	}
	if _, ok := interpreters.get()[base]; ok {
		return base
	}
	switch base {
	case "sh", "bash", "rbash", "dash", "ash", "zsh", "ksh", "mksh", "yash", "awk", "gawk", "mawk", "nawk",
		"sed", "gsed", "python", "tar", "bsdtar", "sudo", "doas", "su", "runuser":
		return base
	}
	return name
}

// ProgramName returns the name the analysis judges the program file
// (a bare name or a path) as: its base name, folded as a case-insensitive
// file system folds it, without the version or flavor of a shell, an
// interpreter or an opaque command (/usr/bin/python3.12 → python,
// ./Kill → kill). Two files with the same ProgramName are judged alike.
func ProgramName(file string) string {
	return programName(foldCase(path.Base(file)))
}

// foldCase returns the program name as the analysis's tables spell it:
// in lower case, but for R and Rscript. On a case-insensitive file system
// (macOS's default) BASH, Python3 and RM run bash, python3 and rm, so
// the line is judged as theirs; on Linux such a name is another program,
// which may only be judged more strictly this way.
func foldCase(name string) string {
	// ſ (long s) and K (Kelvin sign) fold to s and k there, too, and
	// ß and the ligatures to their letters (ßh is ssh, ﬁsh is fish).
	lower := pathmatch.FoldName(name)
	switch lower {
	case "r":
		return "R"
	case "rscript":
		return "Rscript"
	}
	return lower
}

// knownProgram reports whether name is an opaque command or an
// interpreter under its own name.
func knownProgram(name string) bool {
	if _, ok := opaqueCommands.get()[name]; ok {
		return true
	}
	_, ok := interpreters.get()[name]
	return ok
}

// configWriters are the tools with a subcommand that writes their own
// configuration, kept in the home directory, which later runs of the tool
// (and of what it runs) read: a program to run for scripts (npm's
// script-shell), flags for every build (go env -w GOFLAGS=-toolexec=…), a
// credential helper to run (kubectl's exec plugins). Each maps the
// subcommand to the words after it that make it write; "" is any word.
var configWriters = lazy[map[string]map[string][]string]{build: func() map[string]map[string][]string {
	set := []string{"set", "delete", "del", "unset", "edit", "fix", "rm", "add", "import"}
	return map[string]map[string][]string{
		"go": {"env": {"-w", "-u"}, "telemetry": {"on", "off", "local"}},
		"npm": {"config": set, "c": set, "set": {""}, "delete": {""}, "login": {""}, "adduser": {""},
			"logout": {""}},
		"pnpm": {"config": set, "c": set, "set": {""}, "delete": {""}, "login": {""}, "logout": {""},
			"adduser": {""}, "env": {"use", "add", "remove", "rm"}},
		"yarn":       {"config": set, "npm": {"login", "logout"}},
		"bun":        {"config": set},
		"pip":        {"config": set},
		"pip3":       {"config": set},
		"poetry":     {"config": {""}},
		"conda":      {"config": {"--set", "--add", "--append", "--prepend", "--remove", "--remove-key", "--write-default"}},
		"mamba":      {"config": {"--set", "--add", "--append", "--prepend", "--remove", "--remove-key", "--write-default"}},
		"micromamba": {"config": {""}},
		"gh":         {"config": set, "alias": set, "extension": {"install", "upgrade", "remove"}, "auth": {"setup-git", "login", "logout", "refresh", "switch"}},
		"glab":       {"config": set, "alias": set},
		"kubectl":    {"config": {""}},
		"gcloud":     {"config": set},
		"aws":        {"configure": {""}, "sso": {"login", "logout"}},
		"az":         {"config": set},
		"rustup":     {"default": {""}, "override": {""}, "set": {""}},
		"cargo":      {"config": {""}},
		"bundle":     {"config": {""}},
		"gem":        {"sources": {"--add", "-a", "--remove", "-r"}},
		"composer":   {"config": {""}},
		"helm":       {"repo": {"add", "remove", "rm"}, "plugin": {"install", "update", "uninstall", "remove", "rm"}},
		"docker":     {"context": {"create", "use", "update", "rm"}, "login": {""}},
		"direnv":     {"allow": {""}, "permit": {""}, "grant": {""}},
		// pdm config KEY VALUE and hatch config set write the user's
		// settings (~/.config/pdm, ~/.config/hatch) unless --local.
		"pdm":   {"config": {""}},
		"hatch": {"config": {"set", "update", "restore", "reset"}},
	}
}}

// configWrite returns why the command name args writes the tool's own
// configuration (see configWriters), or "". A word the analysis only knows
// when the line runs counts as the subcommand and as a writing word.
func configWrite(name string, args []word) string {
	if sub := writingSubcommand(configWriters.get(), name, args); sub != "" {
		return name + " " + sub + " writes configuration that later commands read"
	}
	return ""
}

// homeInstallers are the tools with a subcommand that installs or removes
// programs outside the workdir, where the user's PATH finds them
// (~/go/bin, ~/.cargo/bin, ~/.local/bin, ~/.gem, the global prefix), so
// that later commands, the user's own included, run what the line chose.
// Each maps the subcommand to the words after it that make it do so, as
// configWriters does.
var homeInstallers = lazy[map[string]map[string][]string]{build: func() map[string]map[string][]string {
	global := []string{"-g", "--global"}
	every := []string{""}
	return map[string]map[string][]string{
		// pip is judged by pipInstall, which knows a virtual
		// environment's pip.
		"go":    {"install": every},
		"cargo": {"install": every, "uninstall": every, "binstall": every},
		// gem installs into GEM_HOME (the system's, ~/.gem, a version
		// manager's) and bundle into the same unless configured.
		"gem":    {"install": every, "uninstall": every, "update": every, "cleanup": every, "pristine": every},
		"bundle": {"install": every, "update": every, "clean": every}, "bundler": {"install": every, "update": every, "clean": every},
		"yarn": {"global": every},
		"bun": {"add": global, "install": global, "i": global, "remove": global, "rm": global, "update": global,
			"link": every, "unlink": every, "upgrade": every},
		"deno":     {"install": global, "uninstall": global, "upgrade": every},
		"dotnet":   {"tool": {"install", "update", "uninstall"}, "workload": every, "new": {"install", "uninstall"}, "dev-certs": every},
		"composer": {"global": every, "self-update": every, "selfupdate": every},
		"nix":      {"profile": {"install", "add", "remove", "upgrade", "rollback", "wipe-history"}, "upgrade-nix": every},
		"krew":     {"install": every, "uninstall": every, "upgrade": every, "update": every},
		// kubectl krew runs the kubectl-krew plugin; gcloud components
		// installs into the SDK's directory; pdm and hatch install
		// pythons into ~/.local/share and pdm plugins into itself.
		"kubectl": {"krew": {"install", "uninstall", "upgrade", "update"}},
		"gcloud":  {"components": {"install", "remove", "update", "reinstall", "restore"}},
		"pdm":     {"self": {"add", "remove", "update"}, "python": {"install", "remove"}, "py": {"install", "remove"}},
		"hatch":   {"python": {"install", "remove", "update"}, "self": {"update", "restore"}},
		// Build systems' install step copies what was built to the
		// configured prefix, /usr/local unless the project says
		// otherwise: make install by convention, the install target
		// cmake and meson generate for make and ninja, cmake --install
		// and meson install themselves.
		"make": {"install": every, "uninstall": every}, "gmake": {"install": every, "uninstall": every},
		"ninja": {"install": every, "uninstall": every}, "samu": {"install": every, "uninstall": every},
		"cmake": {"--install": every, "--target": {"install"}, "-t": {"install"}, "--target=install": every},
		"meson": {"install": every}, "scons": {"install": every}, "dune": {"install": every, "uninstall": every},
		"stack":    {"install": every, "setup": every, "upgrade": every},
		"cabal":    {"install": every},
		"opam":     {"install": every, "remove": every, "uninstall": every, "upgrade": every, "switch": every, "init": every, "pin": every, "reinstall": every},
		"luarocks": {"install": every, "remove": every, "make": every},
		"nimble":   {"install": every, "uninstall": every},
		"mix": {"archive.install": every, "archive.uninstall": every, "escript.install": every, "escript.uninstall": every,
			"local.hex": every, "local.rebar": every},
		"coursier": {"install": every, "uninstall": every, "setup": every}, "cs": {"install": every, "uninstall": every, "setup": every},
		"jbang":      {"app": {"install", "uninstall"}},
		"tlmgr":      {"install": every, "remove": every, "update": every},
		"sdkmanager": {"--install": every, "--uninstall": every, "--update": every},
		"code":       {"--install-extension": every, "--uninstall-extension": every},
		"pixi":       {"global": {"install", "add", "remove", "uninstall", "upgrade", "sync"}, "self-update": every},
		"rye":        {"install": every, "uninstall": every, "toolchain": {"fetch", "remove", "register"}, "self": every},
		// pnpm setup installs pnpm into its home directory and adds it to
		// PATH in the shell's startup file (~/.bashrc); self-update
		// replaces the pnpm there.
		"pnpm": {"add": global, "remove": global, "rm": global, "uninstall": global, "un": global,
			"install": global, "i": global, "update": global, "up": global, "link": global, "ln": global,
			"setup": every, "self-update": every},
		"pipx": {"install": {""}, "uninstall": {""}, "uninstall-all": {""}, "inject": {""}, "upgrade": {""},
			"upgrade-all": {""}, "reinstall": {""}, "reinstall-all": {""}, "ensurepath": {""}},
		"uv": {"tool": {"install", "uninstall", "upgrade", "update-shell"}, "python": {"install", "uninstall", "upgrade"},
			"self": {"update", "uninstall"}},
		"rustup": {"toolchain": {"install", "uninstall", "add", "remove", "link"},
			"component": {"add", "remove"}, "target": {"add", "remove"}, "update": {""}, "self": {"update", "uninstall"}},
	}
}}

// homeInstall returns why the command name args installs or removes
// programs outside the workdir (see homeInstallers), or "".
func homeInstall(name string, args []word) string {
	if sub := writingSubcommand(homeInstallers.get(), name, args); sub != "" {
		return name + " " + sub + " installs or removes programs outside the workdir, where later commands find them"
	}
	return ""
}

// writingSubcommand returns the subcommand of name args that writes by
// table (tool, subcommand, the words after it that make it write: see
// writes), or "". A versioned name (pip3.11, go1.22) is the same program.
// A word the analysis only knows when the line runs counts as the
// subcommand and as a writing word. Any word may be the subcommand, so a
// program's own operand may be taken for one (go run . install): that
// errs toward asking.
func writingSubcommand(table map[string]map[string][]string, name string, args []word) string {
	subs, ok := table[name]
	if !ok {
		subs, ok = table[strings.TrimRight(name, "0123456789.")]
	}
	if !ok {
		return ""
	}
	for i, a := range args {
		verbs, ok := subs[a.text]
		if !ok && !a.dynamic {
			continue
		}
		if !ok || writes(verbs, args[i+1:]) || optionBefore(verbs, args[:i]) {
			return a.text
		}
	}
	return ""
}

// optionBefore reports whether one of the option verbs is among the words
// before the subcommand (pnpm --global remove x, as pnpm remove -g x).
func optionBefore(verbs []string, before []word) bool {
	for _, b := range before {
		for _, v := range verbs {
			if strings.HasPrefix(v, "-") && verbMatches(b.text, v) {
				return true
			}
		}
	}
	return false
}

// readOnlyWords are the first words after a configuration subcommand
// that only show it.
var readOnlyWords = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"list": true, "--list": true, "-l": true, "get": true, "--get": true, "view": true, "show": true,
		"--show": true, "--describe": true, "current-context": true, "get-contexts": true, "get-clusters": true,
		"get-users": true, "help": true, "--help": true, "-h": true,
	}
}}

// writes reports whether the words after a configuration subcommand make
// it write: one of verbs (an option also as -o=value or -ovalue), or, for
// the verb "", anything but a read-only first word (no words at all
// included: "direnv allow", "aws configure" write).
func writes(verbs []string, after []word) bool {
	for _, b := range after {
		if b.dynamic {
			return true
		}
		for _, v := range verbs {
			if v != "" && verbMatches(b.text, v) {
				return true
			}
		}
	}
	if !slices.Contains(verbs, "") {
		return false
	}
	for _, b := range after {
		if !strings.HasPrefix(b.text, "-") || readOnlyWords.get()[b.text] {
			return !readOnlyWords.get()[b.text]
		}
	}
	return true
}

// verbMatches reports whether the word t is the writing word v: v
// itself, or, for an option, v with a value (-w=x, -wx, --set=x), v with
// two dashes for one (go's flag package takes --w for -w), or an
// abbreviation of a long option (argparse and getopt_long take --se for
// --set).
func verbMatches(t, v string) bool {
	if t == v {
		return true
	}
	if !strings.HasPrefix(v, "-") {
		return false
	}
	if strings.HasPrefix(t, v) && len(t) > len(v) && (len(v) == 2 || t[len(v)] == '=') {
		return true
	}
	opt, _, _ := strings.Cut(t, "=")
	if len(v) == 2 && opt == "-"+v {
		return true
	}
	return strings.HasPrefix(v, "--") && len(opt) >= 3 && strings.HasPrefix(v, opt)
}

// runners are the tools whose subcommands run any command given to them
// (pyenv exec rm …), with those subcommands.
var runners = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"pyenv": {"exec"}, "rbenv": {"exec"}, "nodenv": {"exec"}, "goenv": {"exec"}, "jenv": {"exec"},
		"plenv": {"exec"}, "asdf": {"exec"}, "mise": {"exec", "x"}, "rtx": {"exec", "x"}, "direnv": {"exec"},
		"uv": {"run"}, "poetry": {"run"}, "pipenv": {"run"}, "pdm": {"run"}, "hatch": {"run"}, "rye": {"run"},
		"pixi": {"run", "exec"}, "conda": {"run"}, "mamba": {"run"}, "micromamba": {"run"},
		"nix": {"run", "shell", "develop"}, "bundle": {"exec"}, "opam": {"exec"}, "npm": {"exec", "explore"},
		"pnpm": {"exec", "dlx"}, "yarn": {"exec", "dlx"}, "ip": {"netns", "vrf"},
	}
}}

// inner records ws, the command a wrapper runs; it reports whether there
// was one.
func (an *analyzer) inner(ws []word, depth, chain int) bool {
	if len(ws) == 0 {
		return false
	}
	an.command(ws, depth, chain+1)
	return true
}

// onlyVersion reports whether args only ask for a version or help.
func onlyVersion(args []word) bool {
	for _, a := range args {
		switch a.text {
		case "--version", "-V", "--help", "-h", "-v":
		default:
			return false
		}
	}
	return len(args) > 0
}

// eachOption walks the options at the start of args, calls fn (when not
// nil) for each with its value, and returns the operands. short lists the
// one-letter options that take a value (attached or as the next word); long
// the long options that do (as the next word, or after '='). "--" ends the
// options; a word not starting with '-', "-" itself, and a word only known
// at run time are operands. With permute, options may also follow operands
// (as GNU tools allow), and every operand is returned; without it, the
// first operand ends the options (as for a wrapper, whose operands are a
// command with options of its own).
func eachOption(args []word, short string, long []string, permute bool, fn func(opt string, val *word)) []word {
	call := func(opt string, val *word) {
		if fn != nil {
			fn(opt, val)
		}
	}
	var ops []word
	i := 0
	for i < len(args) {
		a := args[i]
		t := a.text
		if a.dynamic || a.special || !strings.HasPrefix(t, "-") || t == "-" {
			if !permute {
				break
			}
			ops = append(ops, a)
			i++
			continue
		}
		i++
		if t == "--" {
			break
		}
		if strings.HasPrefix(t, "--") {
			if j := strings.IndexByte(t, '='); j > 0 {
				call(canonLong(t[:j], long), &word{text: t[j+1:], dynamic: a.dynamic, pattern: a.pattern})
			} else if t = canonLong(t, long); contains(long, t) && i < len(args) {
				call(t, &args[i])
				i++
			} else {
				call(t, nil)
			}
			continue
		}
		for k := 1; k < len(t); k++ {
			opt := "-" + t[k:k+1]
			if strings.IndexByte(short, t[k]) < 0 {
				call(opt, nil)
				continue
			}
			switch {
			case k < len(t)-1:
				call(opt, &word{text: t[k+1:], dynamic: a.dynamic, pattern: a.pattern})
			case i < len(args):
				call(opt, &args[i])
				i++
			default:
				call(opt, nil)
			}
			break
		}
	}
	return append(ops, args[min(i, len(args)):]...)
}

// optionsEnd returns the operands of args; see eachOption.
func optionsEnd(args []word, short string, long []string) []word {
	return eachOption(args, short, long, false, nil)
}

// optionsPaths is eachOption that also records the values of the options
// in paths as file accesses.
func (an *analyzer) optionsPaths(args []word, short string, long []string, permute bool, paths map[string]accessMode) []word {
	for opt := range paths {
		if strings.HasPrefix(opt, "--") && !contains(long, opt) {
			long = append(long[:len(long):len(long)], opt)
		}
	}
	return eachOption(args, short, long, permute, func(opt string, val *word) {
		if m, ok := paths[opt]; ok && val != nil {
			an.pathArg(*val, m, opt)
		}
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// shell looks inside sh -c and friends.
func (an *analyzer) shell(name string, args []word, depth int) bool {
	lang := syntax.LangBash
	switch name {
	case "sh", "dash", "ash", "yash":
		lang = syntax.LangPOSIX
	case "zsh":
		lang = syntax.LangZsh
	case "ksh", "mksh":
		lang = syntax.LangMirBSDKorn
	}
	withC, stdin, physical := false, false, false
	i := 0
options:
	for ; i < len(args); i++ {
		a := args[i]
		if a.dynamic || a.pattern || a.special {
			if withC {
				break options // the script
			}
			an.opaque("the options of " + name + " are only known when it runs")
			return false
		}
		t := a.text
		switch {
		case t == "--" || t == "-":
			i++
			break options
		case t == "--version" || t == "--help":
			return false
		case t == "--rcfile" || t == "--init-file":
			an.opaque(name + " " + t + " runs the commands of a file")
			i++
		case strings.HasPrefix(t, "--"):
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			for _, c := range t[1:] {
				switch c {
				case 'c':
					withC = true
				case 's':
					stdin = true
				case 'i':
					an.opaque(name + " -i runs startup files")
				case 'P':
					// -P (or +P, taken alike) is set -P: cd resolves
					// symbolic links before "..".
					physical = true
				case 'o', 'O':
					i++
					if i < len(args) && (args[i].dynamic || args[i].text == "physical") {
						physical = true
					}
				}
			}
		default:
			break options
		}
	}
	var ops []word
	if i < len(args) {
		ops = args[i:]
	}
	switch {
	case withC && len(ops) == 0:
		an.opaque(name + " -c has no command")
		return false
	case withC:
		s := ops[0]
		if s.dynamic || s.pattern || s.special {
			an.opaque("the script of " + name + " -c is only known when it runs")
			return false
		}
		if name == "zsh" {
			// zsh runs code from glob qualifiers (*(e:…:), *(+f)) and ties
			// lower-case names to PATH and friends (for path in …), which
			// the parser reads as plain words.
			an.opaque("zsh expands words in ways the analysis does not model")
		}
		outer := an.physical
		an.physical = outer || physical
		an.script(s.text, lang, depth+1)
		an.physical = outer
		return true
	case stdin || len(ops) == 0:
		an.opaque(name + " reads commands from its standard input")
	default:
		an.opaque(name + " runs the commands of a script file")
		an.pathArg(ops[0], modeRead, name)
	}
	return false
}

// strictSet reports whether args, given to the set builtin, only turn
// errexit, nounset and pipefail on or off (set -euo pipefail, set +e):
// options that stop a line early or fail it, and never change what a
// command it runs is or does. Any other option (-x runs PS4's expansions,
// -k moves assignments into the environment, -f, -a, -o posix …) or a
// positional parameter keeps set opaque.
func strictSet(args []word) bool {
	if len(args) == 0 {
		return false // set alone prints every variable and function
	}
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if args[i].dynamic || args[i].pattern || args[i].special || len(t) < 2 || t[0] != '-' && t[0] != '+' {
			return false
		}
		for j := 1; j < len(t); j++ {
			switch t[j] {
			case 'e', 'u':
			case 'o':
				if j != len(t)-1 || i+1 == len(args) {
					return false
				}
				i++
				switch args[i].text {
				case "errexit", "nounset", "pipefail":
				default:
					return false
				}
				if args[i].dynamic || args[i].pattern {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// env looks inside env. Only env with nothing but inert assignments
// (env GOOS=linux go build, see inertEnv), or none, before its command is
// transparent: any other assignment, -i, -u, -S, -C or any other option
// changes what the command runs or where, and makes the line opaque; the
// command is still recorded for deny rules.
func (an *analyzer) env(args []word, depth, chain int) bool {
	if len(args) == 0 {
		return false // env alone prints the environment
	}
	i := 0
	for i < len(args) && inertOperand(args[i]) {
		i++
	}
	if i < len(args) && args[i].text == "--" {
		i++
	}
	if i < len(args) && !strings.HasPrefix(args[i].text, "-") && !strings.Contains(args[i].text, "=") {
		return an.inner(args[i:], depth, chain)
	}
	for i < len(args) {
		t := args[i].text
		switch {
		case t == "--":
			i++
			an.opaque("env changes the environment of what it runs")
			an.inner(args[i:], depth, chain)
			return false
		case t == "-S" || t == "--split-string" || strings.HasPrefix(t, "-S") || strings.HasPrefix(t, "--split-string="):
			an.opaque("env " + clipName(t) + " builds its command at run time")
			if v, ok := strings.CutPrefix(t, "--split-string="); ok {
				an.evalScript([]word{{text: v}}, depth)
			} else if v := strings.TrimPrefix(t, "-S"); v != "" && v != t {
				an.evalScript([]word{{text: v}}, depth)
			} else if i+1 < len(args) {
				an.evalScript(args[i+1:], depth)
			}
			return false
		case t == "-u" || t == "--unset" || t == "-C" || t == "--chdir":
			i += 2
		case strings.HasPrefix(t, "-") || strings.Contains(t, "="):
			i++
		default:
			an.opaque("env changes the environment of what it runs")
			an.inner(args[i:], depth, chain)
			return false
		}
	}
	an.opaque("env changes the environment")
	return false
}

// sudo records the command sudo or doas runs, for deny rules, and makes the
// line opaque: what runs as another user (root, most often) is outside the
// workdir whatever it names, and even sudo -l, -v or -n true may prompt,
// read a password and change the user's cached credentials.
func (an *analyzer) sudo(name string, args []word, depth, chain int) {
	an.opaque(name + " runs as another user, which the workdir does not contain")
	short, long := "ugChpUrtTD", []string{"--user", "--group", "--host", "--prompt", "--other-user", "--role", "--type", "--chdir", "--close-from", "--command-timeout"}
	if name == "doas" {
		short, long = "uC", nil
	}
	shell, edit := false, false
	ops := eachOption(args, short, long, false, func(opt string, _ *word) {
		switch opt {
		case "-s", "-i", "--shell", "--login":
			shell = true
		case "-e", "--edit":
			edit = name == "sudo"
		case "-D", "--chdir":
			an.cwdUnknown = true
		}
	})
	switch {
	case edit:
		for _, op := range ops {
			an.pathArg(op, modeWrite, "sudoedit")
		}
	case shell:
		an.opaque(name + " runs a shell")
	default:
		// sudo takes VAR=value operands before the command, as env does.
		for len(ops) > 0 && isAssignment(ops[0].text) {
			an.opaque(name + " " + clipName(ops[0].text) + " changes the environment of what it runs")
			ops = ops[1:]
		}
		an.inner(ops, depth, chain)
	}
}

// isAssignment reports whether s has the form NAME=value.
func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for i := range len(name) {
		c := name[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// suShells are the shells su -s may name for the command of -c to be the
// bash script the analysis reads it as.
var suShells = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"/bin/sh": true, "/bin/bash": true, "/usr/bin/sh": true, "/usr/bin/bash": true,
		"/bin/dash": true, "/usr/bin/dash": true}
}}

// suShellOK reports whether every program su -s or --shell names (it
// runs the last) is one of suShells; a word only known when the line runs
// may name any.
func suShellOK(args []word) bool {
	for i, a := range args {
		t := a.text
		if a.dynamic {
			return false
		}
		if t == "--" {
			break
		}
		if strings.HasPrefix(t, "--") {
			n, v, hasVal := strings.Cut(t, "=")
			if len(n) >= 4 && strings.HasPrefix("--shell", n) {
				if !hasVal && i+1 < len(args) {
					v = args[i+1].text
				}
				if !suShells.get()[v] {
					return false
				}
			}
			continue
		}
		if !strings.HasPrefix(t, "-") {
			continue
		}
		// A cluster of one-letter options: c, g, G, s and w take a value.
		for k := 1; k < len(t); k++ {
			if strings.IndexByte("cgGw", t[k]) >= 0 {
				break
			}
			if t[k] == 's' {
				v := t[k+1:]
				if v == "" && i+1 < len(args) {
					v = args[i+1].text
				}
				if !suShells.get()[v] {
					return false
				}
				break
			}
		}
	}
	return true
}

// su records the command of su -c, for deny rules, and makes the line
// opaque: it runs as another user, as sudo does.
func (an *analyzer) su(name string, args []word, depth int) {
	an.opaque(name + " runs as another user, which the workdir does not contain")
	if !suShellOK(args) {
		// The command of -c runs as "PROGRAM -c COMMAND": python3 runs it
		// as python, a script the line wrote as itself.
		an.opaque(name + " -s runs its command with a program other than a shell the analysis reads")
	}
	for i := 0; i < len(args); i++ {
		t := args[i].text
		var script *word
		switch {
		case t == "-c" || t == "--command":
			if i+1 < len(args) {
				script = &args[i+1]
			}
		case strings.HasPrefix(t, "--command="):
			script = &word{text: strings.TrimPrefix(t, "--command="), dynamic: args[i].dynamic}
		case strings.HasPrefix(t, "-c") && !strings.HasPrefix(t, "--"):
			script = &word{text: t[2:], dynamic: args[i].dynamic}
		default:
			continue
		}
		if script == nil || script.dynamic || script.pattern {
			an.opaque("the command of " + name + " -c is only known when it runs")
			return
		}
		an.script(script.text, syntax.LangBash, depth+1)
		return
	}
	an.stdinOpaque(name + " without -c runs a shell that reads its standard input")
}

// find records find's start paths and the files -fprint and friends
// write; -exec and friends, -delete and the options it does not know make
// the line opaque.
func (an *analyzer) find(args []word, depth, chain int) {
	i := 0
	for i < len(args) && (args[i].text == "-H" || args[i].text == "-L" || args[i].text == "-P" || strings.HasPrefix(args[i].text, "-O") || strings.HasPrefix(args[i].text, "-D")) {
		i++
	}
	var starts []word
	for ; i < len(args); i++ {
		t := args[i].text
		if strings.HasPrefix(t, "-") || t == "(" || t == "!" || t == ")" || t == "," {
			break
		}
		starts = append(starts, args[i])
	}
	for ; i < len(args); i++ {
		switch t := args[i].text; t {
		case "-exec", "-execdir", "-ok", "-okdir":
			an.opaque("find " + t + " runs a command on the files it finds")
			var inner []word
			for i++; i < len(args) && args[i].text != ";" && args[i].text != "+"; i++ {
				inner = append(inner, args[i])
			}
			an.inner(inner, depth, chain)
		case "-delete":
			an.opaque("find -delete deletes the files it finds")
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(args) {
				an.pathArg(args[i+1], modeWrite, "find "+t)
			}
		}
	}
	for _, s := range starts {
		an.pathArg(s, modeRead, "find")
	}
}

// cd tracks the candidate working directories.
func (an *analyzer) cd(name string, args []word) {
	an.cwdChanged = true
	an.callCwds = nil // a wrapper's change of directory: see commandCwds
	if name == "popd" {
		return // back to a directory already among the candidates
	}
	ops := optionsEnd(args, "", nil)
	if len(ops) == 0 {
		if name == "pushd" {
			return
		}
		if an.home == "" {
			an.cwdUnknown = true
			return
		}
		ops = []word{{text: an.home}}
	}
	dir := ops[0]
	if dir.dynamic || dir.pattern || dir.text == "-" || strings.HasPrefix(dir.text, "+") || strings.HasPrefix(dir.text, "-") {
		an.cwdUnknown = true
		return
	}
	shell := name == "cd" || name == "pushd" // not go -C, whose change ends with it
	if shell && an.inLoop[an.callNode] && !path.IsAbs(dir.text) && path.Clean(dir.text) != "." {
		// A loop may run it again from where it led: for i in 1 2; do cd
		// sub; done enters sub/sub, which may be a link to the home
		// (redteam130).
		an.cwdUnknown = true
		return
	}
	if shell && an.cdElsewhere(dir.text) {
		// The environment's CDPATH or cdable_vars may take it elsewhere:
		// with CDPATH=.:~, cd .ssh enters ~/.ssh when the project has no
		// .ssh (redteam130).
		an.cwdUnknown = true
		return
	}
	if throughProcess(dir.text) {
		// A process's directory in /proc (or a descriptor in /dev/fd):
		// its cwd, root and fd entries lead where only the shell's own
		// process tells, and bash's cd, finding the cleaned path
		// /proc/self/x missing, goes the physical way instead: cd
		// /proc/self/cwd/../h is h beside the working directory.
		an.cwdUnknown = true
		return
	}
	if (physicalCd(args) || an.physical) && slices.Contains(strings.Split(dir.text, "/"), "..") {
		// cd -P resolves each symbolic link before the ".." after it:
		// cd -P link/.. is the parent of the link's target, which only
		// the file system tells (redteam66); so does every cd of bash -P
		// -c '…' and bash -o physical -c '…' (review66c).
		an.cwdUnknown = true
		return
	}
	var next []string
	for _, c := range an.a.cwds {
		d := dir.text
		if !path.IsAbs(d) && c != "" {
			d = c + "/" + d
		}
		if stepsBackAfterName(d) && (an.wroteBeforeCd() || !an.isDirNow(path.Clean(d))) {
			// bash's cd takes a/.. as the text says only when that
			// names a directory, and otherwise asks the kernel, which
			// steps back from where a link a led: cd inc/../evil (inc
			// a link to ../evil, no evil in the project) enters the
			// project's sibling evil. Both are candidates, unless the
			// text's reading is a directory the line did not get to
			// change before (cd link2/.. && echo hi > out.txt).
			phys, ok := an.physicalCwd(d)
			if !ok {
				an.cwdUnknown = true
				return
			}
			if !contains(an.a.cwds, phys) && !contains(next, phys) {
				next = append(next, phys)
			}
		}
		d = path.Clean(d)
		if !contains(an.a.cwds, d) && !contains(next, d) {
			next = append(next, d)
		}
	}
	if len(an.a.cwds)+len(next) > maxCwds {
		// The directories past the bound are dropped: a relative path
		// read there is judged by its text alone, and s/id_ed25519 read
		// in sub (s a link to ~/.ssh) looks like no secret.
		an.cwdUnknown = true
		an.opaque("the line changes to more working directories than the analysis checks")
		return
	}
	an.a.cwds = append(an.a.cwds, next...)
}

// physicalCwd returns the directory the kernel reaches for the cd
// operand d (relative to the workdir unless absolute), following links
// before each "..": relative to the workdir when within it, absolute
// otherwise; false when the workdir is not known.
func (an *analyzer) physicalCwd(d string) (string, bool) {
	if !path.IsAbs(d) {
		if an.workdir == "" {
			return "", false
		}
		d = an.workdir + "/" + d
	}
	phys := pathmatch.Resolve(d)
	if an.workdir == "" {
		return phys, true
	}
	for _, w := range []string{path.Clean(an.workdir), pathmatch.Resolve(an.workdir)} {
		switch {
		case phys == w:
			return "", true
		case strings.HasPrefix(phys, w+"/"):
			return strings.TrimPrefix(phys, w+"/"), true
		}
	}
	return phys, true
}

// wroteBeforeCd reports whether the line may have written, moved or
// removed something before the command being analyzed: a path written or
// given to a command the analysis does not model, or commands whose order
// the walk does not follow.
func (an *analyzer) wroteBeforeCd() bool {
	if an.unordered {
		return true
	}
	for _, acc := range an.a.accesses {
		if acc.mode != modeRead || acc.unknown {
			return true
		}
	}
	return false
}

// isDirNow reports whether d (relative to the workdir unless absolute)
// is a directory, through links, as the analysis runs.
func (an *analyzer) isDirNow(d string) bool {
	if !path.IsAbs(d) {
		if an.workdir == "" {
			return false
		}
		d = path.Join(an.workdir, d)
	}
	fi, err := os.Stat(d)
	return err == nil && fi.IsDir()
}

// throughProcess reports whether the path p, as written, starts in a
// process's directory in /proc (/proc/self/…, /proc/<pid>/…) or among the
// descriptors of /dev (/dev/fd/…, /dev/stdin …).
func throughProcess(p string) bool {
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	if !strings.HasPrefix(p, "/") || len(segs) < 2 {
		return false
	}
	switch segs[0] {
	case "proc":
		return pathmatch.IsProcess(segs[1])
	case "dev":
		return segs[1] == "fd" || segs[1] == "stdin" || segs[1] == "stdout" || segs[1] == "stderr"
	}
	return false
}

// physicalCd reports whether the options of cd (or pushd) args, before
// its operand, include -P (alone or among others, as -LP or -Pe): cd then
// follows the symbolic links of its operand before each "..", as bash's
// set -P makes every cd do.
func physicalCd(args []word) bool {
	for _, a := range args {
		t := a.text
		if a.dynamic || t == "--" || len(t) < 2 || t[0] != '-' {
			return false
		}
		if strings.Contains(t, "P") {
			return true
		}
	}
	return false
}

// evalScript records the commands of an eval whose words are all literal,
// so that deny rules see them; eval itself stays opaque.
func (an *analyzer) evalScript(args []word, depth int) {
	texts := make([]string, len(args))
	for i, a := range args {
		if a.dynamic || a.pattern || a.special {
			return
		}
		texts[i] = a.text
	}
	if len(texts) > 0 {
		an.script(strings.Join(texts, " "), syntax.LangBash, depth+1)
	}
}

// maxGuesses bounds the candidate inner commands seeInside records for one
// wrapper.
const maxGuesses = 4

// seeInside records what an opaque command seems to run, so that deny
// rules still see it. The line stays opaque: these units can only make a
// decision more restrictive.
func (an *analyzer) seeInside(name string, args []word, depth, chain int) {
	if _, ok := fileCommands.get()[name]; ok {
		an.fileCommand(name, args)
		return
	}
	switch name {
	case "eval", "watch":
		an.evalScript(optionsEnd(args, "nd", []string{"--interval", "--differences"}), depth)
		return
	case "xargs":
		an.inner(optionsEnd(args, "EdLnPsaI", []string{"--delimiter", "--eof", "--max-lines", "--max-args",
			"--max-procs", "--max-chars", "--arg-file", "--process-slot-var"}), depth, chain)
		return
	case "flock", "script", "su", "runuser":
		for i, a := range args {
			if (a.text == "-c" || a.text == "--command") && i+1 < len(args) {
				an.evalScript(args[i+1:i+2], depth)
				return
			}
		}
	}
	// Any word that does not look like an option may start the command.
	n := 0
	for i, a := range args {
		if strings.HasPrefix(a.text, "-") || a.dynamic || n >= maxGuesses {
			continue
		}
		n++
		an.inner(args[i:], depth, chain)
	}
}

// canonLong returns the long option of known that opt abbreviates, as GNU
// getopt_long accepts any unambiguous prefix, or opt itself when it is
// exact, ambiguous or unknown.
func canonLong(opt string, known []string) string {
	if contains(known, opt) || len(opt) < 3 {
		return opt
	}
	found := ""
	for _, k := range known {
		if strings.HasPrefix(k, opt) {
			if found != "" {
				return opt
			}
			found = k
		}
	}
	if found == "" {
		return opt
	}
	return found
}

// gioReads are the gio subcommands that only read.
var gioReads = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"info": true, "list": true, "cat": true, "tree": true, "help": true, "version": true, "monitor": true,
	}
}}

// hookInstallers are the tools that install git hooks (into .git/hooks,
// or by setting core.hooksPath in .git/config), with the words that make
// them do it; "" is a run with no arguments.
var hookInstallers = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"pre-commit": {"install", "init-templatedir", "uninstall"}, "lefthook": {"install", "add", "uninstall"},
		"husky": {"", "install", "init", "uninstall"}, "overcommit": {"--install", "-i", "--uninstall", "-u"},
		"simple-git-hooks": {""}, "ggshield": {"install"}, "talisman": {"--install", "-i"},
	}
}}

// hookInstall returns why the command name args installs git hooks (see
// hookInstallers), or "".
func hookInstall(name string, args []word) string {
	words, ok := hookInstallers.get()[name]
	if !ok {
		return ""
	}
	if name == "simple-git-hooks" || len(args) == 0 && contains(words, "") {
		return name + " installs git hooks"
	}
	for _, a := range args {
		if a.dynamic || contains(words, a.text) {
			return name + " " + clipName(a.text) + " installs git hooks"
		}
	}
	return ""
}

// npxOptions are the options of npx that neither choose what it runs nor
// change npm's configuration, and that npx knows take no value. Not --no,
// --no-fund or --no-audit: npx takes the word after them as their value,
// so it puts no "--" before the program's name, and npm reads the options
// after the name as its own (npx --no ver --node-options=--require=./y
// runs ./y in node).
var npxOptions = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"--no-install": true, "--yes": true, "-y": true, "--quiet": true,
		"-q": true, "--prefer-offline": true, "--offline": true}
}}

// npx records npx NAME ARGS as the program node_modules/.bin/NAME run with
// ARGS, which npx runs when the project has installed it there, as it runs
// package.json's scripts with the settings of .npmrc. What it runs
// otherwise, a package it fetches from the registry, the analysis does not
// know: the caller checks that the program exists (see
// Analysis.LocalPrograms). Any option but those in npxOptions (-p, -c,
// --call, npm's configuration such as --node-options or --script-shell),
// a package name with a version, a scope or a path, and a name only known
// when it runs are opaque.
func (an *analyzer) npx(args []word, depth, chain int) bool {
	i := 0
	for i < len(args) && npxOptions.get()[args[i].text] && !args[i].dynamic && !args[i].pattern {
		i++
	}
	if i < len(args) && args[i].text == "--" && !args[i].dynamic {
		i++
	}
	if i == len(args) {
		an.opaque("npx runs a command the analysis does not see")
		return false
	}
	prog := args[i]
	if prog.dynamic || prog.pattern || prog.special || !localBinName(prog.text) {
		an.opaque("npx runs " + clipName(prog.text) + ", which is no program a project installs by name")
		return false
	}
	an.usesCode("npx", "/", append([]string{".npmrc"}, languageFiles.get()["node"]...)...)
	bin := "node_modules/.bin/" + prog.text
	if len(an.a.localPrograms) >= maxAccessPaths {
		an.opaque("the line runs too many programs of node_modules to check")
		return false
	}
	an.a.localPrograms = append(an.a.localPrograms, bin)
	ws := append([]word{{text: bin}}, args[i+1:]...)
	return an.inner(ws, depth, chain)
}

// localBinName reports whether s can only name a program of a project's
// node_modules/.bin: a package's bin name with no version (tsc@5), scope
// (@types/x), path or option.
func localBinName(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '.' || s[0] == '-' || s[0] == '_' {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return true
}

// xargsLong are GNU xargs's long options, which it takes abbreviated.
var xargsLong = []string{"--null", "--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args",
	"--open-tty", "--interactive", "--no-run-if-empty", "--max-chars", "--show-limits", "--verbose", "--exit",
	"--max-procs", "--process-slot-var", "--help", "--version"}

// xargsReader records xargs running one of the plain readers (xargs grep
// -l TODO, xargs wc -l) as that reader given words only known when it runs,
// which is all xargs adds, and reports whether it did. It takes only the
// options that say how input is split and how many commands run: -0, -d,
// -n, -L, -P, -s, -r, -x, -t and their long forms, and -I (-i,
// --replace) when its replacement string stands only as a whole word of
// the command's arguments and no -L comes with it. Any other (-a, -E, -p, -o,
// --process-slot-var, which sets a variable in the command's
// environment), any other command, and a word only known when it runs
// leave xargs to the opaque commands.
func (an *analyzer) xargsReader(args []word, depth, chain int) bool {
	i := 0
	repl := ""     // the replacement string of -I, -i or --replace
	lines := false // -L or --max-lines, which GNU xargs lets cancel -I
	for ; i < len(args); i++ {
		a := args[i]
		if a.dynamic || a.pattern || a.special {
			return false
		}
		t := a.text
		if t == "--" {
			i++
			break
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			break
		}
		if strings.HasPrefix(t, "--") {
			opt, val, hasVal := strings.Cut(t, "=")
			switch canonLong(opt, xargsLong) {
			case "--null", "--no-run-if-empty", "--exit", "--verbose":
				if hasVal {
					return false
				}
			case "--max-args", "--max-procs", "--max-chars":
				if !hasVal {
					if i+1 == len(args) {
						return false
					}
					i++
					val = args[i].text
				}
				if !isDigits(val) || args[i].dynamic {
					return false
				}
			case "--replace":
				// Its value is optional: only --replace=R gives one.
				if repl = "{}"; hasVal {
					repl = val
				}
				if repl == "" {
					return false
				}
			case "--max-lines":
				// Its value is optional: only --max-lines=N gives one.
				if !isDigits(val) {
					return false
				}
				lines = true
			case "--delimiter":
				if !hasVal {
					if i+1 == len(args) || args[i+1].dynamic || args[i+1].pattern {
						return false
					}
					i++
				}
			default:
				return false
			}
			continue
		}
		for k := 1; k < len(t); k++ {
			switch c := t[k]; c {
			case '0', 'r', 'x', 't':
				continue
			case 'n', 'L', 'P', 's', 'd':
				val := t[k+1:]
				if val == "" {
					if i+1 == len(args) || args[i+1].dynamic || args[i+1].pattern {
						return false
					}
					i++
					val = args[i].text
				}
				if c != 'd' && !isDigits(val) {
					return false
				}
				lines = lines || c == 'L'
			case 'I':
				repl = t[k+1:]
				if repl == "" {
					if i+1 == len(args) || args[i+1].dynamic || args[i+1].pattern || args[i+1].special {
						return false
					}
					i++
					repl = args[i].text
				}
				if repl == "" {
					return false
				}
			case 'i':
				// -i, or -iR: its value is optional.
				if repl = t[k+1:]; repl == "" {
					repl = "{}"
				}
			default:
				return false
			}
			break
		}
	}
	cmd := args[i:]
	if len(cmd) == 0 {
		cmd = []word{{text: "echo"}} // what xargs runs by default
	}
	prog := cmd[0]
	if prog.dynamic || prog.pattern || prog.special || strings.Contains(prog.text, "/") || !dataArgs.get()[prog.text] {
		return false
	}
	switch prog.text {
	case "true", "false", ":":
		return false
	}
	input := word{text: "$(xargs input)", dynamic: true}
	if an.spelledInput() {
		// echo doc/a | xargs grep x, xargs cat <<< README: the names
		// are the input's words, which the checks of a.Inputs read.
		input.text = "$(xargs spelled input)"
	}
	if repl == "" {
		return an.inner(append(cmd[:len(cmd):len(cmd)], input), depth, chain)
	}
	if lines {
		// GNU xargs lets -L (--max-lines) given after -I cancel it,
		// with a warning: R is then passed as it is and the input
		// goes at the end; given before, -I cancels -L. Either order
		// leaves xargs opaque rather than follow which came last.
		return false
	}
	// -I R puts each input line, as one word, wherever R stands in the
	// command's words, and runs it once per line. A word that is R is
	// the input's word, as xargs without -I adds it; R within a word
	// (cat ../{}, cat {}/x) makes a name out of the input, which the
	// checks of the input's names do not see, and R in the program's
	// name (which GNU xargs keeps as it is; another xargs may not): both
	// leave xargs opaque.
	ws := make([]word, len(cmd))
	for j, w := range cmd {
		switch {
		case w.dynamic || w.pattern || w.special:
			// bash may make of it a word holding R that its text
			// does not show: ..{/\{,x}} is ../{} and ..x}, and
			// xargs then makes ../INPUT.
			return false
		case !strings.Contains(w.text, repl):
			ws[j] = w
		case j == 0 || w.text != repl:
			return false
		default:
			ws[j] = input
		}
	}
	return an.inner(ws, depth, chain)
}
