//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A version manager's shims directory on PATH (pyenv's ~/.pyenv/shims)
// runs the python of a version under $(pyenv root)/versions, whose prefix
// pip.conf pip reads: one that says log = ~/pip.log (or target, prefix …)
// makes python3 -m pip install --target ./t write the home, so the line is
// refused; a shims directory of no layout the gate knows is refused too.
// Without such a pip.conf the line is allowed.
func TestCanaryPyenvShimPrefixPipConf(t *testing.T) {
	t.Parallel()
	sysPip := systemPip(t)
	template := canaryTemplate(t)
	homeStateFiles(t, template)
	// setup lays out a pyenv-like root in the home whose shims run the
	// home venv as version 3.99, and returns the shims directory.
	setup := func(t *testing.T, root string) string {
		home := filepath.Join(root, "home")
		workVenv(t, filepath.Join(root, "work"), sysPip)
		bin := homeVenv(t, "/usr/bin/python3", root)
		pyenv := filepath.Join(home, ".pyenv")
		if err := os.MkdirAll(filepath.Join(pyenv, "versions"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Dir(bin), filepath.Join(pyenv, "versions", "3.99")); err != nil {
			t.Fatal(err)
		}
		shims := filepath.Join(pyenv, "shims")
		for _, n := range []string{"python3", "pip"} {
			writeExec(t, filepath.Join(shims, n), "#!/bin/sh\nexec "+filepath.Join(pyenv, "versions", "3.99", "bin", n)+" \"$@\"\n")
		}
		return shims
	}
	withPath := func(env []string, dir string) []string {
		for i, kv := range env {
			if p, ok := strings.CutPrefix(kv, "PATH="); ok {
				env[i] = "PATH=" + dir + ":" + p
			}
		}
		return env
	}
	t.Run("prefix pip.conf", func(t *testing.T) {
		root := canaryFixture(t, template)
		home := filepath.Join(root, "home")
		shims := setup(t, root)
		writeExec(t, filepath.Join(home, ".pyenv", "versions", "3.99", "pip.conf"), "[install]\nlog = "+filepath.Join(home, "pip.log")+"\n")
		if out := authorize(t, canaryGateEnv(t, root, withPath(canaryEnv(home), shims)), pipTargetLine); out.Run {
			t.Errorf("%q was allowed with the shim's version's pip.conf", pipTargetLine)
		}
		before := canarySnapshot(t, root)
		out := runLine(t, root, pipTargetLine, time.Minute, shims, "PIP_NO_CACHE_DIR=1", "PIP_DISABLE_PIP_VERSION_CHECK=1")
		if p := changed(before, canarySnapshot(t, root)); p != filepath.Join(home, "pip.log") {
			t.Errorf("%q did not write the log in the home when run (%q):\n%s", pipTargetLine, p, out)
		}
	})
	t.Run("unknown layout", func(t *testing.T) {
		root := canaryFixture(t, template)
		home := filepath.Join(root, "home")
		shims := setup(t, root)
		if err := os.Rename(filepath.Join(home, ".pyenv", "versions"), filepath.Join(home, ".pyenv", "vs")); err != nil {
			t.Fatal(err)
		}
		if out := authorize(t, canaryGateEnv(t, root, withPath(canaryEnv(home), shims)), pipTargetLine); out.Run {
			t.Errorf("%q was allowed with a shims directory of no known layout", pipTargetLine)
		}
	})
	t.Run("ordinary", func(t *testing.T) {
		root := canaryFixture(t, template)
		home := filepath.Join(root, "home")
		shims := setup(t, root)
		// pyenv-virtualenv's shims directory holds no python or pip.
		other := filepath.Join(home, ".pyenv", "plugins", "pyenv-virtualenv", "shims")
		writeExec(t, filepath.Join(other, "activate"), "#!/bin/sh\n")
		shims = other + ":" + shims
		if out := authorize(t, canaryGateEnv(t, root, withPath(canaryEnv(home), shims)), pipTargetLine); !out.Run {
			t.Errorf("%q was refused: %+v", pipTargetLine, out.Verdict)
		}
	})
}
