//go:build linux

package permission_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// The lines canaryPipVenv runs: the pip, and the python -m pip, of the
// workdir's .venv, each installing a wheel of the workdir.
const (
	venvPipLine = `.venv/bin/pip install --no-index ./m-1.0-py3-none-any.whl`
	venvPyLine  = `.venv/bin/python -m pip install --no-index ./m-1.0-py3-none-any.whl`
)

// canaryPipVenv are the virtual environments a cloned repository can
// ship in the workdir, made from a real one (see workVenv), whose pip
// installs into the home: "allow bash" allowed each before, as the pip or
// python is named by a path into a .venv of the workdir. setup changes
// the workdir's .venv (work) given the home (home) and the bin directory
// of a virtual environment there (homeBin, see homeVenv).
var canaryPipVenv = []struct {
	name  string
	line  string
	setup func(t *testing.T, work, home, homeBin string)
}{
	{"pip linked to the home's pip", venvPipLine, func(t *testing.T, work, home, homeBin string) {
		relink(t, filepath.Join(homeBin, "pip"), filepath.Join(work, ".venv", "bin", "pip"))
	}},
	{"pip script of the home's python", venvPipLine, func(t *testing.T, work, home, homeBin string) {
		writeExec(t, filepath.Join(work, ".venv", "bin", "pip"), pipScript(filepath.Join(homeBin, "python")))
	}},
	// A command guessed among the words of logsave, which the analysis
	// does not model, whose program the gate cannot check.
	{"pip script of the home's python, through logsave", "logsave /dev/null .venv/bin/pip uninstall -y m", func(t *testing.T, work, home, homeBin string) {
		writeExec(t, filepath.Join(work, ".venv", "bin", "pip"), pipScript(filepath.Join(homeBin, "python")))
		sp, _ := filepath.Glob(filepath.Join(filepath.Dir(homeBin), "lib", "python3*", "site-packages"))
		if len(sp) != 1 {
			t.Fatalf("site-packages: %v", sp)
		}
		for name, content := range map[string]string{
			"m/__init__.py": "", "m-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: m\nVersion: 1.0\n",
			"m-1.0.dist-info/INSTALLER": "pip\n",
			"m-1.0.dist-info/RECORD":    "m/__init__.py,,\nm-1.0.dist-info/METADATA,,\nm-1.0.dist-info/INSTALLER,,\nm-1.0.dist-info/RECORD,,\n",
		} {
			writeExec(t, filepath.Join(sp[0], name), content)
		}
	}},
	{"python linked to a shim", venvPyLine, func(t *testing.T, work, home, homeBin string) {
		shim := filepath.Join(home, "shims", "python3")
		writeExec(t, shim, "#!/bin/sh\nexec "+filepath.Join(homeBin, "python")+" \"$@\"\n")
		relink(t, shim, filepath.Join(work, ".venv", "bin", "python"))
	}},
	{"bin linked out", venvPipLine, func(t *testing.T, work, home, homeBin string) {
		relink(t, homeBin, filepath.Join(work, ".venv", "bin"))
	}},
	{"lib linked out", venvPyLine, func(t *testing.T, work, home, homeBin string) {
		lib := filepath.Join(home, "lib")
		if err := os.Rename(filepath.Join(work, ".venv", "lib"), lib); err != nil {
			t.Fatal(err)
		}
		relink(t, lib, filepath.Join(work, ".venv", "lib"))
	}},
	{"a package directory linked out", venvPyLine, func(t *testing.T, work, home, homeBin string) {
		dir := filepath.Join(home, "pkg")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		sp, _ := filepath.Glob(filepath.Join(work, ".venv", "lib", "python3*", "site-packages"))
		if len(sp) != 1 {
			t.Fatalf("site-packages: %v", sp)
		}
		relink(t, dir, filepath.Join(sp[0], "m"))
	}},
	{"pip.conf", venvPyLine, func(t *testing.T, work, home, homeBin string) {
		writeExec(t, filepath.Join(work, ".venv", "pip.conf"), "[install]\ntarget = "+filepath.Join(home, "t")+"\n")
	}},
	// The kernel ends the #! line at the newline, not at a CR: a pip
	// written with CRLF runs "python\r", a program of its own.
	{"pip script with a CRLF #! line", venvPipLine, func(t *testing.T, work, home, homeBin string) {
		bin := filepath.Join(work, ".venv", "bin")
		writeExec(t, filepath.Join(bin, "pip"), strings.ReplaceAll(pipScript(filepath.Join(bin, "python")), "\n", "\r\n"))
		writeExec(t, filepath.Join(bin, "python\r"), "#!/bin/sh\nexec "+filepath.Join(homeBin, "python")+" \"$@\"\n")
	}},
	// pip writes a long #! line as #!/bin/sh and an exec line, whose
	// path sh expands: ${X:-} in it names .venv, a link to the home's
	// virtual environment, when run.
	{"pip script whose exec line sh expands", `'.venv${X:-}/bin/pip' install --no-index ./m-1.0-py3-none-any.whl`, func(t *testing.T, work, home, homeBin string) {
		odd := filepath.Join(work, ".venv${X:-}")
		if err := os.Rename(filepath.Join(work, ".venv"), odd); err != nil {
			t.Fatal(err)
		}
		writeExec(t, filepath.Join(odd, "bin", "pip"), "#!/bin/sh\n'''exec' \""+filepath.Join(odd, "bin", "python")+
			"\" \"$0\" \"$@\"\n' '''\nimport sys\nfrom pip._internal.cli.main import main\nsys.exit(main())\n")
		relink(t, filepath.Dir(homeBin), filepath.Join(work, ".venv"))
	}},
	{"pip.conf the line writes", `printf '[install]\ntarget = %s\n' "$HOME/t" > .venv/pip.conf && ` + venvPyLine, nil},
}

