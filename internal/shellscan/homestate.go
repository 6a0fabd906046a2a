package shellscan

import (
	"path"
	"strings"
)

// This file models the programs whose work is to change state kept
// outside the workdir: the caches, keys and credentials in the home
// directory, the programs a package or version manager installs where the
// user's PATH finds them, the site-packages of an interpreter, and the
// containers and virtual machines of a local cluster. A line that runs one
// of them so is opaque, as one that writes outside the workdir by a path
// it names is.

// homeWriters are the tools with a subcommand that deletes a cache in the
// home directory (go clean -modcache, pip cache purge), or writes keys or
// credentials there (cargo login), as configWriters maps them: each
// subcommand to the words after it that make it do so, "" for any word.
var homeWriters = lazy[map[string]map[string][]string]{build: func() map[string]map[string][]string {
	login := []string{""}
	pip := map[string][]string{"cache": {"purge", "remove", "rm"}}
	ipython := map[string][]string{"profile": {"create"}, "history": {"clear", "trim"}}
	return map[string]map[string][]string{
		// Caches. go clean -i removes the installed programs of its
		// packages (~/go/bin/x).
		"go": {"clean": {"-modcache", "--modcache", "-cache", "--cache", "-testcache", "--testcache",
			"-fuzzcache", "--fuzzcache", "-i", "--i"}},
		"pip": pip, "pip3": pip,
		"npm":        {"cache": {"clean", "clear", "rm", "verify", "add", "npx"}},
		"yarn":       {"cache": {"clean"}},
		"pnpm":       {"store": {"prune", "add", "remove"}, "cache": {"delete"}},
		"uv":         {"cache": {"clean", "prune"}},
		"poetry":     {"cache": {"clear"}},
		"bun":        {"pm": {"rm"}},
		"deno":       {"clean": {""}},
		"composer":   {"clear-cache": {""}, "clearcache": {""}, "cc": {""}},
		"mvn":        {"dependency:purge-local-repository": {""}},
		"dotnet":     {"nuget": {"--clear", "-c"}},
		"pre-commit": {"clean": {""}, "gc": {""}},
		"ccache":     {"-C": {""}, "--clear": {""}, "--cleanup": {""}}, // not -c: ccache gcc -c x.c
		"nix":        {"store": {"gc", "delete", "optimise"}, "registry": {"add", "remove", "pin"}},
		// Keys and credentials.
		"cargo":           {"login": login, "logout": login},
		"gcloud":          {"auth": {"login", "activate-service-account", "application-default", "revoke", "configure-docker"}},
		"az":              {"login": login, "logout": login, "account": {"set", "clear"}},
		"heroku":          {"login": login, "logout": login, "auth:login": login, "auth:logout": login},
		"netlify":         {"login": login, "logout": login},
		"vercel":          {"login": login, "logout": login},
		"fly":             {"auth": {"login", "logout", "signup"}},
		"flyctl":          {"auth": {"login", "logout", "signup"}},
		"firebase":        {"login": login, "logout": login},
		"wrangler":        {"login": login, "logout": login},
		"doctl":           {"auth": {"init", "switch", "remove"}},
		"terraform":       {"login": login, "logout": login},
		"tofu":            {"login": login, "logout": login},
		"vault":           {"login": login},
		"pulumi":          {"login": login, "logout": login},
		"huggingface-cli": {"login": login, "logout": login, "delete-cache": login},
		"hf":              {"auth": {"login", "logout", "switch"}, "cache": {"delete", "rm", "prune"}},
		"helm":            {"registry": {"login", "logout"}},
		"oras":            {"login": login, "logout": login},
		"crane":           {"auth": {"login", "logout"}},
		"skopeo":          {"login": login, "logout": login},
		"gem":             {"signin": login, "signout": login},
		"glab":            {"auth": {"login", "logout"}},
		"stripe":          {"login": login, "logout": login},
		"railway":         {"login": login, "logout": login},
		"supabase":        {"login": login, "logout": login},
		"ngrok":           {"authtoken": login, "config": {"add-authtoken", "add-api-key"}},
		"snyk":            {"auth": login, "logout": login},
		"sentry-cli":      {"login": login},
		"op":              {"signin": login, "signout": login, "account": {"add", "forget"}},
		// IPython's profile create (--reset overwrites the profile's
		// ipython_config.py) and history clear and trim (its database)
		// write ~/.ipython (redteam60).
		"ipython":  ipython,
		"ipython3": ipython,
		"IPython":  ipython,
	}
}}

// homeWrite returns why the command name args deletes a cache or writes
// keys or credentials outside the workdir (see homeWriters), or "".
func homeWrite(name string, args []word) string {
	if sub := writingSubcommand(homeWriters.get(), name, args); sub != "" {
		return name + " " + clipName(sub) + " deletes or writes files outside the workdir (a cache, keys, credentials)"
	}
	return ""
}

