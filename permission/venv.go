package permission

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// A pip (or python -m pip, or uv pip --python) installs into the
// environment of the interpreter that runs it: the directory holding the
// pyvenv.cfg beside the interpreter's bin directory, as the interpreter
// was named, when there is one, and the interpreter's own installation
// (the system's, a user site) otherwise. A cloned repository can ship any
// .venv it likes, so a pip or python named by a path into a .venv of the
// workdir is trusted to install there only when:
//
//   - the program is a file of that environment's bin directory, which is
//     no link out of the environment, and a script (the pip) names by its
//     #! line a python of the same environment: .venv/bin/pip linked to
//     /usr/bin/pip, or a .venv/bin/pip whose #! line names /usr/bin/python3,
//     runs the system's pip;
//   - a python is a program, not a script (a pyenv shim execs another
//     python, which has its own environment), named python or pypy (its
//     link to the system's python is how a virtual environment is made);
//   - the environment has a pyvenv.cfg (without one the python is the one
//     its link leads to), which does not include the system's
//     site-packages (pip then installs into the user's site when the
//     environment's is not writable), and no pip.conf (pip reads it, and
//     it may say target, prefix or user);
//   - no symbolic link below the environment, but the python links of its
//     bin directory, leads out of it: pip writes site-packages, bin,
//     include and the data files of a wheel below the environment, through
//     any link on the way.
//
// What the environment's code does when it runs (a .pth file, a
// sitecustomize) is the project's code, as ./build.sh is.

// maxVenvEntries bounds the files of a virtual environment the gate looks
// at; a larger one is not checked, and the line is opaque.
const maxVenvEntries = 300_000

// venvUnsound says why the pip or python of a virtual environment that acc
// names (see shellscan.Access.Venv) may install outside the workdir, from
// some candidate directory of dirs, or "". a is the line's analysis: a
// line that writes into the environment changes what the checks saw.
func (g *Gate) venvUnsound(a *shellscan.Analysis, acc shellscan.Access) string {
	why := clip(acc.Path) + " "
	if acc.Pattern {
		return why + "is a pattern, whose virtual environment is only known when it runs"
	}
	if g.workdir == "" {
		return why + "is a virtual environment's program, and the workdir is unknown"
	}
	if reason := g.envRedirects(); reason != "" {
		return why + reason
	}
	root := g.lookups().Resolve(g.workdir)
	if acc.Lookup {
		prog, reason := g.lookPath(acc.Path, root)
		if reason != "" {
			return acc.Path + " " + reason
		}
		if reason := g.writesInto(a, g.lookups().Resolve(filepath.Dir(filepath.Dir(prog)))); reason != "" {
			return why + reason
		}
		if reason := venvProgram(prog, root); reason != "" {
			return why + "(" + clip(prog) + ") " + reason
		}
		return ""
	}
	for _, dir := range a.Dirs {
		target := g.absTarget(dir, acc.Path)
		if target == "" {
			return why + "is relative to an unknown directory"
		}
		if slices.Contains(strings.Split(filepath.ToSlash(target), "/"), "..") {
			return why + "names its virtual environment through \"..\""
		}
		target = filepath.Clean(target)
		if reason := g.writesInto(a, g.lookups().Resolve(filepath.Dir(filepath.Dir(target)))); reason != "" {
			return why + reason
		}
		if reason := venvProgram(target, root); reason != "" {
			return why + reason
		}
	}
	return ""
}

// writesInto says why a writes into the directory env (resolved), or
// "": a write the analysis lists, or a word given to a command it does
// not model, below env (python3 -m venv .venv makes env itself).
func (g *Gate) writesInto(a *shellscan.Analysis, env string) string {
	for _, w := range a.Accesses {
		if w.Runs || w.Venv || w.Mode == shellscan.Read && !w.Unknown {
			continue
		}
		for _, dir := range a.Dirs {
			target := g.absTarget(dir, w.Path)
			if target == "" {
				return "is run by a line that writes a path relative to an unknown directory"
			}
			if w.Pattern {
				target = pathmatch.LiteralDir(target)
				if r := g.lookups().Resolve(target); pathmatch.Within(r, env) || pathmatch.Within(env, r) {
					return "is run by a line that writes paths named by a pattern that may lie in its virtual environment: " + clip(w.Path)
				}
				continue
			}
			r := g.lookups().Resolve(target)
			if pathmatch.Within(r, env) && !(w.Unknown && r == env) {
				return "is run by a line that writes into its virtual environment: " + clip(w.Path)
			}
		}
	}
	return ""
}

