package shellscan

import (
	"path"
	"strings"
)

// linkKind says where a command of linkMaker may make links: nowhere it
// is known to (linkNone), at paths it does not name (linkAnywhere), in
// the virtual environments its operands name (linkVenv), or in the
// node_modules directories of the working directory, the directories
// above it and its workspaces (linkNodeModules).
type linkKind int

const (
	linkNone linkKind = iota
	linkAnywhere
	linkVenv
	linkNodeModules
)

// linkMaker says where the command name args, one the analysis otherwise
// leaves to the rule for programs it does not model, may make a symbolic
// or hard link leading where the analysis cannot tell: out of the
// workdir. A path the line writes after such a command is checked as it
// resolves before the line runs, when the link is not there yet. They are
//
//   - the programs that make a virtual environment, whose bin/python is a
//     link to the interpreter that made it (python3 -m venv v and
//     virtualenv v in the directory they name; tox, nox and hatch where
//     their settings say);
//   - the node package managers as they fill node_modules: npm and yarn
//     link a file: or link: dependency where it lies (file:../lib), pnpm,
//     bun and deno hard-link the files of their store (in the home) and of
//     a file: dependency;
//   - the other version control systems as they write a working copy,
//     which holds the symbolic links the repository holds, and repo sync,
//     whose manifest's linkfile lines make links;
//   - cmake -E create_symlink, create_hardlink and rename;
//   - symlink farms (lndir, stow, xstow), composer's path repositories,
//     the convenience links of nix build (result) and bazel (bazel-bin),
//     and the extractors that drive tar, unzip and their kin.
//
// Each family leaves out the commands known to write no working files
// (npm test, hg status, bazel version), and --version or --help alone.
func linkMaker(name string, args []word) linkKind {
	if onlyVersion(args) {
		return linkNone
	}
	if isPython(name) {
		mod, _, ok := pythonModule(args)
		if top, _, _ := strings.Cut(mod, "."); ok && (top == "venv" || top == "virtualenv") {
			return linkVenv
		}
		return linkNone
	}
	switch name {
	case "virtualenv":
		return linkVenv
	case "npm", "pnpm", "yarn", "bun", "deno":
		sub, ok := linkMakerSubcommand(args)
		switch {
		case !ok && name != "yarn":
			// Alone they print their help; yarn alone installs.
			return linkNone
		case name == "npm":
			if c := npmCommand(sub); c != "" {
				sub = c
			}
		case name == "deno":
			if !denoInstalls.get()[sub] {
				return linkNone
			}
			return linkNodeModules
		}
		if nodeNoInstall.get()[sub] && !(sub == "audit" && hasAny(args, "fix")) {
			return linkNone
		}
		return linkNodeModules
	case "hg", "chg", "svn", "bzr", "brz", "fossil", "jj", "sl", "repo", "bazel", "bazelisk", "composer":
		// Alone, they print their help (jj logs), which costs little to
		// take for a checkout.
		if sub, _ := linkMakerSubcommand(args); vcsNoCheckout.get()[sub] {
			return linkNone
		}
		return linkAnywhere
	case "gh":
		// gh pr checkout, repo clone, sync … check files out as git does.
		if ghBringsFiles(args) {
			return linkAnywhere
		}
		return linkNone
	case "nix":
		if hasAny(args, "build") && !hasAny(args, "--no-link") {
			return linkAnywhere
		}
		return linkNone
	case "cmake":
		// cmake -E create_symlink OLD NEW and create_hardlink make links,
		// and rename moves one, at paths the analysis takes for
		// operands of a program it does not model.
		for i, a := range args {
			if a.text == "-E" && i+1 < len(args) {
				switch sub := args[i+1]; {
				case sub.dynamic, sub.text == "create_symlink", sub.text == "create_hardlink", sub.text == "rename":
					return linkAnywhere
				}
				return linkNone
			}
		}
		return linkNone
	case "nix-build":
		if hasAny(args, "--no-out-link") {
			return linkNone
		}
		return linkAnywhere
	}
	if linkMakerPrograms.get()[name] {
		return linkAnywhere
	}
	return linkNone
}

