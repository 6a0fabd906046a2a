//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/permission"
)

// pipTargetLine installs the workdir's wheel with the pip PATH finds into
// --target, a directory of the workdir.
const pipTargetLine = `python3 -m pip install --no-index --target ./t ./m-1.0-py3-none-any.whl`

// canaryPipConf are the settings files of the user and of the system that
// pip reads besides the virtual environment's pip.conf, each naming where
// it installs or writes, in the home: "allow bash" allowed each line
// before, and the line writes the home when run. file is relative to the
// home, env adds to the line's environment, "{home}" stands for the home
// in content and env.
var canaryPipConf = []struct {
	name, file, content string
	env                 []string
	line                string
}{
	{"user pip.conf target", ".config/pip/pip.conf", "[install]\ntarget = {home}/t\n", nil, venvPipLine},
	{"legacy ~/.pip/pip.conf prefix", ".pip/pip.conf", "[global]\nprefix = {home}/p\n", nil, venvPyLine},
	{"XDG_CONFIG_HOME root", "xdg/pip/pip.conf", "[install]\nroot = {home}/r\n", []string{"XDG_CONFIG_HOME={home}/xdg"}, venvPipLine},
	{"XDG_CONFIG_DIRS target", "etc2/pip/pip.conf", "[global]\ntarget = {home}/t\n",
		[]string{"XDG_CONFIG_DIRS={home}/etc1:{home}/etc2"}, venvPyLine},
	// configparser gives every section the keys of [DEFAULT], and pip
	// lower-cases a key, drops its "--" and reads _ as -.
	{"DEFAULT section, upper-case key", ".config/pip/pip.conf", "[DEFAULT]\nTARGET = {home}/t\n[install]\n", nil, venvPipLine},
	{"--prefix key with a colon", ".config/pip/pip.conf", "[install]\n--PREFIX: {home}/p\n", nil, venvPyLine},
	{"log file", ".config/pip/pip.conf", "[global]\nlog = {home}/pip.log\n", nil, venvPipLine},
	// With --target in the workdir, pip still reads the user's settings.
	{"log file of an install into --target", ".config/pip/pip.conf", "[install]\nlog = {home}/pip.log\n", nil, pipTargetLine},
}

// canaryPipConfOpaque are user settings files that stay opaque although
// they do not move an install of the line the test runs: keys that say
// where pip installs or which python it runs, keys the gate does not
// know, and files it cannot read fully.
var canaryPipConfOpaque = []struct{ name, file, content string }{
	{"user", ".config/pip/pip.conf", "[install]\nuser = true\n"},
	{"src", ".config/pip/pip.conf", "[install]\nsrc = {home}/src\n"},
	{"editable", ".config/pip/pip.conf", "[install]\neditable = {home}/proj\n"},
	{"python", ".config/pip/pip.conf", "[global]\npython = /usr/bin/python3\n"},
	{"install-option", ".config/pip/pip.conf", "[install]\ninstall-option = --prefix={home}\n"},
	{"unknown key", ".pip/pip.conf", "[global]\nfrobnicate = 1\n"},
	{"unknown key in an unknown section", ".pip/pip.conf", "[frobnicate]\ntarget = {home}/t\n"},
	{"continued key", ".config/pip/pip.conf", "[install]\nno-deps = true\n  target = {home}/t\n"},
	{"no section", ".config/pip/pip.conf", "target = {home}/t\n"},
	{"not a key", ".config/pip/pip.conf", "[global]\nsomething\n"},
	{"too large", ".config/pip/pip.conf", "[global]\n# " + strings.Repeat("x", 1<<20) + "\n"},
	{"a directory", ".config/pip/pip.conf/x", ""},
}

// canaryPipConfOrdinary is a user pip.conf "allow bash" must still allow
// pip with, and the install goes into the workdir's .venv.
const canaryPipConfOrdinary = "# the user's\n[global]\nindex-url = https://example.com/simple\ntimeout = 60\n" +
	"trusted-host = example.com\n  example.org\nCache-Dir = {home}/.cache/pip2\n\n[install]\n; quiet\nno_warn_script_location = true\n" +
	"[list]\nformat = columns\n"

