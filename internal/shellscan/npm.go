package shellscan

import (
	"strings"
)

// npm takes any unambiguous prefix of a command or an alias name, a
// camelCase spelling, aliases and common typos for its commands (npm exe,
// npm conf, npm x, npm rum, npm urn, npm runScript), and its options
// before the command as well as after it (npm --silent exec). The model
// below resolves the command word as npm 11 does, so that each spelling
// is decided as the command it names.

// npmCommands are npm 11's commands.
var npmCommands = []string{
	"access", "adduser", "approve-scripts", "audit", "bugs", "cache", "ci", "completion", "config", "dedupe",
	"deny-scripts", "deprecate", "diff", "dist-tag", "docs", "doctor", "edit", "exec", "explain", "explore",
	"find-dupes", "fund", "get", "help", "help-search", "init", "install", "install-ci-test",
	"install-scripts", "install-test", "link", "ll", "login", "logout", "ls", "org", "outdated", "owner",
	"pack", "ping", "pkg", "prefix", "profile", "prune", "publish", "query", "rebuild", "repo", "restart",
	"root", "run", "sbom", "search", "set", "shrinkwrap", "stage", "star", "stars", "start", "stop", "team",
	"test", "token", "trust", "undeprecate", "uninstall", "unpublish", "unstar", "update", "version", "view",
	"whoami",
}

// npmAliases are the other names npm 11 takes for its commands: each
// maps to a command or to another alias.
var npmAliases = lazy[map[string]string]{build: func() map[string]string {
	return map[string]string{
		"author": "owner", "home": "docs", "issues": "bugs", "info": "view", "show": "view", "find": "search",
		"add": "install", "unlink": "uninstall", "remove": "uninstall", "rm": "uninstall", "r": "uninstall",
		"un": "uninstall", "rb": "rebuild", "list": "ls", "ln": "link", "create": "init", "i": "install",
		"it": "install-test", "cit": "install-ci-test", "u": "update", "up": "update", "c": "config",
		"s": "search", "se": "search", "tst": "test", "t": "test", "ddp": "dedupe", "v": "view",
		"run-script": "run", "clean-install": "ci", "clean-install-test": "install-ci-test", "x": "exec",
		"why": "explain", "la": "ll", "verison": "version", "ic": "ci", "innit": "init", "in": "install",
		"ins": "install", "inst": "install", "insta": "install", "instal": "install", "isnt": "install",
		"isnta": "install", "isntal": "install", "isntall": "install", "install-clean": "ci",
		"isntall-clean": "ci", "hlep": "help", "dist-tags": "dist-tag", "upgrade": "update", "udpate": "update",
		"rum": "run", "sit": "install-ci-test", "urn": "run", "ogr": "org", "add-user": "adduser",
	}
}}

// npmNames are the commands and the alias names, among which a prefix
// must be unique.
var npmNames = lazy[[]string]{build: func() []string {
	names := append([]string(nil), npmCommands...)
	for a := range npmAliases.get() {
		names = append(names, a)
	}
	return names
}}

