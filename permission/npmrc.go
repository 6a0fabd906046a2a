package permission

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/secretpaths"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// JavaScript's package managers read settings files of the project before
// any command: npm and npx the .npmrc of the project's directory (the
// nearest one above the working directory that holds a package.json or
// node_modules, or its workspace root), pnpm that .npmrc and its
// pnpm-workspace.yaml, yarn .npmrc, .yarnrc (yarn 1) and .yarnrc.yml
// (yarn 2 and later). A cloned repository's, or one an earlier call wrote,
// may say cache=~/x, logs-dir=…, storeDir: …, cacheFolder: … (npm ls
// then creates its log and cache there, pnpm install its store),
// script-shell, git, yarnPath or plugins (a program each command runs),
// userconfig or globalconfig (another settings file). The gate reads
// these files in each working directory of the line and every directory
// above it, and allows the line only when each key is one known to name
// no path and no program (jsConfigUnsound). The user's own ~/.npmrc,
// ~/.yarnrc and ~/.yarnrc.yml outside the workdir are theirs, as
// ~/.npm is npm's. A line that writes one of these files before the
// command is opaque to the analysis already (npm runs code from .npmrc).

// jsConfigFiles are, for each package manager, the settings files of
// the project it reads (and pnpm's hooks file, .pnpmfile.cjs, which it
// runs).
var jsConfigFiles = sync.OnceValue(func() map[string][]string {
	npm := []string{".npmrc"}
	pnpm := []string{".npmrc", "pnpm-workspace.yaml", ".pnpmfile.cjs", ".pnpmfile.mjs"}
	yarn := []string{".npmrc", ".yarnrc", ".yarnrc.yml"}
	bun := []string{".npmrc", "bunfig.toml"}
	return map[string][]string{"npm": npm, "npx": npm, "pnpm": pnpm, "pnpx": pnpm, "yarn": yarn, "yarnpkg": yarn,
		"bun": bun, "bunx": bun}
})

// npmrcSafeKeys are the keys of an .npmrc (npm's and pnpm's names) that
// name no path and no program: where packages come from, how the
// registry is reached, what is saved and printed, how the dependency tree
// is laid out in the project. Any other key (cache, logs-dir, prefix,
// userconfig, globalconfig, init-module, script-shell, shell, git,
// editor, node-options, store-dir, cache-dir, state-dir, global-dir,
// virtual-store-dir, modules-dir, use-node-version, sign-git-tag …), or
// one npm may read otherwise (quoted, with an escape, an environment
// variable, a section), makes a line that runs the manager opaque.
var npmrcSafeKeys = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`registry always-auth strict-ssl ca save save-exact save-prefix save-dev
		save-optional save-peer save-bundle engine-strict legacy-peer-deps strict-peer-deps fund audit audit-level
		package-lock package-lock-only progress loglevel color unicode fetch-retries fetch-retry-factor
		fetch-retry-mintimeout fetch-retry-maxtimeout fetch-timeout maxsockets prefer-offline prefer-online
		offline update-notifier install-links install-strategy omit include optional ignore-scripts
		lockfile-version git-tag-version tag-version-prefix preid access provenance init-author-name
		init-author-email init-author-url init-license init-version auth-type foreground-scripts
		workspaces-update include-workspace-root proxy https-proxy noproxy no-proxy user-agent heading depth
		bin-links prefer-dedupe searchlimit searchstaleness scope before os cpu libc
		auto-install-peers strict-peer-dependencies shamefully-hoist public-hoist-pattern hoist-pattern hoist
		node-linker resolution-mode dedupe-peer-dependents link-workspace-packages prefer-workspace-packages
		shared-workspace-lockfile save-workspace-protocol lockfile prefer-frozen-lockfile frozen-lockfile
		recursive-install enable-pre-post-scripts resolve-peers-from-workspace-root side-effects-cache
		side-effects-cache-readonly package-import-method verify-store-integrity strict-dep-builds
		network-concurrency child-concurrency dedupe-direct-deps exclude-links-from-lockfile git-checks
		publish-branch ignore-workspace-root-check minimum-release-age`) {
		m[k] = true
	}
	return m
})

// npmrcCredentialKeys are the keys a registry's URL may scope
// (//registry.example/:_authToken): credentials, and the files of a
// client certificate, which npm reads.
var npmrcCredentialKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"_authToken": true, "_auth": true, "_password": true, "username": true, "email": true,
		"always-auth": true, "certfile": true, "keyfile": true}
})