// stateTools are the package managers, version managers and local
// cluster tools whose subcommands install, remove or switch programs
// outside the workdir (brew's prefix, ~/.volta, ~/.pyenv, /usr, the
// system's package database) or create containers and virtual machines,
// with the subcommands that only show state; as containerReadOnly, a
// subcommand maps to nil when it only shows state whatever follows, or
// to the words after it that make it do so. Any other first word (an
// option included) makes the line opaque: what they install runs in
// later commands, the user's own included.
var stateTools = lazy[map[string]map[string][]string]{build: func() map[string]map[string][]string {
	help := map[string][]string{"--version": nil, "-v": nil, "-V": nil, "version": nil, "--help": nil, "-h": nil, "help": nil}
	with := func(ro map[string][]string) map[string][]string {
		for k, v := range help {
			if _, ok := ro[k]; !ok {
				ro[k] = v
			}
		}
		return ro
	}
	envs := func() map[string][]string {
		// pyenv and its kin: install --list only lists; local writes the
		// version file of the working directory.
		return with(map[string][]string{"versions": nil, "version-name": nil, "version-file": nil,
			"version-origin": nil, "which": nil, "whence": nil, "root": nil, "prefix": nil, "commands": nil,
			"completions": nil, "local": nil, "install": {"--list", "-l"}, "shims": nil, "init": nil})
	}
	conda := func() map[string][]string {
		// config and run are judged first (configWriters, runners).
		return with(map[string][]string{"list": nil, "info": nil, "search": nil, "env": {"list", "export"},
			"doctor": nil, "compare": nil, "notices": nil, "config": nil, "run": nil})
	}
	pacman := with(map[string][]string{"-Ss": nil, "-Si": nil, "-Sii": nil, "-Sl": nil, "-Sg": nil})
	dnf := func() map[string][]string {
		return with(map[string][]string{"list": nil, "info": nil, "search": nil, "repolist": nil, "provides": nil,
			"whatprovides": nil, "repoquery": nil, "check-update": nil, "deplist": nil, "history": {"list", "info"}})
	}
	m := map[string]map[string][]string{
		"brew": with(map[string][]string{"list": nil, "ls": nil, "info": nil, "abv": nil, "search": nil,
			"config": nil, "doctor": nil, "dr": nil, "outdated": nil, "deps": nil, "uses": nil, "leaves": nil,
			"desc": nil, "--prefix": nil, "--cellar": nil, "--cache": nil, "--repository": nil, "--repo": nil,
			"--env": nil, "commands": nil, "shellenv": nil, "log": nil, "formulae": nil, "casks": nil}),
		"volta": with(map[string][]string{"list": nil, "ls": nil, "which": nil, "completions": nil}),
		"asdf": with(map[string][]string{"list": nil, "current": nil, "where": nil, "which": nil, "info": nil,
			"latest": nil, "plugin": {"list"}, "plugin-list": nil, "plugin-list-all": nil}),
		"mise": with(map[string][]string{"ls": nil, "list": nil, "current": nil, "where": nil, "which": nil,
			"doctor": nil, "env": nil, "ls-remote": nil, "latest": nil, "settings": {"get", "ls", "list"},
			"plugins": {"ls", "list"}, "tasks": {"ls", "list", "info"}, "exec": nil, "x": nil}),
		"sdk": with(map[string][]string{"list": nil, "ls": nil, "current": nil, "c": nil, "v": nil, "h": nil,
			"home": nil}),
		"nvm": with(map[string][]string{"ls": nil, "list": nil, "current": nil, "which": nil, "ls-remote": nil,
			"version-remote": nil}),
		"n": with(map[string][]string{"ls": nil, "list": nil, "ls-remote": nil, "lsr": nil, "which": nil}),
		"fnm": with(map[string][]string{"list": nil, "ls": nil, "current": nil, "ls-remote": nil,
			"list-remote": nil, "env": nil, "completions": nil}),
		"pyenv": envs(), "rbenv": envs(), "goenv": envs(), "nodenv": envs(), "jenv": envs(), "plenv": envs(),
		"tfenv":   with(map[string][]string{"list": nil, "list-remote": nil, "version-name": nil}),
		"ghcup":   with(map[string][]string{"list": nil, "debug-info": nil, "whereis": nil}),
		"juliaup": with(map[string][]string{"status": nil, "st": nil, "list": nil, "ls": nil}),
		"elan":    with(map[string][]string{"show": nil, "which": nil, "toolchain": {"list"}}),
		"snap": with(map[string][]string{"list": nil, "info": nil, "find": nil, "search": nil, "connections": nil,
			"services": nil, "changes": nil, "tasks": nil, "known": nil, "interfaces": nil, "aliases": nil,
			"logs": nil, "warnings": nil, "whoami": nil, "paths": nil}),
		"flatpak": with(map[string][]string{"list": nil, "info": nil, "search": nil, "remotes": nil,
			"remote-ls": nil, "remote-info": nil, "history": nil, "ps": nil}),
		"dnf": dnf(), "yum": dnf(), "microdnf": dnf(), "tdnf": dnf(),
		"apk": with(map[string][]string{"info": nil, "search": nil, "list": nil, "policy": nil, "dot": nil,
			"stats": nil}),
		"pacman": pacman, "yay": pacman, "paru": pacman,
		"zypper": with(map[string][]string{"search": nil, "se": nil, "info": nil, "if": nil, "list-updates": nil,
			"lu": nil, "repos": nil, "lr": nil, "packages": nil, "pa": nil, "patches": nil, "products": nil,
			"patterns": nil, "what-provides": nil, "wp": nil}),
		"port": with(map[string][]string{"installed": nil, "search": nil, "info": nil, "list": nil,
			"outdated": nil, "contents": nil, "deps": nil, "rdeps": nil, "variants": nil, "provides": nil,
			"location": nil, "dependents": nil, "echo": nil, "platform": nil, "notes": nil, "usage": nil}),
		"pkg": with(map[string][]string{"info": nil, "search": nil, "query": nil, "rquery": nil, "which": nil,
			"stats": nil}),
		"pkgin": with(map[string][]string{"list": nil, "ls": nil, "search": nil, "se": nil, "show-deps": nil, "sd": nil}),
		"opkg":  with(map[string][]string{"list": nil, "list-installed": nil, "info": nil, "status": nil, "find": nil}),
		"guix":  with(map[string][]string{"describe": nil, "search": nil, "show": nil}),
		"conda": conda(), "mamba": conda(), "micromamba": conda(),
		"pipenv": with(map[string][]string{"--venv": nil, "--where": nil, "--py": nil, "--envs": nil, "graph": nil, "requirements": nil, "scripts": nil, "run": nil}),
		// poetry puts a project's virtual environment in its cache
		// directory (~/.cache/pypoetry/virtualenvs) unless its settings
		// say otherwise, so install, add, remove, update and sync write
		// outside the workdir; self changes poetry's own.
		"poetry": with(map[string][]string{"build": nil, "check": nil, "show": nil, "lock": nil,
			"env": {"info", "list"}, "export": nil, "search": nil, "about": nil, "list": nil, "init": nil,
			"new": nil, "publish": nil, "cache": {"list"}, "source": nil, "debug": nil, "config": nil,
			"run": nil}),
		// hatch keeps a project's environments in its data directory
		// (~/.local/share/hatch/env) unless its settings say otherwise,
		// and creates them for env create, test, shell, build and fmt;
		// env remove and prune delete there (gate59).
		"hatch": with(map[string][]string{"version": nil, "status": nil, "new": nil, "publish": nil,
			"env": {"show", "find"}, "config": {"show", "find"}, "dep": {"show", "hash"}, "python": {"show", "find"},
			"run": nil}),
		// Python tools that install into the python that runs them, or
		// into the user's data directories (easy_install is among
		// opaqueCommands): spacy download by running pip, ipykernel
		// install and jupyter's kernelspec, labextension and nbextension
		// install into the
		// environment's share directory or with --user into the home,
		// jupyter trust writes the home's signature database, and
		// playwright install-deps (or install --with-deps) runs the
		// system's package manager.
		"spacy": with(map[string][]string{"info": nil, "validate": nil, "convert": nil, "train": nil,
			"pretrain": nil, "evaluate": nil, "debug": nil, "init": nil, "assemble": nil, "package": nil,
			"apply": nil, "benchmark": nil, "find-threshold": nil, "project": nil}),
		"ipykernel": with(map[string][]string{}),
		"jupyter": with(map[string][]string{"nbconvert": nil, "execute": nil, "--paths": nil, "--data-dir": nil,
			"--config-dir": nil, "--runtime-dir": nil, "kernelspec": {"list"}, "labextension": {"list"},
			"nbextension": {"list"}, "serverextension": {"list"}, "server": {"list"}, "troubleshoot": nil}),
		"playwright": with(map[string][]string{"codegen": nil, "show-trace": nil, "test": nil, "screenshot": nil,
			"pdf": nil, "open": nil}),
		// uv's project commands (sync, add, remove, lock, venv, init,
		// tree, export, build, version, run) lock and sync the
		// environment of the project uv finds in the working directory or
		// above it (a pyproject.toml or workspace root above the workdir,
		// or UV_PROJECT_ENVIRONMENT, puts it outside), and download a
		// python into ~/.local/share/uv when none fits; uv pip is
		// judged by uvPip, uv tool and uv python install by homeInstall.
		"uv": with(map[string][]string{"pip": nil, "cache": {"dir"}, "python": {"list", "find", "dir"},
			"tool": {"list", "dir"}, "self": {"version"}, "generate-shell-completion": nil, "publish": nil,
			"version": {"--short"}}),
		// Local clusters: they create containers or virtual machines,
		// and write ~/.kube/config, ~/.minikube and the like.
		"minikube": with(map[string][]string{"status": nil, "ip": nil, "profile": {"list"}, "addons": {"list"},
			"config": {"view", "get"}, "logs": nil, "service": {"list"}, "update-check": nil, "docker-env": nil,
			"podman-env": nil, "completion": nil}),
		"kind": with(map[string][]string{"get": nil, "completion": nil}),
		"k3d": with(map[string][]string{"cluster": {"list", "ls", "get"}, "node": {"list", "ls", "get"},
			"registry": {"list", "ls"}, "kubeconfig": {"get"}, "completion": nil}),
		"k3s":      with(map[string][]string{"check-config": nil, "completion": nil}),
		"microk8s": with(map[string][]string{"status": nil, "config": nil}),
		"kubeadm":  with(map[string][]string{"config": {"print"}, "token": {"list"}, "certs": {"check-expiration"}}),
		"k0s":      with(map[string][]string{"status": nil}),
		"colima":   with(map[string][]string{"list": nil, "ls": nil, "status": nil}),
		"limactl":  with(map[string][]string{"list": nil, "ls": nil, "info": nil}),
		"vagrant":  with(map[string][]string{"status": nil, "global-status": nil, "box": {"list"}, "plugin": {"list"}, "ssh-config": nil}),
	}
	m["rtx"] = m["mise"]
	for k, v := range listedByReadOnlyTools(with) {
		m[k] = v
	}
	addShellOnlySubcommands(m)
	return m
}}