// linkMakerSubcommand returns the first word of args that is no option:
// the subcommand, as far as the analysis can tell; a word only known when
// the line runs counts as none it knows (ok, with an empty name).
func linkMakerSubcommand(args []word) (string, bool) {
	for _, a := range args {
		if a.dynamic {
			return "", true
		}
		if !strings.HasPrefix(a.text, "-") {
			return a.text, true
		}
	}
	return "", false
}

// linkMakerPrograms are the programs that make links whatever their
// arguments (but --version and --help).
var linkMakerPrograms = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"pyvenv", "tox", "nox", "hatch", "lndir", "stow", "xstow",
		"aunpack", "atool", "dtrx", "unp", "xtract"} {
		m[n] = true
	}
	return m
}}

// nodeNoInstall are the commands of npm (resolved by npmCommand), pnpm,
// yarn and bun that do not install packages into node_modules.
var nodeNoInstall = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"run", "run-script", "test", "t", "tst", "start", "stop", "restart", "exec", "x",
		"dlx", "view", "info", "show", "ls", "list", "ll", "la", "outdated", "audit", "why", "explain", "pack",
		"publish", "version", "help", "prefix", "root", "bin", "whoami", "ping", "search", "docs", "bugs",
		"repo", "home", "fund", "doctor", "owner", "dist-tag", "token", "login", "logout", "adduser", "access",
		"org", "team", "star", "stars", "unstar", "deprecate", "unpublish", "query", "sbom", "diff", "completion",
		"find-dupes", "licenses", "build", "config", "get", "set", "cache", "store", "lint", "fmt", "check", "compile", "bench", "doc", "eval", "repl",
		"serve", "task", "types", "approve-scripts", "deny-scripts", "edit", "explore", "hlep", "trust",
		"undeprecate", "install-scripts", "pkg", "shrinkwrap", "stage"} {
		m[n] = true
	}
	return m
}}

// denoInstalls are deno's commands that fill node_modules or its
// vendor directory from deno's cache.
var denoInstalls = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"install": true, "i": true, "add": true, "remove": true, "rm": true, "uninstall": true,
		"cache": true, "outdated": true}
}}

// vcsNoCheckout are the commands of the version control systems (and
// bazel's and composer's) of linkMaker that write no working copy.
var vcsNoCheckout = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"status", "st", "stat", "log", "diff", "di", "help", "version", "root", "paths",
		"summary", "sum", "identify", "id", "annotate", "blame", "praise", "ann", "cat", "info", "heads",
		"tags", "branches", "files", "manifest", "grep", "outgoing", "out", "incoming", "in", "show", "list",
		"ls", "proplist", "pl", "propget", "pg", "evolog", "op", "obslog", "query", "cquery", "aquery",
		"shutdown", "license", "validate", "diagnose", "licenses", "search", "depends", "why", "why-not",
		"prohibits", "suggests", "fund", "about", "check-platform-reqs", "audit", "timeline", "changes",
		"whatsout", "cat-file", "forall", "branches", "print"} {
		m[n] = true
	}
	return m
}}

// A linkZone is where a command of linkMaker that ran before the
// accesses from index from on may have made links: beneath dir (resolved
// as an access's path), or with nodeModules beneath any node_modules
// directory.
type linkZone struct {
	dir         string
	nodeModules bool
	from        int
}

