package permission

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// Besides the pip.conf of the virtual environment it runs in (venvFiles)
// and the PIP_ variables of its environment (envRedirects), pip reads the
// settings files of the system and of the user, in this order: each
// $XDG_CONFIG_DIRS/pip/pip.conf (/etc/xdg when unset), /etc/pip.conf,
// ~/.pip/pip.conf and $XDG_CONFIG_HOME/pip/pip.conf (~/.config when
// unset; on macOS ~/Library/Application Support/pip when it exists, and
// /Library/Application Support/pip for the system). Any of them may say
// target, prefix, root, user, src, log … and send .venv/bin/pip install x
// into the home. uv pip reads $XDG_CONFIG_HOME/uv/uv.toml (or
// ~/.config/uv/uv.toml), each $XDG_CONFIG_DIRS/uv/uv.toml (/etc/xdg) and
// /etc/uv/uv.toml. The gate reads the files of the directories the line's
// environment names (GateOptions.BashEnv; the gate process's own when it
// is unknown), and of the gate's home too; each is at most
// maxConfigFileSize, and a line reads no more than a handful, so they are
// read again at each pip or uv pip line rather than cached.

// maxConfigFileSize bounds a settings file the gate reads; a larger one
// makes the line opaque.
const maxConfigFileSize = 64 << 10

// pipSafeKeys are the options (pip's long names, as pip reads a settings
// key or a PIP_ variable: lower case, "-" for "_", no leading "--") that
// say nothing about where pip installs or writes, or which python it
// runs: where it downloads from, how it talks to the index, what it
// prints, how it resolves. The user's cache directory (cache-dir) is
// pip's own, as ~/.cache/pip is. Any other key, known to pip (target,
// prefix, root, user, src, log, editable, requirement, python,
// install-option, dest, wheel-dir …) or not, makes the line opaque.
var pipSafeKeys = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`index-url extra-index-url no-index find-links trusted-host cert client-cert
		proxy timeout default-timeout retries disable-pip-version-check no-cache-dir cache-dir no-color no-input
		quiet verbose progress-bar exists-action keyring-provider require-virtualenv require-venv pre
		prefer-binary only-binary no-binary no-deps upgrade upgrade-strategy force-reinstall ignore-installed
		ignore-requires-python no-build-isolation use-pep517 no-use-pep517 check-build-dependencies
		no-warn-script-location no-warn-conflicts compile no-compile no-clean require-hashes root-user-action
		break-system-packages use-feature no-python-version-warning`) {
		m[k] = true
	}
	return m
})

// pipListKeys are the keys of pipSafeKeys whose value may go on over
// indented lines (a list of hosts or URLs).
var pipListKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"extra-index-url": true, "find-links": true, "trusted-host": true,
		"no-binary": true, "only-binary": true, "use-feature": true}
})

// pipReadOnlySections are the sections of pip's settings files that only
// commands which install and write nothing read (pip list reads [list]).
var pipReadOnlySections = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"list": true, "show": true, "freeze": true, "search": true, "index": true,
		"inspect": true, "check": true, "hash": true, "completion": true, "debug": true, "help": true}
})

// pipKeyName is the option a key of pip's settings names: configparser
// lower-cases it, pip reads "_" as "-" and drops a leading "--".
func pipKeyName(k string) string {
	k = strings.ReplaceAll(strings.ToLower(k), "_", "-")
	return strings.TrimPrefix(k, "--")
}

// pipConfUnsound says why the settings file text, read as pip reads it
// (Python's configparser: [sections], "key = value" or "key: value",
// indented lines that go on with the value before them, whole-line #
// and ; comments, [DEFAULT] whose keys every section gets), may tell pip
// where to install or write, or "": every key of a section a command
// that installs or writes reads (global, install, download, DEFAULT, any
// unknown one) must be one of pipSafeKeys. What the gate could read
// otherwise than configparser (a byte that is not printable ASCII, a key
// outside any section, a line that is neither) is opaque too.
func pipConfUnsound(text string) string {
	for _, c := range []byte(text) {
		if c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return "has a byte that is not printable ASCII"
		}
	}
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	section, key, indent := "", "", 0
	inSection := false
	for line := range strings.SplitSeq(text, "\n") {
		stripped := strings.Trim(line, " \t")
		if stripped == "" || stripped[0] == '#' || stripped[0] == ';' {
			continue // a blank line leaves the value open to go on
		}
		n := len(line) - len(strings.TrimLeft(line, " \t"))
		if inSection && key != "" && n > indent {
			if !pipListKeys()[pipKeyName(key)] && !pipReadOnlySections()[section] {
				return "goes on with the value of " + clip(key) + " over an indented line"
			}
			continue
		}
		indent = n
		if stripped[0] == '[' {
			end := strings.LastIndexByte(stripped, ']')
			if end < 2 {
				return "has a line that is neither a section nor a key: " + clip(stripped)
			}
			section, key, inSection = stripped[1:end], "", true
			continue
		}
		if !inSection {
			return "has a key outside any section: " + clip(stripped)
		}
		i := strings.IndexAny(stripped, "=:")
		if i <= 0 || strings.TrimRight(stripped[:i], " \t") == "" {
			return "has a line that is neither a section nor a key: " + clip(stripped)
		}
		key = strings.TrimRight(stripped[:i], " \t")
		if pipReadOnlySections()[section] {
			continue
		}
		if !pipSafeKeys()[pipKeyName(key)] {
			return "sets " + clip(key) + " in [" + clip(section) + "], which may say where pip installs or writes, or which python it runs"
		}
	}
	return ""
}

