package shellscan

import (
	"slices"
	"testing"
)

// A pip or python named by a path into a virtual environment's bin
// directory is handed to the caller as an Access.Venv, which checks the
// program and its environment; a command guessed among the words of one
// the analysis does not model keeps no accesses, so there it is opaque.
func TestVenvProgramIsHandedToTheCaller(t *testing.T) {
	for _, c := range []struct{ line, prog string }{
		{".venv/bin/pip install x", ".venv/bin/pip"},
		{"venv/bin/python -m pip install x", "venv/bin/python"},
		{".venv/bin/python3 -m pip uninstall -y x", ".venv/bin/python3"},
		{"pip --python .venv/bin/python install x", ".venv/bin/python"},
		{"/w/.venv/bin/pip install -r requirements.txt", "/w/.venv/bin/pip"},
	} {
		a := analyzeBash(c.line, "/home/u", "/w")
		if len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", c.line, a.reasons)
		}
		if !slices.ContainsFunc(a.accesses, func(acc access) bool { return acc.venv && acc.path == c.prog }) {
			t.Errorf("%q: no venv access of %s in %+v", c.line, c.prog, a.accesses)
		}
	}
	for _, line := range []string{
		"logsave /dev/null .venv/bin/pip uninstall -y m", "logsave log .venv/bin/python -m pip uninstall -y m",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
}

// uv pip install --python naming a virtual environment's interpreter by a
// path, or --target, is understood: uv's words are not taken for files it
// writes before the pip guessed among them runs them (the rule that a
// package manager runs the code of the packages it is given still holds
// for what the line writes before uv), and uv's settings are handed to
// the caller (Access.UvConfig) unless --no-config.
func TestUvPipIntoAVirtualEnvironment(t *testing.T) {
	for _, c := range []struct {
		line   string
		venv   string
		config bool
	}{
		{"uv pip install --python .venv/bin/python x", ".venv/bin/python", true},
		{"uv pip install --python=.venv/bin/python -r requirements.txt", ".venv/bin/python", true},
		{"uv pip install -p .venv/bin/python x", ".venv/bin/python", true},
		{"uv pip sync --python .venv/bin/python requirements.txt", ".venv/bin/python", true},
		{"uv pip uninstall --python .venv/bin/python x", ".venv/bin/python", true},
		{"uv pip install --no-config --python .venv/bin/python x", ".venv/bin/python", false},
		{"python3 -m uv pip install --python .venv/bin/python x", ".venv/bin/python", true},
		{"uv pip install --target ./t x", "", true},
		{"uv pip install --target=vendor -r requirements.txt", "", true},
	} {
		a := analyzeBash(c.line, "/home/u", "/w")
		if len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", c.line, a.reasons)
		}
		if c.venv != "" && !slices.ContainsFunc(a.accesses, func(acc access) bool { return acc.venv && acc.path == c.venv }) {
			t.Errorf("%q: no venv access of %s in %+v", c.line, c.venv, a.accesses)
		}
		if got := slices.ContainsFunc(a.accesses, func(acc access) bool { return acc.uvConfig }); got != c.config {
			t.Errorf("%q: uv settings handed over %v, want %v", c.line, got, c.config)
		}
	}
	for _, line := range []string{
		"uv pip install x", "uv pip install --python python3.12 x", "uv pip install --python /usr/bin/python3 x",
		"uv pip install --target t --python python3.12 x", "uv pip install --target t --system x",
		"uv pip install --system --target t x", "uv pip install --target t --prefix p x",
		"uv pip install --python .venv/bin/python --config-file c.toml x", "uv pip uninstall --target t x",
		"echo x > p.tgz && uv pip install --target t ./p.tgz",
		"echo x > .venv/bin/python && uv pip install --python .venv/bin/python x",
		"echo x > .venv/bin/py && uv pip install -p.venv/bin/py x",
		"logsave log uv pip install --python .venv/bin/python x",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
}

// opaqueOrFoundByPath reports whether a is opaque, or runs a pip or python
// that PATH finds, which the caller allows only when PATH finds it in a
// virtual environment of the workdir (see Access.Lookup).
func opaqueOrFoundByPath(a *bashAnalysis) bool {
	return len(a.reasons) > 0 || slices.ContainsFunc(a.accesses, func(acc access) bool { return acc.lookup })
}

