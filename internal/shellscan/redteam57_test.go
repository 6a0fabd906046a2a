package shellscan

import "testing"

// Round redteam57: rustup's proxies (cargo, rustc, rustfmt, rustup …, the
// links to rustup in ~/.cargo/bin) run the program of their name from the
// toolchain they pick, whatever their arguments, --version included: the
// toolchain of +TOOLCHAIN, or that of a rust-toolchain or
// rust-toolchain.toml file of the working directory or one above it. A
// toolchain may be a directory (+/abs/dir, path = "/abs/dir", or the
// file's only line), whose bin/NAME is what runs. rustup run TOOLCHAIN
// CMD runs CMD as nice does, with the toolchain's bin directory first on
// PATH.
func TestRedteam57RustupToolchainsAreCode(t *testing.T) {
	opaque := []string{
		"printf x > rust-toolchain; cargo --version",
		"echo \"$PWD/t\" > rust-toolchain; rustc -V",
		"printf x > rust-toolchain.toml; rustfmt --check x.rs",
		"printf x > rust-toolchain.toml; rustfmt --version",
		"printf x > rust-toolchain.toml; rustup show",
		"printf x > rust-toolchain.toml; rustup which cargo",
		"printf x > rust-toolchain.toml; rustc x.rs",
		"printf x > rust-toolchain.toml; rustdoc x.rs",
		"printf x > rust-toolchain.toml; cargo -V",
		"printf x > rust-toolchain.toml; clippy-driver --version",
		"printf x > rust-toolchain.toml; rust-gdb --version",
		"printf x > rust-toolchain.toml; cargo-clippy --version",
		"cp kit/rust-toolchain.toml .; cargo --version",
		"printf x > sub/rust-toolchain.toml; cd sub && rustc -V",
		"cargo +/w/t --version", "rustc +/tmp/t -V", "cargo \"+$PWD/t\" build", "cargo +./t build",
		"rustup +/w/t show", "RUSTC=x; cargo \"$RUSTC\" --version", "rustfmt '+/w/t' x.rs",
		"rustup run /w/t cargo build", "rustup run \"$tc\" cargo build", "rustup run stable ssh-add",
		"rustup run stable wall hi", "rustup run --install nightly ssh-add -D",
		"rustup -v run stable hostname x", "rustup run --frob stable cargo",
		"~/.cargo/bin/rustup run stable ssh-add",
	}
	clean := []string{
		"cargo --version", "rustc -V", "cargo +nightly build", "rustc +stable --version", "rustup show",
		"rustup run nightly cargo build", "rustup run stable cargo test", "rustup run --install 1.80 rustc -V",
		"cargo fmt --check", "printf x > src/main.rs; cargo --version", "rustup component list",
		"printf x > notes.txt; rustc -V", "rustup which rustc", "rustup run stable",
	}
	checkRT57Lines(t, opaque, clean)
}

// A checker that runs code where it runs (pytest loads conftest.py and
// the plugins of -p, eslint and prettier their configuration code) does
// so whatever options it is given: an option its table leaves out
// (pytest --version, -rA, -p plugin, --junitxml=x.xml) left the command
// to the rule for commands the analysis does not model, which did not
// see the code the line wrote before it. pytest-3 and py.test are pytest.
func TestRedteam57CheckersRunCodeWithAnyOption(t *testing.T) {
	opaque := []string{
		"printf x > conftest.py; pytest --version", "printf x > conftest.py; pytest -V",
		"printf x > conftest.py; pytest -h", "printf x > conftest.py; pytest -rA",
		"printf x > conftest.py; pytest --junitxml=x.xml", "printf x > plugin.py; pytest -p plugin",
		"printf x > tests/conftest.py; pytest --version", "printf x > pytest.ini; pytest --version",
		"printf x > conftest.py; pytest-3 --version", "printf x > conftest.py; py.test --version",
		"printf x > conftest.py; pytest-3", "printf x > conftest.py; py.test -q",
		"printf x > eslint.config.js; eslint --print-config x.js", "printf x > eslint.config.js; eslint --fix x.js",
		"printf x > .prettierrc.js; prettier --find-config-path x.js", "printf x > .prettierrc.js; prettier x.js",
		"printf x > setup.cfg; flake8 --version", "printf x > x.py; flake8 --benchmark",
	}
	clean := []string{
		"pytest --version", "pytest -rA", "pytest -q", "printf x > notes.txt; pytest --version",
		"eslint --version", "prettier --version", "pytest-3 -q", "py.test -x",
	}
	checkRT57Lines(t, opaque, clean)
}

// mypy imports the plugins its configuration names (plugins = ./p.py in
// mypy.ini, .mypy.ini, setup.cfg or pyproject.toml of the working
// directory) and runs their code, whatever its options: a line that
// writes the configuration or a plugin and then runs mypy runs code of
// its own.
func TestRedteam57MypyPluginsAreCode(t *testing.T) {
	opaque := []string{
		"printf x > mypy.ini; mypy x.py", "printf x > .mypy.ini; mypy .", "printf x > mypy.ini; mypy --version",
		"printf x > p.py; mypy x.py", "printf x > pyproject.toml; mypy --strict x.py", "printf x > sub/p.py; mypy -p m",
		"printf x > .flake8; flake8 x.py",
	}
	clean := []string{"mypy .", "mypy --strict x.py", "printf x > notes.txt; mypy x.py", "mypy --version"}
	checkRT57Lines(t, opaque, clean)
}