// uvUserKeys matches a key of uv's settings that says where uv pip
// installs or which interpreter it uses, as uvSettingKeys does, but for
// the cache directory: in the user's or the system's uv.toml it is uv's
// own, as ~/.cache/uv is.
var uvUserKeys = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(^|[\s{,.])["']?(target|prefix|system|break[-_]system[-_]packages|python|user|config[-_]file)["']?\s*=`)
})

// tomlEscape matches an escape of a TOML basic string that may spell any
// letter (\u0074arget), in a quoted key as in a value.
var tomlEscape = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\\[uUxe]`)
})

// uvPipSafeKeys are the keys of the [pip] table of a uv.toml that say
// nothing about where uv pip installs or which python it uses.
var uvPipSafeKeys = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`index index-url extra-index-url find-links no-index index-strategy
		keyring-provider allow-insecure-host link-mode compile-bytecode prerelease resolution exclude-newer
		no-build-isolation no-build-isolation-package no-binary no-build only-binary reinstall
		reinstall-package upgrade upgrade-package require-hashes verify-hashes strict no-deps no-sources
		dependency-metadata annotation-style generate-hashes universal python-version python-platform
		custom-compile-command torch-backend extra all-extras no-strip-extras no-strip-markers no-annotate
		no-header emit-index-url emit-find-links emit-build-options emit-marker-expression
		emit-index-annotation output-file`) {
		m[k] = true
	}
	return m
})

// uvTableKey matches a line of a TOML file that begins a key (bare,
// quoted or dotted, with spaces or tabs around its dots) and the key.
var uvTableKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z0-9_\-"' \t.]+?)\s*=`)
})

// tomlKeyPath is the dotted key k (a table header's or a key line's)
// with the spaces around its dots and the quotes of its parts removed.
func tomlKeyPath(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// uvUserConfigUnsound says why the user's or the system's uv.toml text
// may tell uv pip where to install or which python to use, or "": a key
// of uvUserKeys anywhere, an escape that may spell one, or a key of its
// [pip] table that is not one of uvPipSafeKeys (read line by line: a
// line the scan takes for a key that is none only makes the line opaque;
// uvUserKeys, which matches in any table and value, is what keeps it
// sound).
func uvUserConfigUnsound(text string) string {
	if tomlEscape().MatchString(text) {
		return "has an escape in a string, which may spell a key that says where uv pip installs"
	}
	if m := uvUserKeys().FindStringSubmatch(text); m != nil {
		return "sets " + m[2] + ", which may say where uv pip installs or which python it uses"
	}
	table := ""
	for line := range strings.SplitSeq(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return "has a table header without its ]"
			}
			table = tomlKeyPath(strings.TrimPrefix(line[1:end], "["))
			continue
		}
		m := uvTableKey().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		full := tomlKeyPath(m[1])
		if table != "" {
			full = table + "." + full
		}
		if full == "pip" {
			return "sets pip as an inline table, whose keys the gate does not check"
		}
		if rest, ok := strings.CutPrefix(full, "pip."); ok && !uvPipSafeKeys()[rest] {
			if first, _, _ := strings.Cut(rest, "."); !uvPipSafeKeys()[first] {
				return "sets " + clip(rest) + " in [pip], which may say where uv pip installs"
			}
		}
	}
	return ""
}

