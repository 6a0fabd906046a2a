package permission

import (
	"regexp"
	"strings"
	"sync"
)

// bun reads the project's bunfig.toml and .npmrc before any command (bun
// install, bun test, bun run, bun FILE): a cloned repository's, or one
// an earlier call wrote, may say [install.cache] dir = "~/x" or
// globalDir (bun install writes there), [test] coverageDir, or a preload
// outside the project (code it runs first), as an .npmrc's cache= does
// for npm and for bun. jsConfigFiles lists both for bun and bunx, and
// jsConfigUnsound reads them as npm's files; bun --config names another
// bunfig, which the gate does not follow.

// bunfigSafeKeys are the keys of a bunfig.toml, as table.key paths, that
// name no path and no program: how bun logs, transpiles JSX, installs
// (which dependencies, from which registry, with which lockfile and
// linker) and reports tests. Any other key (install.cache.dir,
// install.globalDir, install.globalBinDir, test.coverageDir, test.root,
// define, loader, run.shell …) makes a line that runs bun opaque; preload
// and test.preload are judged by their values (see bunPreloadSafe).
var bunfigSafeKeys = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`logLevel telemetry smol jsx jsxFactory jsxFragment jsxImportSource
		install.optional install.dev install.peer install.production install.exact install.saveTextLockfile
		install.auto install.frozenLockfile install.dryRun install.registry install.linker
		install.minimumReleaseAge install.ignoreScripts install.concurrentScripts install.cache.disable
		install.cache.disableManifest install.lockfile.save install.lockfile.print
		test.smol test.coverage test.coverageThreshold test.coverageSkipTestFiles test.timeout test.bail
		run.silent run.bun`) {
		m[k] = true
	}
	return m
})

// bunfigKey matches a line of a bunfig.toml that begins a key (bare,
// quoted or dotted, with spaces or tabs around its dots, as bun takes
// them), the key and what follows the =.
var bunfigKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z0-9_\-"' \t.]+?)\s*=\s*(.*)$`)
})

// bunPreloadValue matches a preload array on one line whose every entry
// is a project file or a package: a relative path or bare name made of
// plain characters, not absolute, not from the home.
var bunPreloadValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\[\s*("[A-Za-z0-9_@./-]+"\s*(,\s*"[A-Za-z0-9_@./-]+"\s*)*,?\s*)?\]\s*(#.*)?$`)
})

// bunPreloadSafe reports whether the value of a preload key names only
// files of the project or packages: a one-line array (or a single string)
// of relative paths and bare names with no .. component.
func bunPreloadSafe(v string) bool {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, `"`) {
		v = "[" + v + "]"
	}
	if !bunPreloadValue().MatchString(v) {
		return false
	}
	for _, e := range strings.Split(strings.Trim(strings.Split(v, "]")[0], "[ "), ",") {
		e = strings.Trim(strings.TrimSpace(e), `"`)
		if strings.HasPrefix(e, "/") || e == ".." || strings.HasPrefix(e, "../") || strings.Contains(e, "/../") ||
			strings.HasSuffix(e, "/..") {
			return false
		}
	}
	return true
}

// bunfigUnsound says why the text of a bunfig.toml, read line by line as
// TOML's tables and keys, may name a path bun writes or a program it
// runs, or "": each key must be one of bunfigSafeKeys under its table
// (install.scopes.NAME, a scope's registry, too), a preload must name
// files of the project (see bunPreloadSafe). An escape or a multi-line
// string, which may hide a key from the scan, is opaque.
func bunfigUnsound(text string) string {
	if tomlEscape().MatchString(text) || strings.Contains(text, `"""`) || strings.Contains(text, `'''`) {
		return "has an escape or a multi-line string, which may hide a key the gate does not check"
	}
	// bun skips a byte order mark at the start of the file: the line
	// after it is a key as any other.
	text = strings.TrimPrefix(text, "\ufeff")
	table := ""
	for line := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return "has a table header without its ]"
			}
			table = tomlKeyPath(strings.TrimPrefix(line[1:end], "["))
			if table == "install.scopes" || strings.HasPrefix(table, "install.scopes.") || table == "install.cache" ||
				table == "install.lockfile" || bunfigTable(table) {
				continue
			}
			return "has the table [" + clip(table) + "], whose keys the gate does not check"
		}
		m := bunfigKey().FindStringSubmatch(line)
		if m == nil {
			// The rest of a multi-line array or inline table, whose
			// key was judged on its first line.
			continue
		}
		full := tomlKeyPath(m[1])
		if table != "" {
			full = table + "." + full
		}
		switch {
		case bunfigSafeKeys()[full], strings.HasPrefix(full, "install.scopes."), full == "install.scopes" && strings.HasPrefix(strings.TrimSpace(m[2]), "{"):
		case (full == "preload" || full == "test.preload") && bunPreloadSafe(m[2]):
		default:
			return "sets " + clip(full) + ", which may name a path bun writes or a program it runs"
		}
	}
	return ""
}

// bunfigTable reports whether t is a table of a bunfig.toml whose keys
// bunfigUnsound checks one by one.
func bunfigTable(t string) bool {
	switch t {
	case "install", "test", "run":
		return true
	}
	return false
}
