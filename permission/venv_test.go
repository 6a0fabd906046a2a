//go:build unix

package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// A virtual environment of the workdir is trusted to keep pip's writes
// there only as venvProgram says: each case changes an environment made
// as python3 -m venv makes one (a python linked to an interpreter outside
// the workdir, a pip script of that python, a pyvenv.cfg) and says
// whether its pip and python are still trusted. Cases the canary cannot
// run as root (pip falls back to the user's site only when the
// environment's is not writable) or without damage to the system's
// python are here.
func TestVenvProgram(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		change func(t *testing.T, env, outside string)
		prog   string
		ok     bool
	}{
		{"a virtual environment", nil, "bin/pip", true},
		{"its python", nil, "bin/python", true},
		{"its python3", nil, "bin/python3", true},
		{"the system's site-packages", func(t *testing.T, env, _ string) {
			writeVenvFile(t, filepath.Join(env, "pyvenv.cfg"), "home = /usr/bin\ninclude-system-site-packages = true\n")
		}, "bin/python", false},
		{"no pyvenv.cfg", func(t *testing.T, env, _ string) {
			os.Remove(filepath.Join(env, "pyvenv.cfg"))
		}, "bin/python", false},
		{"a pyvenv.cfg in bin", func(t *testing.T, env, _ string) {
			writeVenvFile(t, filepath.Join(env, "bin", "pyvenv.cfg"), "home = /usr/bin\n")
		}, "bin/pip", false},
		{"pip.ini", func(t *testing.T, env, _ string) {
			writeVenvFile(t, filepath.Join(env, "pip.ini"), "[install]\nuser = true\n")
		}, "bin/pip", false},
		{"a python that is a script", func(t *testing.T, env, outside string) {
			writeVenvFile(t, filepath.Join(outside, "python3"), "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n")
			os.Remove(filepath.Join(env, "bin", "python3"))
			if err := os.Symlink(filepath.Join(outside, "python3"), filepath.Join(env, "bin", "python3")); err != nil {
				t.Fatal(err)
			}
		}, "bin/python", false},
		{"a python that is not one", func(t *testing.T, env, outside string) {
			os.Remove(filepath.Join(env, "bin", "python3"))
			if err := os.Symlink(filepath.Join(outside, "pip"), filepath.Join(env, "bin", "python3")); err != nil {
				t.Fatal(err)
			}
		}, "bin/python", false},
		{"pip run by env", func(t *testing.T, env, _ string) {
			writeVenvFile(t, filepath.Join(env, "bin", "pip"), "#!/usr/bin/env python3\n")
		}, "bin/pip", false},
		{"pip of a python elsewhere in the workdir", func(t *testing.T, env, _ string) {
			writeVenvFile(t, filepath.Join(env, "bin", "pip"), "#!"+filepath.Join(filepath.Dir(env), "other", "bin", "python")+"\n")
		}, "bin/pip", false},
		{"pip with the exec line of a long path", func(t *testing.T, env, _ string) {
			writeVenvFile(t, filepath.Join(env, "bin", "pip"), "#!/bin/sh\n'''exec' \""+filepath.Join(env, "bin", "python")+"\" \"$0\" \"$@\"\n' '''\n")
		}, "bin/pip", true},
		{"a dangling link", func(t *testing.T, env, outside string) {
			if err := os.Symlink(filepath.Join(outside, "gone"), filepath.Join(env, "share")); err != nil {
				t.Fatal(err)
			}
		}, "bin/pip", false},
		{"a link inside", func(t *testing.T, env, _ string) {
			if err := os.Symlink("lib", filepath.Join(env, "lib64")); err != nil {
				t.Fatal(err)
			}
		}, "bin/pip", true},
		{"not in bin", nil, "lib/pip", false},
		{"an environment the line makes", func(t *testing.T, env, _ string) {
			os.RemoveAll(env)
		}, "bin/pip", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			root, _ = filepath.EvalSymlinks(root)
			// The interpreter outside the workdir: any program, under a
			// python's name.
			exe, err := os.ReadFile("/bin/sh")
			if err != nil {
				t.Skip(err)
			}
			if err := os.WriteFile(filepath.Join(outside, "python3.12"), exe, 0o755); err != nil {
				t.Fatal(err)
			}
			writeVenvFile(t, filepath.Join(outside, "pip"), "#!/usr/bin/python3\n")
			env := filepath.Join(root, ".venv")
			writeVenvFile(t, filepath.Join(env, "pyvenv.cfg"), "home = "+outside+"\ninclude-system-site-packages = false\n")
			for _, d := range []string{"bin", "lib/python3.12/site-packages"} {
				if err := os.MkdirAll(filepath.Join(env, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(filepath.Join(outside, "python3.12"), filepath.Join(env, "bin", "python3")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("python3", filepath.Join(env, "bin", "python")); err != nil {
				t.Fatal(err)
			}
			writeVenvFile(t, filepath.Join(env, "bin", "pip"), "#!"+filepath.Join(env, "bin", "python3")+"\nimport pip\n")
			if c.change != nil {
				c.change(t, env, outside)
			}
			why := venvProgram(filepath.Join(env, c.prog), root)
			if (why == "") != c.ok {
				t.Errorf("trusted %v, want %v: %q", why == "", c.ok, why)
			}
		})
	}
}

func writeVenvFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}
