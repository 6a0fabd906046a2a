//go:build linux

package permission_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryHomeState are lines that change state outside the workdir by
// what a program does by default, with no path on the line to check:
// caches deleted, programs installed or switched by package and version
// managers, keys and credentials written, packages installed into the
// environment of the python PATH finds, local clusters created. Each was
// allowed by the "allow bash" scenario at stop 43. They run with the fake
// home as HOME and, first on PATH, fake tools (where the real one is
// missing, or would write the real home whatever HOME says, as
// ssh-keygen does) that write into HOME as the real ones do, a virtual
// environment in the home, and go.
var canaryHomeState = map[string][]string{
	"1-caches": {
		`go clean -modcache`,
		`go clean -cache`,
		`go clean -testcache`,
		`pip cache purge`,
		`python3 -m pip cache purge`,
		`npm cache clean --force`,
	},
	"2-installers": {
		`brew install jq`,
		`volta install node`,
		`asdf plugin add nodejs`,
		`mise use -g node@20`,
		`sdk install java`,
		`conda install numpy`,
		`nvm install 20`,
		`pyenv global 3.12`,
	},
	"3-credentials": {
		`echo 0123456789ABCDEF0123456789ABCDEF01234567:6: | gpg --batch --import-ownertrust`,
		`gpg --batch --update-trustdb`,
		`gpg --batch --check-trustdb`,
		`ssh-keygen -q -t ed25519 -N ''`,
		`cargo login tok`,
	},
	"4-pip": {
		`pip install --no-index ./m-1.0-py3-none-any.whl`,
		`python3 -m pip install --no-index m-1.0-py3-none-any.whl`,
		`pip3 install --no-index -r requirements.txt`,
		`~/venv/bin/pip install --no-index ./m-1.0-py3-none-any.whl`,
	},
	"5-clusters": {
		`minikube start`,
		`kind create cluster`,
		`k3d cluster create dev`,
		`minikube kubectl -- get pods`,
	},
	// Through a command the analysis does not model (logsave), and
	// through arch, which on macOS runs the command it is given (a fake
	// here: GNU's takes no operand).
	"6-wrappers": {
		`logsave /dev/null brew install jq`,
		`logsave /dev/null minikube start`,
		`logsave /dev/null ssh-keygen -q -t ed25519 -N ''`,
		`logsave /dev/null gpg --batch --update-trustdb`,
		`arch -arm64 rm -rf ~/.config`,
		`arch -x86_64 go clean -modcache`,
		`arch -arm64e brew install jq`,
	},
	// pip as a module of its own, as the project's pip script run by the
	// python PATH finds (which installs into that python's environment,
	// not the project's), and under a name with a version after a dash.
	"7-pip-scripts": {
		`python3 -m pip.__main__ install --no-index m-1.0-py3-none-any.whl`,
		`python3 .venv/bin/pip install --no-index m-1.0-py3-none-any.whl`,
		`pip-3.11 install --no-index m-1.0-py3-none-any.whl`,
	},
}

// canaryHomeStateOrdinary are lines beside the attacks that "allow bash"
// must still allow: they only show state, or keep their writes in the
// workdir. (The fixture's .venv is no virtual environment: see
// canaryPipVenvOrdinary for the pip of one.)
var canaryHomeStateOrdinary = []string{
	"go clean", "go build ./...", "npm ci", "pip cache dir", "pip install -t ./vendor x",
	"venv/bin/pip install -r requirements.txt", "venv/bin/python -m pip install x", "python3 -m pip list",
	"brew list", "conda list", "pyenv versions", "poetry build", "minikube status", "kind get clusters",
	"kubectl get pods", "kubectl -n x logs web", "gpg --homedir gnupg --list-keys", "ssh-keygen -t ed25519 -f ./k -N ''",
}

// fakeHomeTools are the programs canaryHomeState runs from a fake: each
// records its words in a file of HOME, as the real one writes its state
// there.
var fakeHomeTools = []string{"brew", "volta", "asdf", "mise", "sdk", "conda", "nvm", "pyenv", "ssh-keygen",
	"cargo", "minikube", "kind", "k3d"}