// venvProgram says why prog, the absolute path of a pip or python in the
// bin directory of a virtual environment, may install outside root (the
// resolved workdir), or "". An environment, or a program, that does not
// exist yet is one the line makes (python3 -m venv .venv); the analysis
// makes opaque the lines that would make one otherwise (cp -r, tar, ln).
func venvProgram(prog, root string) string {
	if _, err := os.Lstat(filepath.Dir(filepath.Dir(prog))); errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	env, reason := venvOf(prog, root)
	if reason != "" {
		return reason
	}
	if _, err := os.Lstat(prog); errors.Is(err, fs.ErrNotExist) {
		return venvFiles(env)
	}
	real, err := filepath.EvalSymlinks(prog)
	if err != nil {
		return "is a link that leads nowhere"
	}
	kind, interp, err := programKind(real)
	if err != nil {
		return "cannot be read: " + err.Error()
	}
	switch kind {
	case programScript:
		if !pathmatch.Within(real, env) {
			return "is a script that lies outside its virtual environment (" + clip(real) + ")"
		}
		if interp == "" {
			return "is a script whose #! line does not name a python by its path"
		}
		ienv, reason := venvOf(interp, root)
		if reason != "" {
			return "runs " + clip(interp) + ", which " + reason
		}
		if ienv != env {
			return "runs " + clip(interp) + ", the python of another environment"
		}
		ireal, err := filepath.EvalSymlinks(interp)
		if err != nil {
			return "runs " + clip(interp) + ", which does not exist"
		}
		if k, _, err := programKind(ireal); err != nil || k != programBinary || !pythonName(filepath.Base(interp)) || !pythonName(filepath.Base(ireal)) {
			return "runs " + clip(interp) + ", which is not a python program"
		}
	default:
		if !pythonName(filepath.Base(prog)) || !pythonName(filepath.Base(real)) {
			return "is a program, not a pip script, that is not a python"
		}
	}
	return venvFiles(env)
}

// venvOf returns the resolved directory of the virtual environment whose
// bin (or Scripts) directory holds prog, as prog names it, or why it is
// not one of the workdir root.
func venvOf(prog, root string) (string, string) {
	bin := filepath.Dir(prog)
	if b := filepath.Base(bin); b != "bin" && b != "Scripts" {
		return "", "is not in the bin directory of a virtual environment"
	}
	env, err := filepath.EvalSymlinks(filepath.Dir(bin))
	if err != nil {
		return "", "is not in a virtual environment that exists"
	}
	if !pathmatch.Within(env, root) || pathmatch.Within(env, filepath.Join(root, ".git")) {
		return "", "is in a virtual environment outside the workdir's ordinary files (" + clip(env) + ")"
	}
	if rb, err := filepath.EvalSymlinks(bin); err != nil || rb != filepath.Join(env, filepath.Base(bin)) {
		return "", "is in a bin directory that is a link out of its virtual environment"
	}
	if _, err := os.Lstat(filepath.Join(bin, "pyvenv.cfg")); err == nil {
		return "", "has a pyvenv.cfg beside it, which makes its bin directory the environment"
	}
	fi, err := os.Lstat(filepath.Join(env, "pyvenv.cfg"))
	if err != nil || !fi.Mode().IsRegular() {
		return "", "is in a directory without the pyvenv.cfg of a virtual environment, so its python installs where its link leads"
	}
	return env, ""
}

// Kinds of program, by their first bytes.
const (
	programBinary = iota
	programScript
)