// linkMakerCall returns what wrapped defers for the command file args
// (name is the program it is judged as): a func that, once the command's
// own accesses are recorded, records where it may have made links (see
// linkMaker), and marks those accesses as a virtual environment's own
// when file is a program of one the line made (.venv/bin/pip install -e
// . writes the environment it belongs to, as it is made to).
func (an *analyzer) linkMakerCall(file, name string, args []word) func() {
	from := len(an.a.accesses)
	own := false
	for _, z := range an.linkZones {
		if !z.nodeModules && !path.IsAbs(file) && strings.Contains(file, "/") && strings.HasPrefix(path.Clean(file), path.Clean(z.dir)+"/") {
			own = true
		}
	}
	kind := linkMaker(name, args)
	var dirs []string
	if kind == linkVenv {
		ops := args
		if isPython(name) {
			_, ops, _ = pythonModule(args)
		}
		for _, a := range ops {
			if a.dynamic || a.pattern {
				kind = linkAnywhere
				break
			}
			if !strings.HasPrefix(a.text, "-") {
				dirs = append(dirs, a.text)
			}
		}
	}
	if kind == linkAnywhere && an.guess || an.guess && kind != linkNone {
		// A guessed command's state is dropped but for the links it
		// may make (see guessCommand).
		kind = linkAnywhere
	}
	return func() {
		if own {
			an.zoneOwn = append(an.zoneOwn, [2]int{from, len(an.a.accesses)})
		}
		switch kind {
		case linkAnywhere:
			an.mayLink()
			if !an.guess && an.checkoutAt == 0 {
				an.checkoutAt = len(an.a.accesses) + 1
			}
		case linkVenv:
			for _, d := range dirs {
				an.linkZones = append(an.linkZones, linkZone{dir: d, from: len(an.a.accesses)})
			}
		case linkNodeModules:
			an.linkZones = append(an.linkZones, linkZone{nodeModules: true, from: len(an.a.accesses)})
		}
	}
}

// maxZoneChecks bounds the work writesThroughZones does; a line with
// more is opaque.
const maxZoneChecks = 1 << 16

// writesThroughZones makes the line opaque when, after a command that may
// have made links in a zone (see linkZone), it writes, deletes or gives a
// command the analysis does not model a path that leads through the zone:
// one whose walk, component by component as the kernel takes it, steps
// beneath the zone's directory (v/bin/python, node_modules/lib/../../x),
// or, for a whole tree it writes or a command's word, a directory holding
// the zone (cp -r t ., tool .), whose files the command may reach through
// the links in it.
func (an *analyzer) writesThroughZones() {
	if len(an.linkZones) == 0 {
		return
	}
	budget := maxZoneChecks
	for _, z := range an.linkZones {
		from := z.from
		if an.unordered {
			from = 0
		}
		for i := min(from, len(an.a.accesses)); i < len(an.a.accesses); i++ {
			acc := an.a.accesses[i]
			if acc.mode == modeRead && !acc.unknown || acc.own || acc.path == "/dev/null" {
				continue
			}
			if budget -= len(an.a.cwds) * len(an.a.cwds); budget < 0 {
				an.opaque("the line makes links and names too many paths to check")
				return
			}
			if an.zoneHit(z, acc, an.zoneOwned(i)) {
				an.opaque("the command writes " + clipName(acc.path) + " after a command that may make links there that lead out of the workdir (a virtual environment's python, a package in node_modules)")
				return
			}
		}
	}
}

// readsThroughNodeModules makes the line opaque when, after a package
// manager filled node_modules (see linkNodeModules), it reads a path
// beneath a node_modules directory, or a word or pattern only known when
// it runs: npm and yarn link a file: dependency where it lies, anywhere
// (npm install && cat node_modules/h/.ssh/id_ed25519 printed the key of
// a project whose package.json depends on file:../home, and was allowed,
// round redteam132), or a directory holding node_modules, which a
// recursive read may walk (grep -R KEY .), and the caller checks the
// links the project holds before the line runs. The code a command runs from there (node
// node_modules/x/cli.js) is the packages' own.
func (an *analyzer) readsThroughNodeModules() {
	for _, z := range an.linkZones {
		if !z.nodeModules {
			continue
		}
		from, dynamic := an.readsAfter(z.from)
		if dynamic {
			an.opaque("the line reads files only known when it runs after a package manager may have linked packages from outside the workdir into node_modules")
			return
		}
		for _, acc := range an.a.accesses[from:] {
			if acc.mode != modeRead || acc.own || acc.runs {
				continue
			}
			for _, c := range an.a.cwds {
				p := an.resolve(c, acc.path)
				holds := false
				for _, c2 := range an.a.cwds {
					// A directory holding the node_modules of a working
					// directory, which a recursive read may walk (grep
					// -R KEY .).
					holds = holds || within(an.resolve(c2, "."), p)
				}
				if beneathNodeModules(p) || holds {
					an.opaque("the command reads " + clipName(acc.path) + " after a package manager may have linked a package from outside the workdir there")
					return
				}
			}
		}
	}
}