func TestCanaryPipConf(t *testing.T) {
	t.Parallel()
	sysPip := systemPip(t)
	template := canaryTemplate(t)
	homeStateFiles(t, template)
	fixture := func(t *testing.T) (root, work, home string) {
		root = canaryFixture(t, template)
		work, home = filepath.Join(root, "work"), filepath.Join(root, "home")
		workVenv(t, work, sysPip)
		return root, work, home
	}
	for _, c := range canaryPipConf {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root, _, home := fixture(t)
			sub := strings.NewReplacer("{home}", home)
			writeExec(t, filepath.Join(home, c.file), sub.Replace(c.content))
			var env []string
			for _, kv := range c.env {
				env = append(env, sub.Replace(kv))
			}
			if out := authorize(t, canaryGateEnv(t, root, append(canaryEnv(home), env...)), c.line); out.Run {
				t.Errorf("%q was allowed with %s", c.line, c.file)
			}
			if len(env) == 0 {
				// The environment unknown, the gate reads the files of
				// its home.
				refusedEverywhere(t, root, c.line)
			}
			before := canarySnapshot(t, root)
			out := runLine(t, root, c.line, time.Minute, "", append(env, "PIP_NO_CACHE_DIR=1", "PIP_DISABLE_PIP_VERSION_CHECK=1")...)
			if p := changed(before, canarySnapshot(t, root)); !strings.HasPrefix(p, home+string(filepath.Separator)) {
				t.Errorf("%q with %s changed nothing in the home when run (%q):\n%s", c.line, c.file, p, out)
			}
		})
	}
	t.Run("opaque", func(t *testing.T) {
		t.Parallel()
		root, _, home := fixture(t)
		sub := strings.NewReplacer("{home}", home)
		g := canaryGateEnv(t, root, canaryEnv(home))
		for _, c := range canaryPipConfOpaque {
			p := filepath.Join(home, c.file)
			writeExec(t, p, sub.Replace(c.content))
			for _, line := range []string{venvPipLine, venvPyLine, pipTargetLine} {
				if out := authorize(t, g, line); out.Run {
					t.Errorf("%s: %q was allowed", c.name, line)
				}
			}
			if err := os.RemoveAll(filepath.Join(home, strings.Split(c.file, "/")[0])); err != nil {
				t.Fatal(err)
			}
		}
		fifo := filepath.Join(home, ".pip", "pip.conf")
		if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan bool)
		go func() { done <- authorize(t, g, venvPipLine).Run }()
		select {
		case run := <-done:
			if run {
				t.Errorf("%q was allowed with a FIFO for ~/.pip/pip.conf", venvPipLine)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the gate waits on a FIFO for ~/.pip/pip.conf")
		}
	})
	// The pip.conf of the prefix of the python PATH finds, which pip
	// install --target runs.
	t.Run("prefix pip.conf", func(t *testing.T) {
		t.Parallel()
		root, _, home := fixture(t)
		bin := homeVenv(t, "/usr/bin/python3", root)
		writeExec(t, filepath.Join(filepath.Dir(bin), "pip.conf"), "[install]\nlog = "+filepath.Join(home, "pip.log")+"\n")
		env := canaryEnv(home)
		for i, kv := range env {
			if p, ok := strings.CutPrefix(kv, "PATH="); ok {
				env[i] = "PATH=" + bin + ":" + p
			}
		}
		if out := authorize(t, canaryGateEnv(t, root, env), pipTargetLine); out.Run {
			t.Errorf("%q was allowed with %s/pip.conf", pipTargetLine, filepath.Dir(bin))
		}
		before := canarySnapshot(t, root)
		out := runLine(t, root, pipTargetLine, time.Minute, bin, "PIP_NO_CACHE_DIR=1", "PIP_DISABLE_PIP_VERSION_CHECK=1")
		if p := changed(before, canarySnapshot(t, root)); p != filepath.Join(home, "pip.log") {
			t.Errorf("%q did not write the log in the home when run (%q):\n%s", pipTargetLine, p, out)
		}
	})
	// An environment whose HOME or XDG_ directories are relative names
	// settings files of the working directory, which the line may write.
	t.Run("relative directories", func(t *testing.T) {
		t.Parallel()
		root, _, home := fixture(t)
		for _, kv := range []string{"HOME=h", "XDG_CONFIG_HOME=cfg", "XDG_CONFIG_DIRS=/etc/xdg:", "XDG_CONFIG_DIRS=etc", "HOME="} {
			env := append(canaryEnv(home), kv)
			if kv == "HOME=h" || kv == "HOME=" {
				env = append(canaryEnv(home)[1:], kv)
			}
			g := canaryGateEnv(t, root, env)
			for _, line := range []string{venvPipLine, pipTargetLine, "uv pip install --python .venv/bin/python x"} {
				if out := authorize(t, g, line); out.Run {
					t.Errorf("%q was allowed with %s", line, kv)
				}
			}
		}
	})
	t.Run("ordinary", func(t *testing.T) {
		t.Parallel()
		root, work, home := fixture(t)
		writeExec(t, filepath.Join(home, ".config", "pip", "pip.conf"), strings.ReplaceAll(canaryPipConfOrdinary, "{home}", home))
		for _, g := range []*permission.Gate{canaryGateEnv(t, root, canaryEnv(home)), canaryGate(t, root, canaryAllowBashRules)} {
			for _, line := range []string{venvPipLine, venvPyLine, pipTargetLine} {
				if out := authorize(t, g, line); !out.Run {
					t.Errorf("%q was refused: %+v", line, out.Verdict)
				}
			}
		}
		before := canarySnapshot(t, root)
		out := runLine(t, root, venvPipLine, time.Minute, "", "PIP_NO_CACHE_DIR=1", "PIP_DISABLE_PIP_VERSION_CHECK=1")
		if m, _ := filepath.Glob(filepath.Join(work, ".venv", "lib", "python3*", "site-packages", "m", "__init__.py")); len(m) != 1 {
			t.Errorf("%q did not install into the workdir's .venv:\n%s", venvPipLine, out)
		}
		if p := changed(before, canarySnapshot(t, root)); p != "" {
			t.Errorf("%q changed %s:\n%s", venvPipLine, p, out)
		}
	})
}