// guessStateVerbs are the subcommands of stateTools that change state,
// by which a name guessed among an unmodelled command's words is taken
// for the tool run.
var guessStateVerbs = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"install": true, "uninstall": true, "add": true, "remove": true, "rm": true, "upgrade": true, "update": true,
		"use": true, "global": true, "create": true, "start": true, "delete": true, "reinstall": true, "link": true,
		"unlink": true, "cleanup": true, "clean": true, "prune": true, "purge": true, "self": true, "tap": true,
		"untap": true, "plugin": true, "plugins": true, "init": true, "enable": true, "disable": true, "up": true,
		"setup": true, "switch": true, "default": true, "alias": true, "set": true, "sync": true, "shell": true,
		"server": true, "agent": true, "cluster": true, "node": true, "env": true, "export": true, "join": true,
		"reset": true, "refresh": true, "revert": true, "pin": true, "unpin": true, "rehash": true, "i": true,
		"in": true, "ins": true, "instal": true, "un": true, "up-to-date": true, "dup": true, "dist-upgrade": true,
		"autoremove": true, "makecache": true, "selfupdate": true, "self-update": true, "halt": true, "destroy": true,
		"provision": true, "reload": true, "resume": true, "suspend": true, "stop": true, "pause": true,
		"unpause": true, "load": true, "mount": true, "ssh": true, "kubectl": true, "addons": true, "config": true,
		"profile": true, "service": true, "tunnel": true, "image": true, "cp": true,
	}
}}