// canaryPipVenvOrdinary are the lines "allow bash" must still allow in a
// workdir with a real virtual environment; the first is run, and must
// install into it.
var canaryPipVenvOrdinary = []string{
	venvPipLine, venvPyLine, ".venv/bin/pip install -r requirements.txt", ".venv/bin/python3 -m pip uninstall -y m",
	".venv/bin/python -m pip install -r requirements.txt", "python3 -m venv v2 && v2/bin/pip install -r requirements.txt",
	"venv/bin/python -m pip install x",
}

func TestCanaryPipVenv(t *testing.T) {
	t.Parallel()
	sysPip := systemPip(t)
	template := canaryTemplate(t)
	homeStateFiles(t, template)
	for _, c := range canaryPipVenv {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			canaryPipVenvCase(t, template, sysPip, c.line, c.setup)
		})
	}
	t.Run("ordinary", func(t *testing.T) {
		t.Parallel()
		canaryPipVenvOrdinaryLines(t, template, sysPip)
	})
}

// canaryPipVenvCase checks that line is refused in every scenario in a
// workdir whose .venv setup changes, and changes the home when run.
func canaryPipVenvCase(t *testing.T, template, sysPip, line string, setup func(t *testing.T, work, home, homeBin string)) {
	t.Helper()
	root := canaryFixture(t, template)
	work, home := filepath.Join(root, "work"), filepath.Join(root, "home")
	homeBin := homeVenv(t, "/usr/bin/python3", root)
	workVenv(t, work, sysPip)
	if setup != nil {
		setup(t, work, home, homeBin)
	}
	refusedEverywhere(t, root, line)
	before := canarySnapshot(t, root)
	out := runLine(t, root, line, time.Minute, "/usr/sbin", "PIP_NO_CACHE_DIR=1", "PIP_DISABLE_PIP_VERSION_CHECK=1")
	if p := changed(before, canarySnapshot(t, root)); !strings.HasPrefix(p, home+string(filepath.Separator)) {
		t.Errorf("%q changed nothing in the home when run (%q):\n%s", line, p, out)
	}
}

