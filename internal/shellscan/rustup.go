package shellscan

import (
	"strings"
)

// rustupProxies are the programs rustup installs as links to itself in
// ~/.cargo/bin. Each runs the program of its name from the toolchain it
// picks, whatever its arguments (--version too): the toolchain a first
// argument +TOOLCHAIN names, else RUSTUP_TOOLCHAIN, else the one the
// rust-toolchain or rust-toolchain.toml file of the working directory or
// of a directory above it names, else rustup's override or default. A
// toolchain may be a directory (+/abs/dir, path = "/abs/dir" in the
// file, or the file's only line): its bin/NAME is what runs.
var rustupProxies = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{
		"rustup", "cargo", "cargo-clippy", "cargo-fmt", "cargo-miri", "clippy-driver", "rls",
		"rust-analyzer", "rust-gdb", "rust-gdbgui", "rust-lldb", "rustc", "rustdoc", "rustfmt",
	} {
		m[n] = true
	}
	return m
}}

// rustupToolchain judges the toolchain whose program the rustup proxy
// name runs (see rustupProxies): a +TOOLCHAIN that may be a directory
// makes the line opaque, and without one the rust-toolchain files are
// the command's code, which the line must not write before it (see
// runsWrittenCode). rustup run [--install] TOOLCHAIN CMD … runs CMD as
// nice does, with the toolchain's bin directory first on PATH: CMD is
// analyzed as a command of its own. It reports whether it judged the
// whole command, and then what wrapped reports.
func (an *analyzer) rustupToolchain(name string, args []word, depth, chain int) (done, wraps bool) {
	if !rustupProxies.get()[name] {
		return false, false
	}
	if len(args) > 0 && (args[0].dynamic || args[0].pattern || strings.HasPrefix(args[0].text, "+")) {
		if why := toolchainDir(args[0], true); why != "" {
			an.opaque(name + " " + why)
			return true, false
		}
		args = args[1:] // a named toolchain: no file is read
	} else {
		an.usesCode(name, "/", "rust-toolchain", "rust-toolchain.toml")
	}
	if name != "rustup" {
		return false, false
	}
	for len(args) > 0 {
		switch args[0].text {
		case "-v", "--verbose", "-q", "--quiet":
			args = args[1:]
			continue
		}
		break
	}
	if len(args) == 0 || args[0].dynamic || args[0].text != "run" {
		if len(args) > 0 && args[0].dynamic {
			an.opaque("rustup gets a subcommand that is only known when it runs, which may be run")
			return true, false
		}
		return false, false
	}
	args = args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0].text, "-") && !args[0].dynamic {
		if args[0].text != "--install" {
			if args[0].text == "-h" || args[0].text == "--help" {
				return true, false
			}
			an.opaque("rustup run " + clipName(args[0].text) + " is an option the analysis does not know")
			return true, false
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return true, false
	}
	if why := toolchainDir(args[0], false); why != "" {
		an.opaque("rustup run " + why)
		return true, false
	}
	return true, an.inner(args[1:], depth, chain)
}

// toolchainDir says why the toolchain word w (after its '+' when plus)
// may name a directory, whose programs the analysis does not model, or
// "" for a toolchain's name (stable, nightly-2024-05-01, 1.80).
func toolchainDir(w word, plus bool) string {
	if w.dynamic || w.pattern {
		return "gets a toolchain that is only known when it runs, which may be a directory whose programs run"
	}
	t := w.text
	if plus {
		t = strings.TrimPrefix(t, "+")
	}
	if strings.ContainsAny(t, "/\\") || t == "." || t == ".." || strings.HasPrefix(t, "~") {
		return "runs the programs of the toolchain directory " + clipName(t)
	}
	return ""
}