// optionTools are the package managers whose first word is an option
// that says what they do, with the prefixes of those that only show
// state (pacman -Qi, nix-env -q, rpm -q).
var optionTools = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"pacman": {"-Q", "--query"}, "yay": {"-Q", "--query"}, "paru": {"-Q", "--query"},
		"nix-env":    {"-q", "--query", "--list-generations"},
		"emerge":     {"-s", "--search", "-S", "--searchdesc", "--info", "-p", "--pretend"},
		"xbps-query": {""}, "nix-channel": {"--list"}, "xbps-install": nil, "xbps-remove": nil, "eopkg": nil,
		"swupd": nil, "slackpkg": nil, "installpkg": nil, "removepkg": nil, "upgradepkg": nil, "pkg_add": nil,
		"pkg_delete": nil, "nix-collect-garbage": nil, "rpm": {"-q", "--query"},
	}
}}

// stateTool returns why the command name args of one of stateTools or
// optionTools changes state outside the workdir, or "". A word the
// analysis only knows when the line runs may be any subcommand.
func (an *analyzer) stateTool(name string, args []word) string {
	ro, ok := stateTools.get()[name]
	prefixes, byOption := optionTools.get()[name]
	if !ok && !byOption {
		return ""
	}
	why := name + " installs, removes or switches programs, or creates clusters, outside the workdir"
	if an.guess && ok {
		// A name guessed among the words of a command the analysis does
		// not model may be data (helm install n ./chart): only a verb
		// that changes state makes it the tool run (logsave log brew
		// install jq).
		if len(args) > 0 && (args[0].dynamic || guessStateVerbs.get()[args[0].text]) {
			return name + " " + clipName(args[0].text) + " may install, remove or switch programs, or create clusters, outside the workdir"
		}
		return ""
	}
	if len(args) == 0 {
		if name == "kind" || name == "k3d" || name == "microk8s" || name == "minikube" || name == "brew" ||
			name == "poetry" || name == "pipenv" || name == "conda" || name == "mamba" || name == "uv" || name == "hatch" {
			return "" // prints the usage
		}
		return why // pipenv installs, n opens a menu, yay upgrades
	}
	first := args[0]
	if first.dynamic || first.pattern {
		return why
	}
	if onlyVersion(args) {
		return ""
	}
	if ok {
		if subs, found := ro[first.text]; found && (subs == nil || len(args) > 1 && !args[1].dynamic && contains(subs, args[1].text)) {
			return ""
		}
	}
	if byOption && first.text != "" {
		for _, p := range prefixes {
			if strings.HasPrefix(first.text, p) && (p != "" || !strings.HasPrefix(first.text, "-")) {
				if name == "rpm" && rpmRunsCode(args) {
					return "rpm " + clipName(first.text) + " expands macros that may run commands"
				}
				return ""
			}
		}
	}
	return name + " " + clipName(first.text) + " may install, remove or switch programs, or create clusters, outside the workdir"
}