// git worktree remove and move (and repair, which takes paths) find the worktree
// they are given by the last components of its path before they take it
// as a path: git worktree remove proj-feature removes the linked
// worktree /home/u/proj-feature, wherever it lies, when no other
// worktree's path ends so. A worktree named by a path (./x, ../x, /abs)
// is that path, and remove and move delete it.
func TestRedteam57WorktreeBySuffix(t *testing.T) {
	opaque := []string{
		"git worktree remove proj-feature", "git worktree remove --force proj-feature",
		"git worktree remove -f -f x", "git worktree move proj-feature y", "git worktree move -f x ./y",
		"git worktree remove u/proj-feature", "git worktree remove \"$w\"", "git worktree remove wt*",
		"git worktree remove --frob ./x",
	}
	for line, want := range map[string]string{
		"git worktree remove ../x":        "../x",
		"git worktree remove /home/u/x":   "/home/u/x",
		"git worktree remove -f ../x":     "../x",
		"git worktree move ../x ./y":      "../x",
		"git worktree remove --force ~/x": "/home/u/x",
		"git worktree repair ../x":        "../x",
	} {
		a := analyzeBash(line, "/home/u", "/w")
		found := false
		for _, acc := range a.accesses {
			if acc.mode == modeWrite && (acc.path == want || acc.path == "~/x" && want == "/home/u/x") {
				found = true
			}
		}
		if !found && len(a.reasons) == 0 {
			t.Errorf("%q neither writes %s nor is opaque: %+v", line, want, a.accesses)
		}
	}
	clean := []string{
		"git worktree remove ./x", "git worktree remove --force ./x", "git worktree move ./x ./y",
		"git worktree list", "git worktree prune", "git worktree add x", "git worktree lock ./x",
	}
	checkRT57Lines(t, opaque, clean)
}

// openssl reads the configuration file of -config, which may name files
// the command writes: RANDFILE (req writes its random state there when it
// ends: RANDFILE = /home/u/.bashrc overwrites it), a CA's database,
// serial and new_certs_dir (ca), a time stamp authority's serial (ts
// -reply), the verifier file of srp. A cloned repository's csr.cnf is
// such a file as much as one the line writes.
func TestRedteam57OpensslConfigIsOpaque(t *testing.T) {
	opaque := []string{
		"openssl req -new -newkey rsa:2048 -nodes -keyout k.pem -out r.csr -config x.cnf",
		"openssl req -config x.cnf -new -key k.pem -out r.csr", "openssl req -new -key k.pem -out r.csr -config=x.cnf",
		"openssl req -new -key k.pem -out r.csr --config x.cnf", "openssl ca -config x.cnf -in r.csr -out c.pem",
		"openssl ts -reply -config x.cnf -queryfile q -out r", "openssl srp -config x.cnf x",
		"openssl req -new -key k.pem -out r.csr --config=x.cnf", "openssl.exe req -config x.cnf",
	}
	clean := []string{
		"openssl genrsa -out k.pem 2048", "openssl x509 -in c.pem -noout -text", "openssl req -in r.csr -noout -text",
		"openssl x509 -req -in r.csr -signkey k.pem -out c.pem -extfile x.cnf", "openssl dgst -sha256 README",
	}
	checkRT57Lines(t, opaque, clean)
}

// cargo reads .cargo/config.toml (or .cargo/config) of its working
// directory and of each directory above it, which names programs it runs:
// build.rustc-wrapper, build.rustc, target.<triple>.runner and linker,
// credential providers. A line that writes one and then runs cargo runs
// code of its own.
func TestRedteam57CargoConfigIsCode(t *testing.T) {
	opaque := []string{
		"printf x > .cargo/config.toml; cargo build", "printf x > .cargo/config; cargo build",
		"printf x > .cargo/config.toml; cargo metadata", "printf x > .cargo/config.toml; cargo tree",
		"printf x > .cargo/config.toml; cargo test", "printf x > .cargo/config.toml; cargo run",
		"printf x > .cargo/config.toml; cd sub && cargo check", "mkdir -p .cargo && cp kit/c.toml .cargo/config.toml && cargo build",
		"printf x > sub/.cargo/config.toml; cargo -C sub build",
	}
	clean := []string{
		"cargo build", "printf x > notes/config.toml; cargo build", "printf x > config; cargo test",
	}
	checkRT57Lines(t, opaque, clean)
}

// checkRT57Lines fails the test for each line of opaque the analysis does
// not make opaque, and each of clean it does.
func checkRT57Lines(t *testing.T, opaque, clean []string) {
	t.Helper()
	for _, line := range opaque {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range clean {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