// npmrcSafeKey reports whether k, a key as an .npmrc spells it (without a
// trailing [] of an array), is one of npmrcSafeKeys, a scope's registry
// (@scope:registry) or a registry's credential.
func npmrcSafeKey(k string) bool {
	if npmrcSafeKeys()[k] {
		return true
	}
	if strings.ContainsAny(k, "$\\\"'`;# \t") {
		return false
	}
	if scope, ok := strings.CutSuffix(k, ":registry"); ok && strings.HasPrefix(scope, "@") && !strings.Contains(scope[1:], ":") {
		return true
	}
	if strings.HasPrefix(k, "//") {
		i := strings.LastIndexByte(k, ':')
		return i > 2 && npmrcCredentialKeys()[k[i+1:]]
	}
	return false
}

// npmrcUnsound says why the text of an .npmrc, read as npm's ini parser
// reads it (lines split at \r and \n, whole-line ; and # comments, a key
// before the first =, [section] headers), may name a path or a program,
// or "".
func npmrcUnsound(text string) string {
	for line := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == ';' || t[0] == '#' {
			continue
		}
		if t[0] == '[' {
			return "has a section, under which npm may read keys the gate does not: " + clip(t)
		}
		key, value, _ := strings.Cut(t, "=")
		key = strings.TrimSuffix(strings.TrimSpace(key), "[]")
		if !npmrcSafeKey(key) {
			return "sets " + clip(key) + ", which may name a path the package manager writes or a program it runs"
		}
		if v := credentialRef(value); v != "" && !npmrcCredentialKey(key) {
			return "sets " + clip(key) + " to the value of " + v + ", a credential npm config list prints or a registry's address hands out"
		}
	}
	return ""
}

// npmrcCredentialKey reports whether k, a key of an .npmrc, is a
// registry's credential (//registry.example/:_authToken, _auth), whose
// value npm keeps to itself: npm config list prints "(protected)".
func npmrcCredentialKey(k string) bool {
	if strings.HasPrefix(k, "//") {
		k = k[strings.LastIndexByte(k, ':')+1:]
	}
	return npmrcCredentialKeys()[k]
}