// rpmRunsCode reports whether rpm's words include an option that expands
// or defines macros, whose %(…) runs a shell, or pipes its output to a
// command.
func rpmRunsCode(args []word) bool {
	for _, a := range args {
		for _, o := range []string{"--eval", "-E", "--define", "-D", "--rcfile", "--macros", "--pipe", "--queryformat", "--qf"} {
			if a.text == o || strings.HasPrefix(a.text, o+"=") || len(o) == 2 && strings.HasPrefix(a.text, o) {
				return true
			}
		}
	}
	return false
}

// sshKeygenValues are the one-letter options of ssh-keygen that take a
// value.
const sshKeygenValues = "CDEFIJMNOPRVZabfgjmnrstwzY"

// sshKeygen returns why ssh-keygen args writes in ~/.ssh (or /etc/ssh),
// or "": without -f it writes the default key (~/.ssh/id_ed25519 …, the
// file it asks for on its standard input), hashes or edits
// ~/.ssh/known_hosts (-H, -R), or makes the host keys (-A). With -f its
// files are the words the caller checks, as any unmodelled command's; -F
// alone only looks a host up.
func sshKeygen(args []word) string {
	hasF, find, edits := false, false, false
	eachOption(args, sshKeygenValues, nil, false, func(opt string, val *word) {
		switch opt {
		case "-f":
			hasF = val != nil
		case "-F":
			find = true
		case "-R", "-H", "-A":
			edits = true
		}
	})
	switch {
	case onlyVersion(args):
		return ""
	case hasF:
		return ""
	case find && !edits:
		return ""
	}
	return "ssh-keygen without -f writes keys or known_hosts in ~/.ssh"
}

// gpgWrites are gpg's commands that write keys, trust or the smartcard's
// state (in ~/.gnupg, or the card): generating, importing, fetching,
// signing, editing and deleting keys and the trust database. The other
// commands write the files they are given or name (-o), which are words
// the caller checks, or nothing.
var gpgWrites = lazy[[]string]{build: func() []string {
	return []string{
		"--gen-key", "--generate-key", "--full-gen-key", "--full-generate-key", "--quick-gen-key",
		"--quick-generate-key", "--quick-add-key", "--quick-addkey", "--quick-add-uid", "--quick-adduid",
		"--quick-revoke-uid", "--quick-revuid", "--quick-revoke-sig", "--quick-set-expire", "--quick-set-primary-uid",
		"--quick-sign-key", "--quick-lsign-key", "--quick-set-ownertrust", "--import", "--recv-keys", "--recv-key",
		"--receive-keys", "--fetch-keys", "--refresh-keys", "--locate-keys", "--locate-external-keys",
		"--search-keys", "--edit-key", "--sign-key", "--lsign-key", "--delete-keys", "--delete-key",
		"--delete-secret-keys", "--delete-secret-key", "--delete-secret-and-public-keys",
		"--delete-secret-and-public-key", "--import-ownertrust", "--update-trustdb", "--check-trustdb",
		"--edit-card", "--card-edit", "--change-pin", "--passwd", "--desig-revoke", "--auto-key-retrieve",
		"--auto-key-locate",
	}
}}