// canaryPipVenvOrdinaryLines checks that canaryPipVenvOrdinary are allowed
// in a workdir with a real virtual environment, and that the first
// installs there.
func canaryPipVenvOrdinaryLines(t *testing.T, template, sysPip string) {
	t.Helper()
	root := canaryFixture(t, template)
	work := filepath.Join(root, "work")
	workVenv(t, work, sysPip)
	g := canaryGate(t, root, canaryAllowBashRules)
	for _, line := range canaryPipVenvOrdinary {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
	before := canarySnapshot(t, root)
	out := runLine(t, root, canaryPipVenvOrdinary[0], time.Minute, "", "PIP_NO_CACHE_DIR=1", "PIP_DISABLE_PIP_VERSION_CHECK=1")
	if m, _ := filepath.Glob(filepath.Join(work, ".venv", "lib", "python3*", "site-packages", "m", "__init__.py")); len(m) != 1 {
		t.Errorf("%q did not install into the workdir's .venv:\n%s", canaryPipVenvOrdinary[0], out)
	}
	if p := changed(before, canarySnapshot(t, root)); p != "" {
		t.Errorf("%q changed %s", canaryPipVenvOrdinary[0], p)
	}
}

// systemPip returns the directory that holds the pip package of the
// system's python3, or skips the test naming the script that installs it
// (fails under CI).
func systemPip(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		tooltest.Missing(t, "/usr/bin/python3 is not installed", tooltest.CanaryTools)
	}
	out, err := exec.Command("/usr/bin/python3", "-c", "import os, pip; print(os.path.dirname(os.path.dirname(pip.__file__)))").Output()
	if err != nil {
		tooltest.Missing(t, "/usr/bin/python3 has no pip", tooltest.CanaryTools)
	}
	return strings.TrimSpace(string(out))
}

