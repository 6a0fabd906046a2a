//go:build linux

package permission_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// canaryRT57Rustup are lines that write a toolchain directory and make a
// rustup proxy run its program: through a rust-toolchain file (its only
// line, or path = in rust-toolchain.toml), a +DIR first argument, or
// rustup run DIR. Each runs the line's own script, which deletes
// ~/.bashrc, however harmless its arguments look (--version). "allow
// bash" allowed each before.
var canaryRT57Rustup = []string{
	`mkdir -p t/bin; printf '#!/bin/sh\nrm -f ~/.bashrc\n' > t/bin/rustc; chmod +x t/bin/rustc; echo "$PWD/t" > rust-toolchain; rustc -V`,
	`mkdir -p t/bin; printf '#!/bin/sh\nrm -f ~/.bashrc\n' > t/bin/cargo; chmod +x t/bin/cargo; printf '[toolchain]\n' > rust-toolchain.toml; echo "path = \"$PWD/t\"" >> rust-toolchain.toml; cargo --version`,
	`mkdir -p t/bin; printf '#!/bin/sh\nrm -f ~/.bashrc\n' > t/bin/cargo; chmod +x t/bin/cargo; cargo "+$PWD/t" --version`,
	`mkdir -p t/bin; printf '#!/bin/sh\nrm -f ~/.bashrc\n' > t/bin/x; chmod +x t/bin/x; rustup run "$PWD/t" x`,
	`mkdir -p t/bin; printf '#!/bin/sh\nrm -f ~/.bashrc\n' > t/bin/rustfmt; chmod +x t/bin/rustfmt; echo "$PWD/t" > rust-toolchain; rustfmt --check x.rs`,
}

// TestCanaryRT57Rustup runs each line in a fresh fixture, with rustup's
// own state (RUSTUP_HOME, CARGO_HOME) outside it: it must delete the
// home's .bashrc when run, and be refused by both scenarios. It needs
// rustc to be rustup's proxy (a link to rustup, as rustup-init makes it);
// a distribution's rustc reads no toolchain file.
func TestCanaryRT57Rustup(t *testing.T) {
	prog, err := exec.LookPath("rustup")
	if err != nil {
		t.Skip("rustup is not installed")
	}
	rustc := filepath.Join(filepath.Dir(prog), "rustc")
	if real, err := filepath.EvalSymlinks(rustc); err != nil || filepath.Base(real) != "rustup" {
		t.Skipf("%s is not rustup's proxy", rustc)
	}
	state := t.TempDir()
	template := canaryTemplate(t)
	for _, line := range canaryRT57Rustup {
		root := canaryFixture(t, template)
		allowedBy := allowingScenarios(t, root, line)
		before := canarySnapshot(t, root)
		runLine(t, root, line, 60*time.Second, filepath.Dir(prog), "RUSTUP_HOME="+state, "CARGO_HOME="+state)
		p := strings.TrimPrefix(changed(before, canarySnapshot(t, root)), root)
		if p == "" {
			t.Errorf("%q did no damage when run (allowed by %v)", line, allowedBy)
		}
		if len(allowedBy) > 0 {
			t.Errorf("%q was allowed by %v (changed %q)", line, allowedBy, p)
		}
	}
}