// npmCommand returns the command npm runs for the command word w, or ""
// when npm knows none (it then prints an error and runs nothing). An
// upper-case letter stands for a dash and the letter (installTest is
// install-test); then a command or an alias by its name; else a prefix of
// exactly one command or alias name, the alias resolved.
func npmCommand(w string) string {
	if w == "" {
		return ""
	}
	var b strings.Builder
	for _, r := range w {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('-')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	w = b.String()
	for _, c := range npmCommands {
		if c == w {
			return c
		}
	}
	if c, ok := npmAliases.get()[w]; ok {
		return npmResolve(c)
	}
	match := ""
	for _, n := range npmNames.get() {
		if strings.HasPrefix(n, w) {
			if match != "" {
				return "" // ambiguous
			}
			match = n
		}
	}
	return npmResolve(match)
}

// npmResolve follows aliases to a command.
func npmResolve(n string) string {
	for i := 0; i < 4; i++ {
		c, ok := npmAliases.get()[n]
		if !ok {
			return n
		}
		n = c
	}
	return n
}

// npmValueOptions are npm options that take the next word as their value
// when not given as --name=value; npmFlagOptions are options known to take
// none (but a following true or false). The short ones are npm's
// shorthands.
var (
	npmValueOptions = lazy[map[string]bool]{build: func() map[string]bool {
		return map[string]bool{
			"--prefix": true, "-C": true, "--workspace": true, "-w": true, "--loglevel": true, "--registry": true,
			"--cache": true, "--userconfig": true, "--globalconfig": true, "--tag": true, "--otp": true,
			"--scope": true, "--include": true, "--omit": true, "--call": true, "-c": true,
		}
	}}
	npmFlagOptions = lazy[map[string]bool]{build: func() map[string]bool {
		return map[string]bool{
			"-s": true, "--silent": true, "-q": true, "--quiet": true, "-g": true, "--global": true, "-y": true,
			"--yes": true, "-f": true, "--force": true, "-d": true, "-dd": true, "-ddd": true, "--verbose": true,
			"--json": true, "-l": true, "--long": true, "-p": true, "--parseable": true, "--offline": true,
			"--prefer-offline": true, "--prefer-online": true, "--dry-run": true, "--ignore-scripts": true,
			"--production": true, "-S": true, "--save": true, "-D": true, "--save-dev": true, "-E": true,
			"--save-exact": true, "-O": true, "--save-optional": true, "-P": true, "--save-prod": true,
			"--legacy-peer-deps": true, "--workspaces": true, "-ws": true, "--include-workspace-root": true,
			"--if-present": true, "--foreground-scripts": true, "-v": true, "--version": true, "-h": true,
			"--help": true, "--usage": true,
		}
	}}
)

// npmArgs returns the arguments of npm with the command word first and
// resolved (npm --silent exe x → exec --silent x), or ok false with why
// when the analysis cannot tell which word npm takes for its command: an
// option before it that it does not know.
func npmArgs(args []word) (out []word, ok bool, why string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		switch {
		case a.dynamic || a.pattern:
			return nil, false, "npm gets a word before its command that is only known when it runs"
		case t == "--":
			// Every word after it is an operand: the first is the command.
			if i+1 == len(args) {
				return args, true, ""
			}
			return npmFirst(args, i+1, append(append([]word(nil), args[:i]...), args[i+2:]...)), true, ""
		case !strings.HasPrefix(t, "-") || t == "-":
			return npmFirst(args, i, append(append([]word(nil), args[:i]...), args[i+1:]...)), true, ""
		case strings.Contains(t, "="):
		case npmValueOptions.get()[t]:
			i++
		case npmFlagOptions.get()[t] || strings.HasPrefix(t, "--no-"):
			if i+1 < len(args) && (args[i+1].text == "true" || args[i+1].text == "false") {
				i++
			}
		default:
			return nil, false, "npm takes " + clipName(t) + " before its command, which the analysis cannot tell a value from"
		}
	}
	return args, true, ""
}

// npmFirst returns the command word args[i], resolved, followed by rest.
func npmFirst(args []word, i int, rest []word) []word {
	w := args[i]
	if c := npmCommand(w.text); c != "" {
		w.text = c
	}
	return append([]word{w}, rest...)
}

// npm resolves npm's command word (see npmArgs): it returns the arguments
// to model, command first, or ok false when the line is opaque. A
// spelling other than the command's own is recorded for deny rules as the
// command's (a rule on npm publish meets npm pub).
func (an *analyzer) npm(name string, args []word) ([]word, bool) {
	out, ok, why := npmArgs(args)
	if !ok {
		an.opaque(why)
		return args, false
	}
	if len(out) == 0 {
		return out, true
	}
	if why := npmCodeOption(out[1:]); why != "" {
		an.opaque(name + " " + why)
		return out, false
	}
	texts := []string{"npm"}
	for _, w := range out {
		texts = append(texts, w.text)
	}
	canon := strings.Join(texts, " ")
	if an.cur < len(an.a.units) {
		u := &an.a.units[an.cur]
		if u.text != canon && !contains(u.others, canon) {
			u.others = append(u.others, canon)
		}
	}
	if npmGlobal(out[1:]) && !npmGlobalReads.get()[out[0].text] {
		// The global prefix (/usr/lib/node_modules and the bin
		// directory beside it) lies outside the workdir: npm -g rm npm
		// removes npm, npm -g install and update run the packages'
		// scripts and link their programs there.
		an.opaque(name + " " + out[0].text + " in global mode writes the global prefix, outside the workdir")
		return out, false
	}
	switch out[0].text {
	case "link":
		// It links the package into the global prefix (and its
		// programs into the global bin directory), then links global
		// packages into node_modules.
		an.opaque(name + " link writes links in the global prefix, outside the workdir")
		return out, false
	case "init":
		// npm init <initializer> is npm exec create-<initializer>.
		for i := 1; i < len(out); i++ {
			t := out[i].text
			if t == "-w" || t == "--workspace" {
				i++
				continue
			}
			if !strings.HasPrefix(t, "-") {
				an.opaque(name + " init " + clipName(t) + " runs the package create-" + clipName(t))
				return out, false
			}
		}
	}
	return out, true
}