// zoneOwned reports whether the access at index i is one of a program of
// a virtual environment the line made (see linkMakerCall).
func (an *analyzer) zoneOwned(i int) bool {
	for _, r := range an.zoneOwn {
		if r[0] <= i && i < r[1] {
			return true
		}
	}
	return false
}

// zoneHit reports whether acc leads through the zone z, from any of the
// candidate working directories (see writesThroughZones); an access of
// a virtual environment's own program (own) is only checked for stepping
// beneath it.
func (an *analyzer) zoneHit(z linkZone, acc access, own bool) bool {
	holds := (acc.tree || acc.unknown) && !own
	if acc.pattern && (holds || strings.ContainsAny(path.Dir(acc.path), "*?[{")) {
		return true
	}
	for _, c := range an.a.cwds {
		full := acc.path
		if !path.IsAbs(full) && c != "" {
			full = c + "/" + full
		}
		if !path.IsAbs(full) {
			full = an.workdir + "/" + full
		}
		if z.nodeModules {
			if beneathNodeModules(full) {
				return true
			}
			if holds {
				// A directory holding the node_modules of a working
				// directory or of one above it.
				p := path.Clean(full)
				for _, c2 := range an.a.cwds {
					for d := an.resolve(c2, "."); ; d = path.Dir(d) {
						if within(path.Join(d, "node_modules"), p) {
							return true
						}
						if d == "/" || d == "." {
							break
						}
					}
				}
			}
			continue
		}
		for _, c2 := range an.a.cwds {
			dir := an.resolve(c2, z.dir)
			if steps(full, dir) || holds && within(dir, path.Clean(full)) {
				return true
			}
		}
	}
	return false
}

// steps reports whether the walk of the path full (absolute, not
// cleaned), taking "." and ".." as the kernel does once links are set
// aside, steps beneath dir at some point.
func steps(full, dir string) bool {
	var stack []string
	for _, c := range strings.Split(full, "/") {
		switch c {
		case "", ".":
			continue
		case "..":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		stack = append(stack, c)
		if cur := "/" + strings.Join(stack, "/"); cur != dir && within(cur, dir) {
			return true
		}
	}
	return false
}

// beneathNodeModules reports whether the walk of the path full steps
// beneath a directory named node_modules (in any letter case, as a
// case-insensitive file system takes it) at some point.
func beneathNodeModules(full string) bool {
	comps := strings.Split(full, "/")
	for i, c := range comps {
		if foldCase(c) == "node_modules" && i+1 < len(comps) {
			for _, rest := range comps[i+1:] {
				if rest != "" && rest != "." {
					return true
				}
			}
		}
	}
	return false
}

// assignedValues appends to strs the value of each that is a NAME=VALUE
// assignment (and of a value that is one in turn): the operand of -o
// ProxyCommand=CMD, sftp.command=CMD, or the value --ssh-options=-oX=CMD
// carries. NAME holds no blank or quote; dashes before it are an
// option's.
func assignedValues(strs []string) []string {
	for k := 0; k < len(strs) && k < 8; k++ {
		i := strings.IndexByte(strs[k], '=')
		if i <= 0 || strings.ContainsAny(strs[k][:i], " \t\n'\"") || strings.TrimLeft(strs[k][:i], "-") == "" {
			continue
		}
		if v := strs[k][i+1:]; !contains(strs, v) {
			strs = append(strs, v)
		}
	}
	return strs
}