// readSettings returns the text of the settings file p, "" and no reason
// when it does not exist, or why the gate cannot read it fully: it is no
// regular file (a directory, a FIFO, which is opened without waiting),
// is larger than maxConfigFileSize, or cannot be read.
func readSettings(p string) (string, string) {
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", ""
	}
	if err != nil {
		return "", "cannot be read: " + err.Error()
	}
	if !fi.Mode().IsRegular() {
		return "", "is not a regular file"
	}
	if fi.Size() > maxConfigFileSize {
		return "", "is too large to check"
	}
	f, err := openRule(p, false)
	if err != nil {
		return "", "cannot be read: " + err.Error()
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", "is not a regular file"
	}
	b, err := io.ReadAll(io.LimitReader(f, maxConfigFileSize+1))
	if err != nil {
		return "", "cannot be read: " + err.Error()
	}
	if len(b) > maxConfigFileSize {
		return "", "is too large to check"
	}
	return string(b), ""
}

// settingsEnv returns every value the line's environment gives key: the
// environment GateOptions.BashEnv returns (each value, as a repeated one
// is not resolved), or, when that is unknown, the gate process's.
func (g *Gate) settingsEnv(key string) []string {
	if g.opts.BashEnv == nil {
		if v, ok := os.LookupEnv(key); ok {
			return []string{v}
		}
		return nil
	}
	var vs []string
	for _, kv := range g.opts.BashEnv() {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			vs = append(vs, v)
		}
	}
	return vs
}

// settingsHomes returns the directories ~ may mean for pip or uv run by
// the line: each HOME of its environment, and the gate's home; or why
// they are unknown: a HOME that is not absolute names a directory of the
// working directory, which the line's own files may fill.
func (g *Gate) settingsHomes() ([]string, string) {
	var homes []string
	for _, h := range g.settingsEnv("HOME") {
		if !filepath.IsAbs(h) {
			return nil, "HOME is not an absolute directory (" + clip(h) + ")"
		}
		if !slices.Contains(homes, filepath.Clean(h)) {
			homes = append(homes, filepath.Clean(h))
		}
	}
	if g.home != "" && !slices.Contains(homes, g.home) {
		homes = append(homes, g.home)
	}
	return homes, ""
}

// settingsFiles returns the settings files named name (pip.conf, uv.toml)
// in the directory app (pip, uv) of the user's and the system's
// configuration directories, as the line's environment names them
// (XDG_CONFIG_HOME, XDG_CONFIG_DIRS, HOME), and the files of extra, or
// why they are unknown: a directory that is not absolute would be found
// from the working directory, which the line's own files may fill.
func (g *Gate) settingsFiles(app, name string, extra ...string) ([]string, string) {
	files := slices.Clone(extra)
	add := func(dir string) {
		if p := filepath.Join(dir, app, name); !slices.Contains(files, p) {
			files = append(files, p)
		}
	}
	homes, reason := g.settingsHomes()
	if reason != "" {
		return nil, reason
	}
	for _, h := range homes {
		add(filepath.Join(h, ".config"))
	}
	for _, v := range g.settingsEnv("XDG_CONFIG_HOME") {
		if strings.TrimSpace(v) == "" {
			continue
		}
		if !filepath.IsAbs(v) {
			return nil, "XDG_CONFIG_HOME is not an absolute directory (" + clip(v) + "), which " + app + " finds its settings from the working directory"
		}
		add(v)
	}
	dirs := g.settingsEnv("XDG_CONFIG_DIRS")
	add("/etc/xdg")
	for _, v := range dirs {
		if strings.TrimSpace(v) == "" {
			continue
		}
		for d := range strings.SplitSeq(v, ":") {
			switch {
			case d == "~" || strings.HasPrefix(d, "~/"):
				for _, h := range homes {
					add(filepath.Join(h, d[1:]))
				}
			case !filepath.IsAbs(d):
				return nil, "XDG_CONFIG_DIRS has a directory that is not absolute (" + clip(d) + "), where " + app + " finds its settings from the working directory"
			default:
				add(d)
			}
		}
	}
	return files, ""
}