// uv reads the uv.toml of the user and of the system too: one that names
// where uv pip installs, which python it uses, or that the gate cannot
// read, refuses uv pip install --python .venv/bin/python and --target; a
// key spelt with an escape in a quoted key of the workdir's uv.toml too.
func TestPipConfUv(t *testing.T) {
	t.Parallel()
	root, _, home := venvFixture(t)
	lines := []string{"uv pip install --python .venv/bin/python x", "uv pip install --target ./t x"}
	for _, c := range []struct {
		name, file, content string
		env                 []string
	}{
		{"user uv.toml target", "home/.config/uv/uv.toml", "[pip]\ntarget = \"{home}/t\"\n", nil},
		{"user uv.toml system", "home/.config/uv/uv.toml", "pip.system = true\n", nil},
		{"XDG_CONFIG_HOME python", "home/xdg/uv/uv.toml", "[pip]\npython = \"/usr/bin/python3\"\n", []string{"XDG_CONFIG_HOME={home}/xdg"}},
		{"XDG_CONFIG_DIRS prefix", "home/etc2/uv/uv.toml", "pip = { prefix = \"{home}\" }\n", []string{"XDG_CONFIG_DIRS={home}/etc1:{home}/etc2"}},
		{"user uv.toml unknown [pip] key", "home/.config/uv/uv.toml", "[pip]\nfrobnicate = true\n", nil},
		{"user uv.toml escaped key", "home/.config/uv/uv.toml", "[pip]\n\"t\\u0061rget\" = \"{home}/t\"\n", nil},
		{"user uv.toml a directory", "home/.config/uv/uv.toml/x", "", nil},
		{"workdir uv.toml escaped key", "work/uv.toml", "[pip]\n\"t\\u0061rget\" = \"{home}/t\"\n", nil},
		{"workdir pyproject escaped key", "work/pyproject.toml", "[tool.uv.pip]\n'p'.\"\\u0070refix\" = \"{home}\"\n", nil},
	} {
		sub := strings.NewReplacer("{home}", home)
		p := filepath.Join(root, c.file)
		writeExec(t, p, sub.Replace(c.content))
		env := canaryEnv(home)
		for _, kv := range c.env {
			env = append(env, sub.Replace(kv))
		}
		g := canaryGateEnv(t, root, env)
		for _, line := range lines {
			if out := authorize(t, g, line); out.Run {
				t.Errorf("%s: %q was allowed", c.name, line)
			}
		}
		if err := os.RemoveAll(filepath.Join(root, strings.Join(strings.Split(c.file, "/")[:2], "/"))); err != nil {
			t.Fatal(err)
		}
	}
	// The user's own cache directory and index stay allowed.
	writeExec(t, filepath.Join(home, ".config", "uv", "uv.toml"), "cache-dir = \""+filepath.Join(home, "uvcache")+
		"\"\nindex-url = \"https://example.com/simple\"\n\n[pip]\nindex-strategy = \"unsafe-best-match\"\n")
	for _, g := range []*permission.Gate{canaryGateEnv(t, root, canaryEnv(home)), canaryGate(t, root, canaryAllowBashRules)} {
		for _, line := range lines {
			if out := authorize(t, g, line); !out.Run {
				t.Errorf("%q was refused: %+v", line, out.Verdict)
			}
		}
	}
}