// npmGlobalReads are the commands that only show state or the registry's
// data, in global mode too.
var npmGlobalReads = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"ls": true, "ll": true, "outdated": true, "prefix": true, "root": true, "view": true, "help": true,
		"help-search": true, "search": true, "explain": true, "fund": true, "doctor": true, "ping": true,
		"whoami": true, "config": true, "get": true, "query": true, "docs": true, "bugs": true, "repo": true,
		"sbom": true, "cache": true, "completion": true,
	}
}}

// npmGlobal reports whether the words after npm's command, up to "--",
// may put npm in global mode: -g (alone or in a cluster of shorthands),
// --global and its abbreviations, or --location (global) and its.
func npmGlobal(args []word) bool {
	for _, a := range args {
		t := a.text
		switch {
		case t == "--":
			return false
		case strings.HasPrefix(t, "--lock"), strings.HasPrefix(t, "--global-style"):
			// --lockfile-version, --global-style (node_modules' layout).
		case strings.HasPrefix(t, "--glob"), strings.HasPrefix(t, "--loc"):
			if !strings.HasSuffix(t, "=false") {
				return true
			}
		case len(t) > 1 && t[0] == '-' && t[1] != '-' && !strings.Contains(t, "=") && strings.Contains(t, "g"):
			return true
		case npmGlobalValue(t):
			return true
		}
	}
	return false
}

// npmGlobalValue reports whether t is one of the spellings of global mode
// npm also takes: --g (its shorthand after two dashes), a value after
// the shorthand (-g=true), or a long option after one dash
// (-location=global, -global=true).
func npmGlobalValue(t string) bool {
	if !strings.HasPrefix(t, "-") {
		return false
	}
	opt, val, _ := strings.Cut(strings.TrimLeft(t, "-"), "=")
	if val == "false" {
		return false
	}
	return opt == "g" || strings.HasPrefix(opt, "glob") && !strings.HasPrefix(opt, "global-") &&
		!strings.HasPrefix(opt, "globalc") || strings.HasPrefix(opt, "loc") && opt != "lock" && !strings.HasPrefix(opt, "lockfile")
}

// npmCodeKeys are npm's settings that name a program npm runs, code it
// loads into node or a file of settings that may name one: the
// NODE_OPTIONS of every script (--import=data:… runs JavaScript), the
// shell of scripts, the editor, browser and viewer, git and node-gyp, the
// module npm init runs, and the user and global .npmrc.
var npmCodeKeys = []string{"node-options", "script-shell", "shell", "editor", "browser", "viewer", "git",
	"node-gyp", "init-module", "onload-script", "userconfig", "globalconfig"}

// npmCodeOption says why one of the words after npm's command word (its
// options, read before the command and after it, up to "--") sets one of
// npmCodeKeys, or "". npm takes a long option after one dash or two, and
// any unambiguous prefix of its name (--node-opt is --node-options), and
// nopt strips every leading dash (---node-options is --node-options), so a
// name that begins one of the keys counts; a dash and one letter is a
// shorthand, none of which names those keys.
func npmCodeOption(args []word) string {
	return codeOption(args, npmCodeKeys)
}

// pnpmCodeKeys are npmCodeKeys and pnpm's own settings that name code:
// the .pnpmfile.cjs it loads, the npm it runs.
var pnpmCodeKeys = append(append([]string(nil), npmCodeKeys...), "pnpmfile", "global-pnpmfile", "npm-path")

// pnpmCodeOption is npmCodeOption for pnpm, whose --config.KEY=VALUE
// sets any setting. It looks at every word up to "--", before pnpm's
// command and after it.
func pnpmCodeOption(args []word) string {
	for _, a := range args {
		if a.text == "--" {
			break
		}
		if strings.HasPrefix(a.text, "-") && strings.HasPrefix(strings.TrimLeft(a.text, "-"), "config.") {
			return "sets a setting by " + clipName(a.text) + ", which may name code pnpm runs"
		}
	}
	return codeOption(args, pnpmCodeKeys)
}

// codeOption says why a word of args up to "--" sets one of keys as an
// option of npm or pnpm, or "" (see npmCodeOption).
func codeOption(args []word, keys []string) string {
	for _, a := range args {
		t := a.text
		if t == "--" {
			return ""
		}
		if !strings.HasPrefix(t, "-") || len(t) == 2 && t[1] != '-' {
			continue
		}
		// nopt strips every leading dash: ---node-options is
		// --node-options.
		name, _, _ := strings.Cut(strings.TrimLeft(t, "-"), "=")
		name = strings.ToLower(name)
		if name == "" || name == "g" || name == "global" {
			continue // global mode (-g=false, --global): see npmGlobal
		}
		for _, k := range keys {
			if strings.HasPrefix(k, name) {
				return "sets its " + k + " setting by " + clipName(t) + ", which names code it runs"
			}
		}
	}
	return ""
}