// programKind reads the start of the file at p: a script ("#!") and the
// absolute path of the interpreter its #! line names (or the exec line
// pip writes under "#!/bin/sh" for a long path), "" for any other, or a
// binary.
func programKind(p string) (int, string, error) {
	f, err := openRule(p, false) // a FIFO at p must not make the gate wait
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, "", err
	}
	if !fi.Mode().IsRegular() {
		return 0, "", errors.New("not a regular file")
	}
	r := bufio.NewReader(f)
	head, _ := r.Peek(2)
	if !bytes.Equal(head, []byte("#!")) {
		return programBinary, "", nil
	}
	first, _ := r.ReadString('\n')
	line, ok := shebangLine(strings.TrimPrefix(first, "#!"))
	if !ok {
		return programScript, "", nil
	}
	if line == "/bin/sh" {
		// '''exec' "/path/to/python" "$0" "$@"
		second, _ := r.ReadString('\n')
		second, ok := shebangLine(second)
		rest, ok1 := strings.CutPrefix(second, `'''exec' "`)
		interp, tail, ok2 := strings.Cut(rest, `"`)
		// sh expands $, ` and \ between double quotes.
		if ok && ok1 && ok2 && strings.TrimLeft(tail, " \t") == `"$0" "$@"` && filepath.IsAbs(interp) &&
			!strings.ContainsAny(interp, "$`\\") {
			return programScript, filepath.Clean(interp), nil
		}
		return programScript, "", nil
	}
	if !filepath.IsAbs(line) || strings.ContainsAny(line, " \t") {
		return programScript, "", nil
	}
	return programScript, filepath.Clean(line), nil
}

// shebangLine returns line without its newline and the spaces and tabs
// around it, as the kernel reads a #! line (its interpreter ends at a
// space, a tab or the newline, not at a carriage return), and false when
// what is left holds another control character: the "python\r" of a CRLF
// line is a program of its own.
func shebangLine(line string) (string, bool) {
	line = strings.Trim(strings.TrimSuffix(line, "\n"), " \t")
	for _, c := range line {
		if c < 0x20 && c != '\t' || c == 0x7f {
			return "", false
		}
	}
	return line, true
}

// pythonName reports whether name is that of a python interpreter:
// python, python3, python3.12, python3.13t, pypy3 ….
func pythonName(name string) bool {
	rest, ok := strings.CutPrefix(name, "python")
	if !ok {
		if rest, ok = strings.CutPrefix(name, "pypy"); !ok {
			return false
		}
	}
	rest = strings.TrimSuffix(rest, "t")
	return strings.Trim(rest, "0123456789.") == ""
}

// venvFiles says why pip, installing into the virtual environment env
// (resolved), may write outside it, or "": its pyvenv.cfg includes the
// system's site-packages, it has a pip.conf, or a symbolic link below it
// (but a python link of its bin directory) leads out of it.
func venvFiles(env string) string {
	cfg, err := readNoWait(filepath.Join(env, "pyvenv.cfg"), maxConfigFileSize)
	if err != nil {
		return "is in a virtual environment whose pyvenv.cfg cannot be read"
	}
	for _, line := range strings.Split(string(cfg), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "include-system-site-packages") && !strings.EqualFold(strings.TrimSpace(v), "false") {
			return "is in a virtual environment that includes the system's site-packages, where pip may install into the user's site instead"
		}
	}
	for _, name := range []string{"pip.conf", "pip.ini"} {
		if _, err := os.Lstat(filepath.Join(env, name)); !errors.Is(err, fs.ErrNotExist) {
			return "is in a virtual environment with a " + name + ", which may tell pip to install elsewhere"
		}
	}
	n := 0
	reason := ""
	errStop := errors.New("stop")
	err = filepath.WalkDir(env, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			reason = "is in a virtual environment that cannot be read: " + clip(p)
			return errStop
		}
		if n++; n > maxVenvEntries {
			reason = "is in a virtual environment with too many files to check"
			return errStop
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		if b := filepath.Base(filepath.Dir(p)); filepath.Dir(filepath.Dir(p)) == env && (b == "bin" || b == "Scripts") && pythonName(d.Name()) {
			return nil // the environment's link to its python
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil || !pathmatch.Within(real, env) {
			reason = "is in a virtual environment with a link out of it, through which pip may write: " + clip(p)
			return errStop
		}
		return nil
	})
	if err != nil && reason == "" {
		reason = "is in a virtual environment that cannot be read"
	}
	return reason
}

// uvSettingKeys matches a key of uv's settings that says where uv pip
// installs, which interpreter it uses, or where it writes its cache, in a
// uv.toml or pyproject.toml ([tool.uv.pip] target = …, pip = { prefix = …
// }, tool.uv.cache-dir = …).
var uvSettingKeys = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(^|[\s{,.])["']?(target|prefix|system|break[-_]system[-_]packages|python|python[-_](preference|downloads|install[-_]mirror|downloads[-_]json[-_]url)|managed[-_]python|user|cache[-_]dir|config[-_]file)["']?\s*=`)
})