// Downloads into the user's data directories, or into a directory of the
// home a line names, are refused; into the workdir, or into a cache the
// tool owns (huggingface-cli download fills ~/.cache/huggingface), they
// stay allowed, but for pip download and pip wheel when the user's
// pip.conf names where they save.
func TestPipConfDownloads(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	root := canaryFixture(t, template)
	home := filepath.Join(root, "home")
	g := canaryGateEnv(t, root, canaryEnv(home))
	for _, line := range []string{
		"python3 -m nltk.downloader punkt", "python3 -m nltk.downloader -d ~/nltk_data punkt",
		"python3 -m textblob.download_corpora", "python3 -m gensim.downloader --download glove-twitter-25",
		"huggingface-cli download gpt2 --local-dir ~/m", "pip download -d ~/x x", "python3 -m pip download --dest ~/x x",
		"pip wheel -w ~/w x",
	} {
		if out := authorize(t, g, line); out.Run {
			t.Errorf("%q was allowed", line)
		}
	}
	allowed := []string{
		"python3 -m nltk.downloader -d ./nltk_data punkt", "huggingface-cli download gpt2",
		"huggingface-cli download gpt2 --local-dir ./m", "pip download -d ./x x", "pip wheel -w ./w x",
	}
	for _, line := range allowed {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("%q was refused: %+v", line, out.Verdict)
		}
	}
	writeExec(t, filepath.Join(home, ".config", "pip", "pip.conf"), "[download]\ndest = "+filepath.Join(home, "x")+"\n[wheel]\nwheel-dir = "+home+"\n")
	for _, line := range allowed[3:] {
		if out := authorize(t, g, line); out.Run {
			t.Errorf("%q was allowed with the user's pip.conf naming where it saves", line)
		}
	}
}

// venvFixture returns a fixture (see canaryFixture, homeStateFiles) whose
// workdir has a real virtual environment .venv (see workVenv), its
// workdir and its home.
func venvFixture(t *testing.T) (root, work, home string) {
	t.Helper()
	sysPip := systemPip(t)
	template := canaryTemplate(t)
	homeStateFiles(t, template)
	root = canaryFixture(t, template)
	work, home = filepath.Join(root, "work"), filepath.Join(root, "home")
	workVenv(t, work, sysPip)
	return root, work, home
}