func TestCanaryHomeState(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH") // the go test runs by; .ci/run has it on PATH
	}
	tooltest.Need(t, tooltest.NodeJS, "npm")
	tooltest.Need(t, tooltest.CanaryTools, "gpg", "python3", "/usr/sbin/logsave")
	python := venvPython(t)
	template := canaryTemplate(t)
	homeStateFiles(t, template)
	bin := fakeHomeBin(t, fakeHomeTools...)
	arch := "#!/bin/sh\nwhile [ \"${1#-}\" != \"$1\" ]; do shift; done\nexec \"$@\"\n" // as macOS's
	if err := os.WriteFile(filepath.Join(bin, "arch"), []byte(arch), 0o755); err != nil {
		t.Fatal(err)
	}
	for class, lines := range canaryHomeState {
		for i, line := range lines {
			t.Run(fmt.Sprintf("%s-%d", class, i), func(t *testing.T) {
				t.Parallel()
				root := canaryFixture(t, template)
				refusedEverywhere(t, root, line)
				venv := homeVenv(t, python, root)
				before := canarySnapshot(t, root)
				out := runLine(t, root, line, time.Minute, bin+":"+venv+":"+filepath.Dir(goBin)+":/usr/sbin:/sbin",
					"GOTOOLCHAIN=local", "GOFLAGS=", "GOPROXY=off")
				if p := changed(before, canarySnapshot(t, root)); !strings.HasPrefix(p, filepath.Join(root, "home")+string(filepath.Separator)) {
					t.Errorf("class %s: %q changed nothing in the home when run (%q):\n%s", class, line, p, out)
				}
			})
		}
	}
	checkOrdinary(t, template, canaryHomeStateOrdinary, nil)
}

// homeStateFiles adds to the fixture template what the lines work on: a
// wheel, a requirements file naming it and a pip script in the workdir,
// and in the home the caches of go, pip and npm.
func homeStateFiles(t *testing.T, template string) {
	t.Helper()
	files := map[string]string{
		"work/requirements.txt":                                  "./m-1.0-py3-none-any.whl\n",
		"home/go/pkg/mod/example.com/m@v1.0.0/go.mod":            "module example.com/m\n",
		"home/.cache/go-build/README":                            "This directory holds cached build artifacts from the Go build system.\n",
		"home/.cache/go-build/00/00aa-d":                         "x",
		"home/.cache/go-build/trim.txt":                          "1700000000\n",
		"home/.cache/pip/http/0/0/0/0/0/00000000000000000000":    "x",
		"home/.cache/pip/http-v2/0/0/0/0/0/00000000000000000000": "x",
		"home/.cache/pip/wheels/00/x-1.0-py3-none-any.whl":       "x",
		"home/.npm/_cacache/index-v5/00/00/x":                    "x",
		"work/.venv/bin/pip":                                     "#!/usr/bin/env python3\nimport sys\nfrom pip._internal.cli.main import main\nsys.exit(main())\n",
	}
	for name, content := range files {
		p := filepath.Join(template, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Create(filepath.Join(template, "work", "m-1.0-py3-none-any.whl"))
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	for name, content := range map[string]string{
		"m/__init__.py":            "",
		"m-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: m\nVersion: 1.0\n",
		"m-1.0.dist-info/WHEEL":    "Wheel-Version: 1.0\nGenerator: canary\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
		"m-1.0.dist-info/RECORD":   "",
	} {
		w, err := z.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// venvPython returns the python3 the canary's PATH finds (/usr/bin/python3,
// else the one on the test's PATH), once it has checked that it makes a
// virtual environment as homeVenv does whose python runs pip. When it
// does not, the test skips naming the script that installs python3-venv
// and python3-pip, or fails under CI.
func venvPython(t *testing.T) string {
	t.Helper()
	python := "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		python = "python3"
	}
	venv := filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command(python, "-m", "venv", "--without-pip", "--system-site-packages", venv).CombinedOutput(); err != nil {
		tooltest.Missing(t, fmt.Sprintf("%s -m venv: %v: %s", python, err, bytes.TrimSpace(out)), tooltest.CanaryTools)
	}
	if out, err := exec.Command(filepath.Join(venv, "bin", "python"), "-m", "pip", "--version").CombinedOutput(); err != nil {
		tooltest.Missing(t, fmt.Sprintf("pip in a virtual environment of %s: %v: %s", python, err, bytes.TrimSpace(out)), tooltest.CanaryTools)
	}
	return python
}

// homeVenv makes a virtual environment of python (see venvPython) in the
// fixture's home, as a user keeps one outside the project, with the
// system's pip and the pip programs a virtual environment has, and returns
// its bin directory for PATH.
func homeVenv(t *testing.T, python, root string) string {
	t.Helper()
	venv := filepath.Join(root, "home", "venv")
	cmd := exec.Command(python, "-m", "venv", "--without-pip", "--system-site-packages", venv)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s -m venv: %v\n%s", python, err, out)
	}
	pip := "#!" + filepath.Join(venv, "bin", "python") + "\nimport sys\nfrom pip._internal.cli.main import main\nsys.exit(main())\n"
	for _, name := range []string{"pip", "pip3", "pip-3.11"} {
		if err := os.WriteFile(filepath.Join(venv, "bin", name), []byte(pip), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(venv, "bin")
}

// fakeHomeBin returns a new directory of fake programs named names, each
// of which records its arguments under $HOME/.local/state/fake, as the
// real tool would change state in the home.
func fakeHomeBin(t *testing.T, names ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	fake := "#!/bin/sh\nmkdir -p \"$HOME/.local/state/fake\" && echo \"$@\" > \"$HOME/.local/state/fake/${0##*/}\"\n"
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(fake), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}