// settingsVarRef matches a reference to an environment variable in a
// value of a package manager's settings (${NAME}, npm's ${NAME?}, yarn's
// ${NAME:-default}), which the manager replaces by its value.
var settingsVarRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)`)
})

// credentialRef returns the first credential variable (see
// secretpaths.CredentialVar) the settings value v refers to, or "": npm
// replaces it by the variable's value, which npm config list and get
// print for a key that is no credential (init-author-name=${GITHUB_TOKEN}
// printed the token, round redteam132).
func credentialRef(v string) string {
	for _, m := range settingsVarRef().FindAllStringSubmatch(v, -1) {
		if secretpaths.CredentialVar(m[1]) {
			return m[1]
		}
	}
	return ""
}

// yarnrcSafeKeys are the keys of yarn 1's .yarnrc (its own and npm's
// names) that name no path and no program.
var yarnrcSafeKeys = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`registry network-timeout network-concurrency strict-ssl ignore-engines
		ignore-optional ignore-scripts save-prefix save-exact version-tag-prefix version-git-message
		version-git-tag version-commit-hooks email username disable-self-update-check child-concurrency
		--install.frozen-lockfile --install.ignore-engines --install.ignore-optional --install.prefer-offline
		--install.network-timeout --install.check-files --install.production --add.exact --add.ignore-engines
		--add.prefer-offline --ignore-engines --frozen-lockfile --prefer-offline --network-timeout`) {
		m[k] = true
	}
	return m
})

// yarnrcUnsound says why the text of a yarn 1 .yarnrc ("key value"
// lines, # comments) may name a path or a program (yarn-path,
// cache-folder, prefix, global-folder, --modules-folder …), or "". An
// indented line, which the lockfile syntax nests under the key before
// it, is opaque.
func yarnrcUnsound(text string) string {
	for line := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			return "has an indented line, which yarn nests under the key before it: " + clip(t)
		}
		key, value, _ := strings.Cut(t, " ")
		if !yarnrcSafeKeys()[key] && !npmrcSafeKey(key) {
			return "sets " + clip(key) + ", which may name a path yarn writes or a program it runs"
		}
		if v := credentialRef(value); v != "" && !npmrcCredentialKey(key) {
			return "sets " + clip(key) + " to the value of " + v + ", a credential yarn config prints"
		}
	}
	return ""
}

// yamlSafeKeys are the top-level keys of pnpm-workspace.yaml and of yarn's
// .yarnrc.yml that name no path and no program, nor a setting below them
// that does: the workspace's packages, catalogs and dependency rules,
// how the registry is reached, the layout of node_modules. Any other
// (storeDir, cacheDir, stateDir, globalDir, virtualStoreDir, modulesDir,
// useNodeVersion, yarnPath, plugins, cacheFolder, globalFolder,
// installStatePath, pnpUnpluggedFolder, injectEnvironmentFiles …) makes a
// line that runs the manager opaque.
var yamlSafeKeys = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`packages catalog catalogs onlyBuiltDependencies ignoredBuiltDependencies
		neverBuiltDependencies overrides allowedDeprecatedVersions peerDependencyRules packageExtensions nodeLinker
		shamefullyHoist publicHoistPattern hoistPattern autoInstallPeers strictPeerDependencies
		linkWorkspacePackages saveWorkspaceProtocol preferWorkspacePackages sharedWorkspaceLockfile
		dedupePeerDependents resolutionMode minimumReleaseAge catalogMode strictDepBuilds
		npmRegistryServer npmScopes npmAlwaysAuth npmAuthToken npmAuthIdent npmPublishRegistry
		npmPublishAccess enableTelemetry enableGlobalCache enableImmutableInstalls enableProgressBars
		enableColors enableHyperlinks enableMessageNames enableScripts enableStrictSsl enableNetwork
		checksumBehavior compressionLevel defaultSemverRangePrefix defaultProtocol httpTimeout httpRetry
		networkConcurrency nmMode nmHoistingLimits pnpMode preferInteractive logFilters
		supportedArchitectures tsEnableAutoTypes initScope enableOfflineMode npmMinimalAgeGate`) {
		m[k] = true
	}
	return m
})

// yamlCredentialKeys are the keys of a .yarnrc.yml whose values are
// credentials yarn keeps to itself (yarn config prints them masked).
var yamlCredentialKeys = map[string]bool{"npmAuthToken": true, "npmAuthIdent": true}

// yamlTopKey matches a line that begins a top-level key of a YAML block
// mapping: a plain key at the first column, a colon, then a space or the
// end.
var yamlTopKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_-]*)[ \t]*:([ \t]|$)`)
})

// yamlConfigUnsound says why the text of a pnpm-workspace.yaml or a
// .yarnrc.yml may set a key that names a path or a program, or "": each
// top-level key, a plain key at the first column, must be one of
// yamlSafeKeys, and an indented line belongs to the value of the key
// before it. What the scan does not read as YAML's block mapping (a
// flow mapping, a quoted, anchored or merged key, a document marker, an
// indented first line, a tab) is opaque.
func yamlConfigUnsound(text string) string {
	safe := false
	for line := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		if k, v, _ := strings.Cut(t, ":"); credentialRef(v) != "" && !yamlCredentialKeys[strings.Trim(strings.TrimSpace(k), `"'`)] {
			// yarn replaces ${NAME} in any value, which yarn config
			// prints; its credentials it keeps to itself.
			return "sets " + clip(strings.TrimSpace(k)) + " to the value of " + credentialRef(v) + ", a credential yarn config prints"
		}
		if line[0] == ' ' {
			if !safe {
				return "has an indented line the gate cannot place under a key: " + clip(t)
			}
			continue
		}
		m := yamlTopKey().FindStringSubmatch(line)
		if m == nil {
			return "has a line the gate does not read as a key of a mapping: " + clip(t)
		}
		if safe = yamlSafeKeys()[m[1]]; !safe {
			return "sets " + clip(m[1]) + ", which may name a path the package manager writes or a program it runs"
		}
	}
	return ""
}