// A pip or python named without a path that the line runs itself is
// handed to the caller as an Access.Lookup, to be found by the PATH the
// line gets; under a wrapper (sudo resets PATH, env may change it), in a
// shell string (bash -l reads a profile that sets PATH) or guessed among
// an unmodelled command's words it stays opaque, and so does a line that
// changes PATH first.
func TestPipFoundByPath(t *testing.T) {
	for _, line := range []string{
		"pip install -r requirements.txt", "pip3 install x", "python3 -m pip install x", "python -m pip install -r r.txt",
		"(pip install x)", "cd sub && pip install -r requirements.txt", "if true; then pip install x; fi",
		"pip uninstall -y x",
	} {
		a := analyzeBash(line, "/home/u", "/w")
		if len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
		if !slices.ContainsFunc(a.accesses, func(acc access) bool { return acc.lookup && acc.venv }) {
			t.Errorf("%q: no lookup access in %+v", line, a.accesses)
		}
	}
	for _, line := range []string{
		"sudo pip install x", "nice pip install x", "env pip install x", "command pip install x", "exec pip install x",
		"bash -c 'pip install x'", "bash -lc 'pip install x'", "logsave f pip install x", "timeout 9 pip install x",
		"PATH=/tmp pip install x", "export PATH=/tmp; pip install x", "read PATH < f; pip install x",
		"hash -p /usr/bin/pip pip; pip install x", "unset PATH; pip install x", "pip install --user x",
		"source .venv/bin/activate && pip install x", "for PATH in /tmp; do pip install x; done",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
}

// uv's project commands lock and sync the environment of the project uv
// finds in the working directory or any directory above it (a
// pyproject.toml, or a workspace root, above the workdir makes its .venv
// and uv.lock those of a directory outside it), or UV_PROJECT_ENVIRONMENT
// names, and download a python into ~/.local/share/uv when none on the
// system fits: each installs outside the workdir, as poetry install does,
// and is opaque; uv's commands that only show state are not.
func TestUvProjectCommandsAreOpaque(t *testing.T) {
	for _, line := range []string{
		"uv sync", "uv add x", "uv remove x", "uv lock", "uv venv", "uv venv .venv", "uv init", "uv tree",
		"uv export", "uv build", "uv version --bump minor", "uv -q sync", "uv --directory sub sync",
		"python3 -m uv sync", "logsave /dev/null uv sync",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"uv", "uv --version", "uv help", "uv help sync", "uv cache dir", "uv python list", "uv python find",
		"uv python dir", "uv tool list", "uv tool dir", "uv self version", "uv pip list", "uv pip freeze",
		"uv pip compile r.in -o r.txt", "uv pip install --target ./t x", "uv pip install --python .venv/bin/python x",
		"uv generate-shell-completion bash", "uv publish",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// A pip command the analysis allows (pip install into a virtual
// environment or --target, pip download, pip wheel) records an
// Access.PipConfig, through which the caller checks the settings files
// and environment pip reads; among the words of a command the analysis
// does not model, whose accesses are not kept, such a pip is opaque.
func TestPipConfigAccess(t *testing.T) {
	for _, line := range []string{
		".venv/bin/pip install x", ".venv/bin/python -m pip uninstall -y x", "pip install --target ./t x",
		"python3 -m pip install -t ./t x", "nice pip install --target ./t x", "timeout 5 pip download x", "pip download x", "pip wheel -w ./w x", "pip --verbose download -d ./d x",
	} {
		a := Analyze(line, Options{Home: "/home/u", Workdir: "/w"})
		if a.Opaque {
			t.Errorf("%q is opaque: %s", line, a.Reason())
			continue
		}
		if !slices.ContainsFunc(a.Accesses, func(acc Access) bool { return acc.PipConfig && acc.Path == "." }) {
			t.Errorf("%q records no PipConfig access: %+v", line, a.Accesses)
		}
	}
	for _, line := range []string{"logsave /dev/null pip install --target ./t x", "logsave /dev/null pip download x"} {
		if a := Analyze(line, Options{Home: "/home/u", Workdir: "/w"}); !a.Opaque {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{"pip list", "pip show x", "pip freeze", "uv pip install --python .venv/bin/python x"} {
		a := Analyze(line, Options{Home: "/home/u", Workdir: "/w"})
		if slices.ContainsFunc(a.Accesses, func(acc Access) bool { return acc.PipConfig }) {
			t.Errorf("%q records a PipConfig access", line)
		}
	}
}