// uvConfigUnsound says why uv pip, run from a candidate directory of a,
// may read settings there or in a directory above it (uv.toml, or a
// pyproject.toml, which a cloned repository ships) that send its install
// or its cache elsewhere, or "".
func (g *Gate) uvConfigUnsound(a *shellscan.Analysis) string {
	if reason := g.envRedirects(); reason != "" {
		return "uv pip " + reason
	}
	if reason := g.uvSettingsUnsound(); reason != "" {
		return reason
	}
	for _, dir := range a.Dirs {
		target := g.absTarget(dir, ".")
		if target == "" {
			return "uv pip runs in an unknown directory, whose uv settings the gate cannot read"
		}
		for d := g.lookups().Resolve(target); ; d = filepath.Dir(d) {
			for _, name := range []string{"uv.toml", "pyproject.toml"} {
				p := filepath.Join(d, name)
				b, err := readNoWait(p, maxRecipeBytes)
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				if err != nil {
					return "uv pip reads settings from " + clip(p) + ", which cannot be read"
				}
				if tomlEscape().Match(b) {
					return "uv pip reads settings from " + clip(p) + ", which has an escape in a string that may spell a key that says where it installs; pass --no-config to ignore them"
				}
				if uvSettingKeys().Match(b) {
					return "uv pip reads settings from " + clip(p) + ", which may say where it installs (target, prefix, system, python, cache-dir, python-downloads …); pass --no-config to ignore them"
				}
			}
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	return ""
}

// lookPath returns the program name that bash finds by the PATH of the
// environment GateOptions.BashEnv gives, as a virtual environment's pip or
// python would be named by a path, or why that cannot be trusted: the
// environment is unknown, PATH is unset, repeated or has a relative
// directory (found from the directory the line changes to), an exported
// function of that name comes first, no directory has the program, or a
// directory before the one that has it lies in the workdir (root), where
// the line may write one of that name first (a BASH_ENV file, which may
// define a function or set PATH, makes the caller refuse: envRedirects). The sandbox's hidden
// directories only remove programs, so the one found is found there too.
func (g *Gate) lookPath(name, root string) (string, string) {
	const outside = "installs into the environment of the python PATH finds"
	if g.opts.BashEnv == nil {
		return "", outside + ", which may lie outside the workdir, and the environment of the line is unknown; name the pip of a virtual environment in the workdir (.venv/bin/pip) or give --target"
	}
	pathVar, n := "", 0
	for _, kv := range g.opts.BashEnv() {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "PATH":
			pathVar, n = v, n+1
		case strings.HasPrefix(k, "BASH_FUNC_") && strings.TrimSuffix(strings.TrimPrefix(k, "BASH_FUNC_"), "%%") == name:
			return "", outside + ", and the environment exports a bash function of that name"
		}
	}
	if n != 1 {
		return "", outside + ", and the environment has no single PATH"
	}
	for _, dir := range strings.Split(pathVar, ":") {
		if !filepath.IsAbs(dir) {
			return "", outside + ", and PATH has a directory that is not absolute: " + clip(dir)
		}
		// The name as bash gives it to the kernel, which resolves a ".."
		// after the link or missing directory before it, as Join's
		// lexical cleaning would not: /w/missing/../.venv/bin finds no
		// pip there, and bash goes on to the next directory.
		p := dir + "/" + name
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			if fi.Mode().Perm()&0o111 != 0o111 {
				return "", outside + ", and PATH finds one that only some users may run: " + clip(p)
			}
			rdir, err := filepath.EvalSymlinks(dir)
			if err != nil {
				return "", outside + ", and PATH has a directory that cannot be resolved: " + clip(dir)
			}
			return filepath.Join(rdir, name), ""
		}
		if pathmatch.Within(g.lookups().Resolve(dir), root) {
			return "", outside + ", and PATH has a directory in the workdir before it, where the line may write one: " + clip(dir)
		}
	}
	return "", outside + ", and PATH has none"
}