// jsConfigUnsound says why a JavaScript package manager the line runs
// makes it opaque: it names a settings file of its own (npm
// --userconfig, --globalconfig: the gate does not follow them), or a
// settings file of the project it reads (see jsConfigFiles), in a working
// directory of the line, a directory an option sends it to (--prefix or
// an abbreviation npm expands, -C, --dir, --cwd) or one above, sets a key that may name a path or a
// program, or cannot be read. It returns "" otherwise.
func (g *Gate) jsConfigUnsound(a *shellscan.Analysis) string {
	for _, c := range a.Commands {
		name := strings.ToLower(filepath.Base(c.Name))
		files, ok := jsConfigFiles()[name]
		if !ok {
			continue
		}
		dirs := []string{"."}
		for i, arg := range c.Args {
			opt, v, hasValue := strings.Cut(arg, "=")
			o := strings.TrimLeft(opt, "-")
			if strings.HasPrefix(opt, "--") && len(o) >= 5 && (strings.HasPrefix("userconfig", o) ||
				len(o) >= 7 && strings.HasPrefix("globalconfig", o) || strings.HasPrefix(o, "npmrc")) {
				return name + " " + clip(opt) + " names a settings file, which may name a path it writes or a program it runs"
			}
			if (name == "bun" || name == "bunx") && (opt == "--config" || opt == "-c") {
				return name + " " + clip(opt) + " names a bunfig.toml, which may name a path it writes or a program it runs"
			}
			// npm expands an abbreviated option (--prefi is --prefix).
			if strings.HasPrefix(opt, "--") && len(o) >= 3 && strings.HasPrefix("prefix", o) {
				opt = "--prefix"
			}
			switch opt {
			case "--prefix", "-C", "--dir", "--cwd":
				if !hasValue {
					if i+1 >= len(c.Args) {
						continue
					}
					v = c.Args[i+1]
				}
				dirs = append(dirs, v)
			}
		}
		home := envValue(g.bashEnv(), "HOME")
		for _, dir := range a.Dirs {
			for _, sub := range dirs {
				target := g.absTarget(dir, sub)
				if target == "" {
					return name + " runs in an unknown directory, whose settings files the gate cannot read"
				}
				for _, start := range []string{filepath.Clean(target), g.lookups().Resolve(target)} {
					if why := g.jsConfigAbove(name, start, files, home); why != "" {
						return why
					}
				}
			}
		}
	}
	return ""
}

// bashEnv is the environment the bash tool gives a line, or nil when it
// is unknown.
func (g *Gate) bashEnv() []string {
	if g.opts.BashEnv == nil {
		return nil
	}
	return g.opts.BashEnv()
}

// jsConfigAbove checks the settings files named files in dir and each
// directory above it for the package manager name; home's files outside
// the workdir are the user's own and are passed over.
func (g *Gate) jsConfigAbove(name, dir string, files []string, home string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, f := range files {
			p := filepath.Join(d, f)
			if home != "" && d == filepath.Clean(home) && !pathmatch.Within(p, g.workdir) ||
				g.home != "" && d == g.home && !pathmatch.Within(p, g.workdir) {
				continue
			}
			if why := configFileUnsound(p, jsConfigCheck(f)); why != "" {
				return name + " reads its settings from " + clip(p) + ", which " + why
			}
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

// jsConfigCheck is the check of the settings file named base.
func jsConfigCheck(base string) func(string) string {
	switch base {
	case ".npmrc":
		return npmrcUnsound
	case ".yarnrc":
		return yarnrcUnsound
	case "bunfig.toml":
		return bunfigUnsound
	case ".pnpmfile.cjs", ".pnpmfile.mjs":
		// pnpm loads its hooks file for every command, pnpm --version
		// and pnpm ls too.
		return func(string) string { return "is code pnpm runs for every command" }
	}
	return yamlConfigUnsound
}

// configFileUnsound says why the settings file p, by check, may name a
// path or a program, or "" when it names none or does not exist: one that
// is not a regular file or is larger than maxConfigFileSize cannot be
// read fully.
func configFileUnsound(p string, check func(string) string) string {
	return configFileUnsoundLimit(p, maxConfigFileSize, check)
}

// configFileUnsoundLimit is configFileUnsound for files of up to limit
// bytes (doxygen -g writes a Doxyfile of 110 KiB).
func configFileUnsoundLimit(p string, limit int64, check func(string) string) string {
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > limit {
		return "cannot be read fully"
	}
	b, err := readNoWait(p, limit) // it may have become a FIFO since
	if err != nil {
		return "cannot be read fully"
	}
	return check(string(b))
}