// gpgExact are gpg's long options that are also the start of one of
// gpgWrites, which gpg takes as themselves.
var gpgExact = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"--sign": true}
}}

// gpg returns why gpg args writes keys or trust in ~/.gnupg (see
// gpgWrites; gpg takes an unambiguous abbreviation of a long option),
// or "". --homedir moves all of it to a directory the caller checks.
func (an *analyzer) gpg(args []word) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			return "gpg gets a word only known when it runs"
		}
		opt, _, _ := strings.Cut(a.text, "=")
		if opt == "--" {
			break
		}
		if opt == "--homedir" {
			v := strings.TrimPrefix(a.text, "--homedir=")
			if v == a.text && i+1 < len(args) {
				i++
				v = args[i].text
			}
			if v == "" || a.pattern || len(an.a.accesses) >= maxAccessPaths {
				return "gpg --homedir names a directory the analysis cannot check"
			}
			// Recorded as a directory whose code gpg runs (gpg.conf may
			// name programs), which the caller checks lies in the
			// workdir: a write would be code the line writes.
			an.a.accesses = append(an.a.accesses, access{mode: modeRead, path: v, runs: true})
			return gpgRuns(args)
		}
	}
	for _, a := range args {
		opt, _, _ := strings.Cut(a.text, "=")
		if opt == "--" {
			break
		}
		if !strings.HasPrefix(opt, "--") || len(opt) < 4 || gpgExact.get()[opt] {
			continue
		}
		for _, w := range gpgWrites.get() {
			if strings.HasPrefix(w, opt) {
				return "gpg " + clipName(opt) + " writes keys or trust in ~/.gnupg"
			}
		}
	}
	return gpgHome(args)
}

// venv reports whether prog, a pip or python, is named by a path into
// the bin directory of a virtual environment (.venv/bin/pip,
// venv/Scripts/python), and if so records the environment as a directory
// whose code the command runs, which the caller checks lies in the
// workdir, outside .git, from every candidate directory: pip writes into
// it. (A write would make the program run one the line writes.) It also
// records prog itself as an Access.Venv, whose caller checks that the
// program and the environment it installs into are those of a virtual
// environment whose files lie there (see homestate_venv.go).
func (an *analyzer) venv(prog string) bool {
	dir := path.Dir(prog)
	if !strings.Contains(prog, "/") || path.Base(dir) != "bin" && path.Base(dir) != "Scripts" {
		return false
	}
	env := path.Dir(dir)
	if env == "." || env == "/" || env == ".." || strings.HasSuffix(env, "/..") {
		return false
	}
	if an.guess {
		// A guessed command's accesses are not kept (see guessCommand):
		// the program could not be checked.
		return false
	}
	if len(an.a.accesses)+1 >= maxAccessPaths {
		an.opaque("the command touches too many paths to check")
		return true
	}
	an.a.accesses = append(an.a.accesses, access{mode: modeRead, path: env, runs: true},
		access{mode: modeRead, path: prog, venv: true})
	return true
}

// pipSubcommands are the subcommands of pip that change what an
// environment holds.
var pipSubcommands = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"install": true, "uninstall": true}
}}

// pythonDownloaders are the modules whose command line (python -m MOD)
// downloads data into the user's data directories, not into a cache the
// tool owns (as huggingface-cli download fills ~/.cache/huggingface, which
// stays allowed like go mod download), with the options that name the
// directory instead (a word the caller checks), and those that only show
// what there is: nltk.downloader writes ~/nltk_data, or the first
// writable directory of nltk's data path (NLTK_DATA, the python's
// prefix, /usr/share/nltk_data …), unless -d; textblob.download_corpora
// writes nltk's; gensim.downloader --download writes ~/gensim-data.
var pythonDownloaders = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"nltk.downloader":           {"-d", "--dir", "-h", "--help"},
		"textblob.download_corpora": nil,
		"gensim.downloader":         {"-i", "--info", "-h", "--help"},
	}
}}

// pythonDownloader returns why python -m mod args downloads data into the
// user's data directories (see pythonDownloaders), or "": an option of its
// entry is given, as optparse and argparse take it (-dDIR, --dir=DIR, a
// long name shortened to three characters or more).
func pythonDownloader(mod string, args []word) string {
	opts, ok := pythonDownloaders.get()[mod]
	if !ok {
		return ""
	}
	for _, a := range args {
		name, _, _ := strings.Cut(a.text, "=")
		for _, o := range opts {
			if a.dynamic {
				continue
			}
			if len(o) == 2 && strings.HasPrefix(a.text, o) || len(o) > 2 && len(name) >= 3 && strings.HasPrefix(o, name) {
				return ""
			}
		}
	}
	return "python -m " + mod + " downloads data into the user's data directories, outside the workdir"
}

