package shellscan

import "testing"

// Review of round 43: other spellings of the programs it models, and
// tools not in its tables, that change state outside the workdir with no
// path on the line. Each is opaque; the lines beside them are not.
func TestHomeStateAliasesAreOpaque(t *testing.T) {
	for _, line := range []string{
		// rustup's own aliases of toolchain install and uninstall.
		"rustup install nightly", "rustup uninstall nightly",
		// gem and bundle take aliases and unambiguous abbreviations;
		// bundle alone installs, as bundle add and bundle cache do.
		"gem i rails", "gem ins rails", "gem inst rails", "bundle", "bundle i", "bundle inst", "bundle add x",
		"bundle cache", "bundler i",
		// dotnet new's older spelling of install.
		"dotnet new -i Foo", "dotnet new --install Foo", "dotnet new -u Foo",
		// Tools not in the tables: fetch or install programs.
		"cargo-binstall ripgrep", "pkgx node", "webi node", "uvx ruff", "uv tool run ruff", "pipx run ruff",
		"proto install node", "aqua i", "aqua install",
		// npm's other spellings of global mode.
		"npm i --g x", "npm i -g=true x", "npm i -location=global x", "npm i -global=true x",
		"npm install --loc=global x",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"gem list", "gem --version", "gem info x", "bundle check", "bundle list", "bundle lock", "bundle --version",
		"rustup show", "rustup toolchain list", "dotnet new console -o app", "dotnet new list", "proto list",
		"aqua list", "uv tool list", "pipx list", "uvx --version", "npm ci", "npm i x", "npm i --global-style x",
		"npm i --lockfile-version 3", "npm i -g=false x", "npm i --loglevel warn x",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// Round 43 made these lines opaque, though they only change the running
// shell's environment and write nothing.
func TestShellOnlySubcommandsStayAllowed(t *testing.T) {
	for _, line := range []string{
		"nvm use 20", "nvm use", "conda activate x", "conda deactivate", "mamba activate x", "pyenv shell 3.12",
		"rbenv shell 3.3",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
	for _, line := range []string{"nvm install 20", "conda install x", "pyenv global 3.12", "fnm use 20 --install-if-missing"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
}

// pip's --python naming the interpreter of a virtual environment by a
// path installs into it, as that environment's pip does. (Whether the
// environment lies in the workdir is the caller's check: see the canary.)
func TestPipPythonOfAWorkdirVenv(t *testing.T) {
	for _, line := range []string{
		"pip --python .venv/bin/python install x", "pip install --python=venv/bin/python3 -r requirements.txt",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
	for _, line := range []string{
		"pip --python python3 install x", "pip --python .venv/bin/python install --user x",
		"pip --python .venv/bin/python install --prefix /usr x", "pip --python=$P install x",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
}