// redirectingEnv reports whether k is a variable of the environment
// that pip or uv pip reads as an option that says where it installs or
// writes, or which settings or interpreter it uses: PIP_ and an option's
// long name (pip reads PIP_TARGET as --target …) that is not one of
// pipSafeKeys (PIP_CONFIG_FILE among them), or UV_ and a name that is not
// one of uvSafeKeys (UV_PYTHON, UV_SYSTEM_PYTHON, UV_CONFIG_FILE,
// UV_PYTHON_INSTALL_DIR, UV_PYTHON_PREFERENCE and any uv may add later
// among them); or BASH_ENV, a file bash -c reads first, which
// may export any of them, define a function pip or set PATH.
func redirectingEnv(k string) bool {
	if name, ok := strings.CutPrefix(k, "PIP_"); ok {
		return !pipSafeKeys()[pipKeyName(name)]
	}
	if name, ok := strings.CutPrefix(k, "UV_"); ok {
		if idx, ok := strings.CutPrefix(name, "INDEX_"); ok && (strings.HasSuffix(idx, "_USERNAME") || strings.HasSuffix(idx, "_PASSWORD")) {
			return false // a named index's credentials
		}
		return !uvSafeKeys()[name]
	}
	return k == "BASH_ENV"
}

// uvSafeKeys are the names, after UV_, of uv's variables that leave where
// uv pip installs and which python it uses alone: the index, network,
// output, cache and resolver options, the link mode and keyring provider
// (allowed in the user's uv.toml too: see uvPipSafeKeys), and those of
// commands the analysis refuses anyway (uv run's, uv publish's, the
// installer's PATH edits).
var uvSafeKeys = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"INDEX", "INDEX_URL", "EXTRA_INDEX_URL", "DEFAULT_INDEX", "FIND_LINKS", "INDEX_STRATEGY",
		"HTTP_TIMEOUT", "HTTP_RETRIES", "REQUEST_TIMEOUT", "CONCURRENT_BUILDS", "CONCURRENT_DOWNLOADS",
		"CONCURRENT_INSTALLS", "NATIVE_TLS", "OFFLINE", "INSECURE_HOST", "NO_PROGRESS", "NO_WRAP", "LOG_CONTEXT",
		"NO_CACHE", "CACHE_DIR", "PRERELEASE", "RESOLUTION", "EXCLUDE_NEWER", "FORK_STRATEGY", "NO_BINARY",
		"NO_BINARY_PACKAGE", "NO_BUILD", "NO_BUILD_PACKAGE", "COMPILE_BYTECODE", "COMPILE_BYTECODE_TIMEOUT",
		"REQUIRE_HASHES", "NO_VERIFY_HASHES", "CONSTRAINT", "OVERRIDE", "BUILD_CONSTRAINT", "STACK_SIZE",
		"NO_CONFIG", "ISOLATED", "FROZEN", "LOCKED", "NO_SYNC", "DEV", "NO_DEV", "NO_EDITABLE", "GIT_LFS",
		"NO_GITHUB_FAST_PATH", "NO_HF_TOKEN", "NO_INSTALLER_METADATA", "TORCH_BACKEND", "NO_MODIFY_PATH",
		"ENV_FILE", "NO_ENV_FILE", "PUBLISH_URL", "PUBLISH_INDEX", "PUBLISH_USERNAME", "PUBLISH_PASSWORD",
		"PUBLISH_TOKEN", "PUBLISH_CHECK_URL", "GITHUB_TOKEN", "LINK_MODE", "KEYRING_PROVIDER"} {
		m[n] = true
	}
	return m
})

// envRedirects says why the environment GateOptions.BashEnv gives the
// line sends a pip or uv pip elsewhere than the virtual environment (or
// --target) the line names, or "": PIP_TARGET=~/t makes .venv/bin/pip
// install x install into the home. They are the user's settings, but
// "allow bash" promises that no install outside the workdir is allowed,
// and the gate knows this environment is the line's. An unknown
// environment (BashEnv nil) is not guessed at: the gate's own process
// environment need not be the line's.
func (g *Gate) envRedirects() string {
	if g.opts.BashEnv == nil {
		return ""
	}
	for _, kv := range g.opts.BashEnv() {
		if k, _, _ := strings.Cut(kv, "="); redirectingEnv(k) {
			return "runs in an environment whose " + k + " may say where it installs"
		}
	}
	return ""
}