// pipConfigReaders reports whether pip args is a pip download or pip
// wheel, which write where the settings of the user or the system may say
// (dest, wheel-dir).
func pipConfigReaders(args []word) bool {
	for _, a := range args {
		if a.text == "download" || a.text == "wheel" {
			return true
		}
	}
	return false
}

// pipInstall returns why pip, as prog args (pip install x, or python -m
// pip with prog the interpreter), installs or removes packages outside
// the workdir, or "". pip installs into the environment of the
// interpreter it runs with: the one PATH finds (the system's, a user
// site, a virtual environment anywhere) unless prog is a path. So it is
// allowed only when prog is named by a path in a virtual environment's
// bin directory (.venv/bin/pip, venv/bin/python -m pip: see venv), or when --target names where to install
// (as a word the caller checks). --user, --python (another interpreter)
// and --prefix and --root (which may remove the installed copy from the
// interpreter's own site-packages) are opaque.
func (an *analyzer) pipInstall(prog string, args []word) string {
	sub := ""
	for _, a := range args {
		if a.dynamic {
			return "pip gets a word only known when it runs"
		}
		if pipSubcommands.get()[a.text] && sub == "" {
			sub = a.text
		}
		if a.text == "--help" || a.text == "-h" {
			return ""
		}
	}
	// pip reads settings files the caller checks through the access
	// pipConfig records, which a guessed command does not keep (logsave
	// log pip install --target ./t x).
	const guessed = "pip among the words of a command the analysis does not model reads settings files (pip.conf) that are checked only for the command a line runs"
	if sub == "" {
		if pipConfigReaders(args) {
			if an.guess {
				return guessed
			}
			an.pipConfig()
		}
		return ""
	}
	target, inVenv := false, false
	for i, a := range args {
		opt, _, _ := strings.Cut(a.text, "=")
		switch {
		case opt == "--user" || len(opt) >= 4 && strings.HasPrefix("--user", opt):
			return "pip " + sub + " --user installs programs outside the workdir, where later commands find them"
		case opt == "--pre":
			// Pre-releases, an option of its own.
		case (opt == "--python" || len(opt) >= 5 && strings.HasPrefix("--python", opt)) && an.pipPythonVenv(args, i):
			inVenv = true
		case opt == "--python" || opt == "--prefix" || opt == "--root" ||
			len(opt) >= 5 && (strings.HasPrefix("--python", opt) || strings.HasPrefix("--prefix", opt)):
			return "pip " + clipName(opt) + " installs into an environment the analysis does not check"
		case opt == "--target" || opt == "-t" || len(opt) >= 5 && strings.HasPrefix("--target", opt) ||
			strings.HasPrefix(a.text, "-t") && !strings.HasPrefix(a.text, "--"):
			target = sub == "install"
		}
	}
	if target || inVenv || an.venv(prog) || an.pathVenv(prog) {
		if an.guess {
			return guessed
		}
		an.pipConfig()
		return ""
	}
	return "pip " + sub + " installs into the environment of the python PATH finds, which may lie outside the workdir; name the pip of a virtual environment in the workdir (.venv/bin/pip) or give --target"
}

// homeStateName reports whether name is a program this file models, so
// that the analysis looks at it among the words of a command it does not
// model (logsave log brew install jq), as at any other.
func homeStateName(name string) bool {
	if _, ok := homeWriters.get()[name]; ok {
		return true
	}
	if _, ok := homeInstallers.get()[name]; ok {
		return true
	}
	if _, ok := stateTools.get()[name]; ok {
		return true
	}
	if _, ok := macosTools.get()[name]; ok {
		return true
	}
	_, ok := optionTools.get()[name]
	return ok || keyStoreName(name) || name == "ssh-keygen" || name == "gpg" || name == "gpg2" || name == "kubectl" ||
		strings.TrimRight(name, "0123456789.-") == "pip"
}

// homeState returns why the command prog args (name its program's name)
// changes state outside the workdir, as this file models it, or "".
func (an *analyzer) homeState(prog, name string, args []word) string {
	if why := homeStateAliases(name, args); why != "" {
		return why
	}
	if why := homeWrite(name, args); why != "" {
		return why
	}
	if why := autocompleteInstall(name, args); why != "" {
		return why
	}
	if why := rt60HomeWrite(name, args); why != "" {
		return why
	}
	if why := keyStore(name, args, an.guess); why != "" {
		return why
	}
	if why := macosState(name, args); why != "" {
		return why
	}
	switch {
	case name == "ssh-keygen":
		return sshKeygen(args)
	case name == "gpg" || name == "gpg2":
		return an.gpg(args)
	case strings.TrimRight(name, "0123456789.-") == "pip" && an.guess && an.uvPipWords && prog == "pip":
		// uv pip's own pip, which uvPip judged (-p is its --python).
		return ""
	case strings.TrimRight(name, "0123456789.-") == "pip":
		return an.pipInstall(prog, args)
	case name == "uv" && len(args) > 0 && args[0].text == "pip":
		return an.uvPip(args[1:])
	}
	return an.stateTool(name, args)
}