// pipSettingsUnsound says why the settings files of the user and of the
// system that pip reads (see the top of this file) may tell pip where to
// install or write, or "".
func (g *Gate) pipSettingsUnsound() string {
	homes, reason := g.settingsHomes()
	if reason != "" {
		return "pip reads settings files the gate cannot find: " + reason
	}
	extra := []string{"/etc/pip.conf", "/Library/Application Support/pip/pip.conf"}
	for _, h := range homes {
		extra = append(extra, filepath.Join(h, ".pip", "pip.conf"), filepath.Join(h, "Library", "Application Support", "pip", "pip.conf"))
	}
	// The pip.conf of the prefix of the python that runs pip: pip
	// install --target runs the pip PATH finds, whose python's prefix is
	// the directory above its bin directory (/usr/pip.conf); a virtual
	// environment's is checked by venvFiles.
	// A version manager's shims directory runs the python or pip of a
	// version it picks when the line runs (.python-version,
	// PYENV_VERSION …): the pip.conf of every version's prefix counts.
	for _, v := range g.settingsEnv("PATH") {
		for d := range strings.SplitSeq(v, ":") {
			if !filepath.IsAbs(d) {
				continue
			}
			prefixes := []string{filepath.Dir(filepath.Clean(d))}
			if filepath.Base(filepath.Clean(d)) == "shims" && runsPython(filepath.Clean(d)) {
				versions, reason := shimPrefixes(filepath.Clean(d))
				if reason != "" {
					return "pip reads settings files the gate cannot find: " + reason
				}
				prefixes = append(prefixes, versions...)
			}
			for _, pre := range prefixes {
				if p := filepath.Join(pre, "pip.conf"); !slices.Contains(extra, p) {
					extra = append(extra, p)
				}
			}
		}
	}
	files, reason := g.settingsFiles("pip", "pip.conf", extra...)
	if reason != "" {
		return "pip reads settings files the gate cannot find: " + reason
	}
	if p, reason := settingsUnsound(files, pipConfUnsound); reason != "" {
		return "pip reads the settings file " + clip(p) + ", which " + reason
	}
	return ""
}

// settingsUnsound reads each of files that exists and returns the first
// one that it cannot read fully, or that check finds unsound, with why.
func settingsUnsound(files []string, check func(string) string) (string, string) {
	for _, p := range files {
		text, reason := readSettings(p)
		if reason == "" {
			reason = check(text)
		}
		if reason != "" {
			return p, reason
		}
	}
	return "", ""
}

// uvSettingsUnsound says why the uv.toml files of the user and of the
// system that uv pip reads may tell it where to install or which python
// to use, or "".
func (g *Gate) uvSettingsUnsound() string {
	files, reason := g.settingsFiles("uv", "uv.toml", "/etc/uv/uv.toml")
	if reason != "" {
		return "uv pip reads settings files the gate cannot find: " + reason
	}
	if p, reason := settingsUnsound(files, uvUserConfigUnsound); reason != "" {
		return "uv pip reads the settings file " + clip(p) + ", which " + reason + "; pass --no-config to ignore it"
	}
	return ""
}

// pipConfigUnsound says why pip, as an Access.PipConfig marks it, may
// install or write elsewhere than the line says by its environment or the
// settings files of the user and of the system, or "".
func (g *Gate) pipConfigUnsound() string {
	if reason := g.envRedirects(); reason != "" {
		return "pip " + reason
	}
	return g.pipSettingsUnsound()
}

// runsPython reports whether the shims directory holds a program pip
// lines may run (pip…, python…), or cannot be listed; pyenv-virtualenv's
// holds only activate and deactivate.
func runsPython(shims string) bool {
	entries, err := os.ReadDir(shims)
	if err != nil {
		return !errors.Is(err, fs.ErrNotExist)
	}
	for _, e := range entries {
		if n := strings.ToLower(e.Name()); strings.HasPrefix(n, "pip") || strings.HasPrefix(n, "python") || n == "py" {
			return true
		}
	}
	return false
}

// shimPrefixes returns the prefixes of the pythons a version manager's
// shims directory may run: pyenv's $PYENV_ROOT/versions/* (and
// pyenv-virtualenv's versions/*/envs/*), asdf's and mise's
// installs/python/* beside the shims; or why they are unknown (a shims
// directory of no layout the gate knows).
func shimPrefixes(shims string) ([]string, string) {
	root := filepath.Dir(shims)
	var prefixes []string
	found := false
	for _, dir := range []string{filepath.Join(root, "versions"), filepath.Join(root, "installs", "python")} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, "the versions of the shims directory " + clip(shims) + " cannot be listed: " + err.Error()
		}
		found = true
		for _, e := range entries {
			pre := filepath.Join(dir, e.Name())
			prefixes = append(prefixes, pre)
			envs, err := os.ReadDir(filepath.Join(pre, "envs"))
			if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				return nil, "the environments of " + clip(pre) + " cannot be listed: " + err.Error()
			}
			for _, env := range envs {
				prefixes = append(prefixes, filepath.Join(pre, "envs", env.Name()))
			}
		}
	}
	if !found {
		return nil, "PATH has a shims directory (" + clip(shims) + ") whose pythons the gate cannot find"
	}
	return prefixes, ""
}