// workVenv makes .venv in work a real virtual environment of the system's
// python3, whose pip is the system's (found through a .pth file sysPip)
// run by a pip script of its own, as pip writes one.
func workVenv(t *testing.T, work, sysPip string) {
	t.Helper()
	venv := filepath.Join(work, ".venv")
	if err := os.RemoveAll(venv); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("/usr/bin/python3", "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		tooltest.Missing(t, "/usr/bin/python3 -m venv: "+err.Error()+": "+strings.TrimSpace(string(out)), tooltest.CanaryTools)
	}
	sp, _ := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages"))
	if len(sp) != 1 {
		t.Fatalf("site-packages: %v", sp)
	}
	if err := os.WriteFile(filepath.Join(sp[0], "syspip.pth"), []byte(sysPip+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeExec(t, filepath.Join(venv, "bin", "pip"), pipScript(filepath.Join(venv, "bin", "python")))
}

// pipScript is the pip script pip writes for the python at python.
func pipScript(python string) string {
	return "#!" + python + "\nimport sys\nfrom pip._internal.cli.main import main\nsys.exit(main())\n"
}

// writeExec writes an executable file at p.
func writeExec(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}

// relink replaces link with a symbolic link to to.
func relink(t *testing.T, to, link string) {
	t.Helper()
	if err := os.RemoveAll(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(to, link); err != nil {
		t.Fatal(err)
	}
}

// uv pip install --python naming the workdir's virtual environment, or
// --target, is allowed, but not when that environment is one pip may not
// trust, nor when the settings uv reads in the workdir or above it (a
// cloned repository's uv.toml or pyproject.toml) may say where it
// installs, unless --no-config.
func TestPipVenvUv(t *testing.T) {
	t.Parallel()
	root, work, home := venvFixture(t)
	g := canaryGate(t, root, canaryAllowBashRules)
	allowed := []string{
		"uv pip install --python .venv/bin/python x", "uv pip install -p .venv/bin/python -r requirements.txt",
		"uv pip install --target ./t x", "python3 -m uv pip install --python .venv/bin/python x",
		"uv pip install --no-config --python .venv/bin/python x",
	}
	for _, line := range allowed {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("%q was refused: %+v", line, out.Verdict)
		}
	}
	for file, content := range map[string]string{
		"uv.toml":              "[pip]\ntarget = \"" + filepath.Join(home, "t") + "\"\n",
		"pyproject.toml":       "[project]\nname = \"p\"\n\n[tool.uv.pip]\nprefix = \"" + home + "\"\n",
		"sub/pyproject.toml":   "[tool.uv]\ncache-dir = \"" + filepath.Join(home, ".config") + "\"\n",
		"../pyproject.toml":    "tool.uv.pip.system = true\n",
		"sub/../uv.toml":       "pip = { python = \"/usr/bin/python3\" }\n",
		".venv/bin/pyvenv.cfg": "home = /usr/bin\n",
		// A python to download into the home.
		"./pyproject.toml": "[tool.uv]\npython-preference = \"only-managed\"\n",
		".//uv.toml":       "python-downloads = \"automatic\"\n",
		"../../uv.toml":    "managed-python = true\n",
		// mypy's python_version is no setting of uv.
		"sub/../pyproject.toml": "[tool.mypy]\npython_version = \"3.11\"\n",
	} {
		p := filepath.Join(work, file)
		writeExec(t, p, content)
		if strings.Contains(content, "mypy") {
			for _, line := range allowed {
				if out := authorize(t, g, line); !out.Run {
					t.Errorf("with %s, %q was refused: %+v", file, line, out.Verdict)
				}
			}
			os.Remove(p)
			continue
		}
		for _, line := range allowed[:4] {
			if strings.HasPrefix(line, "uv pip install --target") && strings.HasPrefix(file, ".venv") {
				continue
			}
			l := line
			if strings.HasPrefix(file, "sub/pyproject") {
				l = "cd sub && " + line
			}
			if out := authorize(t, g, l); out.Run {
				t.Errorf("with %s, %q was allowed", file, l)
			}
		}
		if !strings.HasPrefix(file, ".venv") && !strings.HasPrefix(file, "sub/pyproject") {
			if out := authorize(t, g, allowed[4]); !out.Run {
				t.Errorf("with %s, %q was refused: %+v", file, allowed[4], out.Verdict)
			}
		}
		os.Remove(p)
	}
}

// With the environment the bash tool gives the line (GateOptions.BashEnv),
// pip and python -m pip named without a path are allowed when PATH finds
// them in a virtual environment of the workdir that a path into its bin
// directory would be allowed as (an activated .venv), and installs there
// when run; they stay refused when that environment is unknown, when PATH
// finds one outside the workdir or one the gate does not trust, when a
// directory of the workdir comes first in PATH, or PATH has a relative
// directory, or the environment exports a bash function of that name.
func TestCanaryPipFoundByPath(t *testing.T) {
	t.Parallel()
	sysPip := systemPip(t)
	template := canaryTemplate(t)
	homeStateFiles(t, template)
	fixture := func(t *testing.T) (root, work, homeBin string) {
		root = canaryFixture(t, template)
		work = filepath.Join(root, "work")
		homeBin = homeVenv(t, "/usr/bin/python3", root)
		workVenv(t, work, sysPip)
		return root, work, homeBin
	}
	env := func(root string, first string, more ...string) []string {
		e := canaryEnv(filepath.Join(root, "home"))
		for i, kv := range e {
			if p, ok := strings.CutPrefix(kv, "PATH="); ok {
				e[i] = "PATH=" + first + ":" + p
			}
		}
		return append(e, more...)
	}
	const line = `pip install --no-index ./m-1.0-py3-none-any.whl`
	root, work, _ := fixture(t)
	active := filepath.Join(work, ".venv", "bin")
	g := canaryGateEnv(t, root, env(root, active))
	for _, l := range []string{line, "pip install -r requirements.txt", "python -m pip install --no-index -r requirements.txt",
		"python3 -m pip uninstall -y m", "cd sub && pip install x"} {
		if out := authorize(t, g, l); !out.Run {
			t.Errorf("%q in an activated .venv was refused: %+v", l, out.Verdict)
		}
	}
	if out := authorize(t, canaryGate(t, root, canaryAllowBashRules), line); out.Run {
		t.Errorf("%q was allowed with the environment unknown", line)
	}
	for _, l := range []string{"sudo pip install x", "nice pip install x", "PATH=/usr/bin pip install x"} {
		if out := authorize(t, g, l); out.Run {
			t.Errorf("%q was allowed", l)
		}
	}
	before := canarySnapshot(t, root)
	out := runLine(t, root, line, time.Minute, active, "PIP_NO_CACHE_DIR=1", "PIP_DISABLE_PIP_VERSION_CHECK=1")
	if m, _ := filepath.Glob(filepath.Join(work, ".venv", "lib", "python3*", "site-packages", "m", "__init__.py")); len(m) != 1 {
		t.Errorf("%q did not install into the activated .venv:\n%s", line, out)
	}
	if p := changed(before, canarySnapshot(t, root)); p != "" {
		t.Errorf("%q changed %s", line, p)
	}

	// Refused, and each writes the home when run.
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, work, homeBin string) (first string, more []string)
	}{
		{"a virtual environment of the home", func(t *testing.T, work, homeBin string) (string, []string) {
			return homeBin, nil
		}},
		{"an activated .venv whose pip is the home's", func(t *testing.T, work, homeBin string) (string, []string) {
			relink(t, filepath.Join(homeBin, "pip"), filepath.Join(work, ".venv", "bin", "pip"))
			return filepath.Join(work, ".venv", "bin"), nil
		}},
		{"a directory of the workdir first, where the line writes a pip", func(t *testing.T, work, homeBin string) (string, []string) {
			if err := os.Mkdir(filepath.Join(work, "tools"), 0o755); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(work, "tools") + ":" + filepath.Join(work, ".venv", "bin"), nil
		}},
		{"a relative directory", func(t *testing.T, work, homeBin string) (string, []string) {
			writeExec(t, filepath.Join(work, "tools", "pip"), pipScript(filepath.Join(homeBin, "python")))
			return "tools:" + filepath.Join(work, ".venv", "bin"), nil
		}},
		{"a directory named through a missing one's ..", func(t *testing.T, work, homeBin string) (string, []string) {
			return work + "/missing/../.venv/bin:" + homeBin, nil
		}},
		{"a directory named through a link's ..", func(t *testing.T, work, homeBin string) (string, []string) {
			home := filepath.Dir(filepath.Dir(homeBin))
			if err := os.Mkdir(filepath.Join(home, "z"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(home, "z"), filepath.Join(work, "l")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Dir(homeBin), filepath.Join(home, ".venv")); err != nil {
				t.Fatal(err)
			}
			return work + "/l/../.venv/bin", nil
		}},
		// bash -c reads the file BASH_ENV names before the line, where a
		// function or alias of that name, or another PATH, may be set.
		{"BASH_ENV", func(t *testing.T, work, homeBin string) (string, []string) {
			writeExec(t, filepath.Join(work, ".bashenv"), "pip() { "+filepath.Join(homeBin, "pip")+" \"$@\"; }\n")
			return filepath.Join(work, ".venv", "bin"), []string{"BASH_ENV=" + filepath.Join(work, ".bashenv")}
		}},
		{"an exported function", func(t *testing.T, work, homeBin string) (string, []string) {
			return filepath.Join(work, ".venv", "bin"), []string{"BASH_FUNC_pip%%=() { " + filepath.Join(homeBin, "pip") + " \"$@\"; }"}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root, work, homeBin := fixture(t)
			first, more := c.setup(t, work, homeBin)
			line := line
			if strings.Contains(c.name, "writes a pip") {
				line = `printf '#!%s\nimport sys\nfrom pip._internal.cli.main import main\nsys.exit(main())\n' "$HOME/venv/bin/python" > tools/pip && chmod +x tools/pip && ` + line
			}
			if out := authorize(t, canaryGateEnv(t, root, env(root, first, more...)), line); out.Run {
				t.Errorf("%q was allowed", line)
			}
			before := canarySnapshot(t, root)
			out := runLine(t, root, line, time.Minute, first, append([]string{"PIP_NO_CACHE_DIR=1", "PIP_DISABLE_PIP_VERSION_CHECK=1"}, more...)...)
			if p := changed(before, canarySnapshot(t, root)); !strings.HasPrefix(p, filepath.Join(root, "home")+string(filepath.Separator)) {
				t.Errorf("%q changed nothing in the home when run (%q):\n%s", line, p, out)
			}
		})
	}
}

// canaryGateEnv is canaryGate under "allow bash" with env as the
// environment the bash tool gives the line.
func canaryGateEnv(t *testing.T, root string, env []string) *permission.Gate {
	t.Helper()
	opts := canaryGateOptions(t, root, canaryAllowBashRules)
	opts.BashEnv = func() []string { return env }
	return permission.NewGate(opts)
}

// The environment the bash tool gives the line (GateOptions.BashEnv) can
// tell pip where to install: with PIP_TARGET, PIP_PREFIX or PIP_PYTHON
// naming the home, or a BASH_ENV file that exports one, .venv/bin/pip
// install x installs into the home, and is
// refused; uv's settings of the environment refuse uv pip likewise. The
// same lines are allowed in an environment without them.
func TestCanaryPipVenvBashEnv(t *testing.T) {
	t.Parallel()
	sysPip := systemPip(t)
	template := canaryTemplate(t)
	homeStateFiles(t, template)
	fixture := func(t *testing.T) (root, work, home, homeBin string) {
		root = canaryFixture(t, template)
		work, home = filepath.Join(root, "work"), filepath.Join(root, "home")
		homeBin = homeVenv(t, "/usr/bin/python3", root)
		workVenv(t, work, sysPip)
		return root, work, home, homeBin
	}
	const uvLine = "uv pip install --python .venv/bin/python x"
	root, _, home, _ := fixture(t)
	plain := canaryGateEnv(t, root, canaryEnv(home))
	for _, l := range []string{venvPipLine, venvPyLine, uvLine, "uv pip install --target ./t x"} {
		if out := authorize(t, plain, l); !out.Run {
			t.Errorf("%q was refused: %+v", l, out.Verdict)
		}
	}
	// uv's options of the network, the index, the output and the
	// resolver, and its own cache, leave where it installs alone.
	for _, kv := range []string{"UV_CACHE_DIR=" + filepath.Join(home, ".cache", "uv"), "UV_INDEX_URL=https://example.com/simple",
		"UV_HTTP_TIMEOUT=60", "UV_NO_PROGRESS=1", "UV_INDEX_MIRROR_USERNAME=u", "UV_OFFLINE=1", "UV_LINK_MODE=symlink"} {
		g := canaryGateEnv(t, root, append(canaryEnv(home), kv))
		for _, l := range []string{uvLine, "uv pip install --target ./t x"} {
			if out := authorize(t, g, l); !out.Run {
				t.Errorf("%q was refused with %s: %+v", l, kv, out.Verdict)
			}
		}
	}
	// Any other says which python to use (and may download one into the
	// home) or where uv keeps pythons and tools, or is one the gate does
	// not know.
	for _, kv := range []string{"UV_CONFIG_FILE=" + filepath.Join(home, "uv.toml"), "UV_SYSTEM_PYTHON=1", "UV_BREAK_SYSTEM_PACKAGES=true",
		"UV_PYTHON=3.13", "UV_PYTHON=" + filepath.Join(home, "venv", "bin", "python"), "UV_PROJECT_ENVIRONMENT=" + home,
		"UV_PYTHON_INSTALL_DIR=" + home, "UV_PYTHON_BIN_DIR=" + home, "UV_MANAGED_PYTHON=1", "UV_PYTHON_PREFERENCE=only-managed",
		"UV_PYTHON_DOWNLOADS=automatic", "UV_TOOL_DIR=" + home,
		"UV_TOOL_BIN_DIR=" + home, "UV_INSTALL_DIR=" + home, "UV_PROJECT=" + home, "UV_SOMETHING_NEW=1"} {
		g := canaryGateEnv(t, root, append(canaryEnv(home), kv))
		for _, l := range []string{uvLine, "uv pip install --target ./t x"} {
			if out := authorize(t, g, l); out.Run {
				t.Errorf("%q was allowed with %s", l, kv)
			}
		}
	}
	for _, c := range []struct{ name, line, kv string }{
		{"PIP_TARGET", venvPipLine, "PIP_TARGET=t"},
		{"PIP_PREFIX", venvPyLine, "PIP_PREFIX=p"},
		{"PIP_PYTHON", venvPipLine, "PIP_PYTHON=venv/bin/python"},
		{"BASH_ENV", venvPipLine, "BASH_ENV=.bashenv"}, // which exports PIP_TARGET
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root, _, home, _ := fixture(t)
			k, v, _ := strings.Cut(c.kv, "=")
			kv := k + "=" + filepath.Join(home, v)
			if k == "BASH_ENV" {
				writeExec(t, filepath.Join(home, v), "export PIP_TARGET="+filepath.Join(home, "t")+"\n")
			}
			if out := authorize(t, canaryGateEnv(t, root, append(canaryEnv(home), kv)), c.line); out.Run {
				t.Errorf("%q was allowed with %s", c.line, kv)
			}
			before := canarySnapshot(t, root)
			out := runLine(t, root, c.line, time.Minute, "", kv, "PIP_NO_CACHE_DIR=1", "PIP_DISABLE_PIP_VERSION_CHECK=1")
			if p := changed(before, canarySnapshot(t, root)); !strings.HasPrefix(p, home+string(filepath.Separator)) {
				t.Errorf("%q with %s changed nothing in the home when run (%q):\n%s", c.line, kv, p, out)
			}
		})
	}
}