// uvPip returns why uv pip args installs or removes packages outside the
// workdir, or "": uv pip installs into the virtual environment that
// VIRTUAL_ENV names or that it finds in the working directory or any
// directory above it, or, with --system, the system's; so only --target
// (with no --python, or one allowed so), or --python naming the
// interpreter of a virtual environment by a path (its environment
// recorded as pipInstall does), is allowed, and then
// uv's configuration (uv.toml, pyproject.toml's [tool.uv.pip]), which may
// name another target, prefix or interpreter, is checked by the caller
// (see uvPipSound).
func (an *analyzer) uvPip(args []word) string {
	sub := ""
	for _, a := range args {
		if a.dynamic {
			return "uv pip gets a word only known when it runs"
		}
		if !strings.HasPrefix(a.text, "-") {
			sub = a.text
			break
		}
	}
	switch sub {
	case "install", "uninstall", "sync":
	default:
		return ""
	}
	python, target, noConfig := "", false, false
	for i, a := range args {
		opt, v, hasVal := strings.Cut(a.text, "=")
		switch opt {
		case "--target", "-t":
			target = sub != "uninstall"
		case "--python", "-p":
			if !hasVal && i+1 < len(args) {
				v = args[i+1].text
			}
			python = v
		case "--system", "--break-system-packages", "--prefix", "--user":
			return "uv pip " + sub + " " + opt + " installs outside the workdir"
		case "--config-file":
			return "uv pip " + sub + " --config-file reads settings the analysis does not check"
		case "--no-config":
			noConfig = true
		default:
			if strings.HasPrefix(a.text, "-p") && !strings.HasPrefix(a.text, "--") {
				python = a.text[2:]
			}
		}
	}
	switch {
	case python != "" && (strings.HasPrefix(python, "/") || !an.venv(python)):
		// An absolute path stays opaque, as pip's --python (see
		// pipPythonVenv).
		return "uv pip " + sub + " --python names an interpreter that is no virtual environment's by a path (it may be one uv downloads, or one outside the workdir)"
	case python != "":
		// The interpreter is code uv runs: one the line writes first is
		// the line's own.
		an.usesCode("uv", python)
	case !target:
		return "uv pip " + sub + " installs into the virtual environment VIRTUAL_ENV names or uv finds above the working directory; run the pip of a virtual environment in the workdir (.venv/bin/pip) instead"
	}
	if !noConfig {
		an.uvConfig()
	}
	return ""
}

// kubectlBuiltins are kubectl's own subcommands; any other first
// operand names a plugin, the program kubectl-NAME that PATH finds.
var kubectlBuiltins = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"get": true, "describe": true, "create": true, "apply": true, "delete": true, "edit": true, "patch": true,
		"replace": true, "run": true, "expose": true, "set": true, "explain": true, "logs": true, "exec": true,
		"attach": true, "port-forward": true, "proxy": true, "cp": true, "auth": true, "debug": true, "events": true,
		"diff": true, "top": true, "cluster-info": true, "certificate": true, "cordon": true, "uncordon": true,
		"drain": true, "taint": true, "rollout": true, "scale": true, "autoscale": true, "label": true,
		"annotate": true, "completion": true, "alpha": true, "api-resources": true, "api-versions": true,
		"config": true, "plugin": true, "version": true, "wait": true, "kustomize": true, "options": true, "help": true,
	}
}}

// clusterInner returns the command that name args runs as its own: the
// plugin kubectl runs for a subcommand it does not have (kubectl foo x
// runs kubectl-foo x, as the unknown program it is), or the kubectl, ctr
// or helm that k3s and microk8s run; nil for any other.
func clusterInner(name string, args []word) []word {
	if name != "kubectl" {
		if len(args) == 0 {
			return nil
		}
		switch args[0].text {
		case "kubectl", "crictl", "ctr", "helm", "helm3":
			return args
		}
		return nil
	}
	at, why := kubectlGlobals.get().firstCommand(name, args)
	if why != "" || at == len(args) || kubectlBuiltins.get()[args[at].text] {
		return nil // a word or an option the analysis does not know: remoteState makes the line opaque
	}
	return append([]word{{text: "kubectl-" + args[at].text}}, args[at+1:]...)
}
