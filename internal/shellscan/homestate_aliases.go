package shellscan

import "strings"

// listedByReadOnlyTools are more package and version managers that install
// or switch programs outside the workdir (see stateTools), with the
// subcommands that only show state. gem and bundle take any unambiguous
// abbreviation of a subcommand (gem ins, bundle inst) and aliases (gem i,
// bundle i), and bundle alone installs, so only the read-only names are
// listed: anything else is opaque.
func listedByReadOnlyTools(with func(map[string][]string) map[string][]string) map[string]map[string][]string {
	bundle := with(map[string][]string{"exec": nil, "e": nil, "ex": nil, "exe": nil, "check": nil, "list": nil,
		"ls": nil, "show": nil, "info": nil, "outdated": nil, "platform": nil, "config": nil, "lock": nil,
		"binstubs": nil, "licenses": nil, "init": nil, "gem": nil, "viz": nil, "env": nil})
	return map[string]map[string][]string{
		"gem": with(map[string][]string{"list": nil, "search": nil, "query": nil, "info": nil,
			"specification": nil, "contents": nil, "dependency": nil, "environment": nil, "which": nil,
			"outdated": nil, "stale": nil, "lock": nil, "fetch": nil, "unpack": nil, "build": nil, "sources": nil,
			"signin": nil, "signout": nil}),
		"bundle": bundle, "bundler": bundle,
		// proto (moonrepo) installs into ~/.proto, aqua into
		// ~/.local/share/aquaproj-aqua, both put them on PATH.
		"proto": with(map[string][]string{"list": nil, "ls": nil, "list-remote": nil, "ls-remote": nil,
			"bin": nil, "status": nil, "debug": nil, "diagnose": nil, "completions": nil, "versions": nil}),
		"aqua": with(map[string][]string{"list": nil, "which": nil, "info": nil}),
	}
}

// addShellOnlySubcommands adds to stateTools the subcommands that only change the
// running shell's environment, writing nothing (nvm use, conda activate,
// pyenv shell): in a line of their own they change nothing later lines
// see.
func addShellOnlySubcommands(m map[string]map[string][]string) {
	add := func(name string, subs ...string) {
		if ro, ok := m[name]; ok {
			for _, s := range subs {
				ro[s] = nil
			}
		}
	}
	add("nvm", "use")
	for _, name := range []string{"conda", "mamba", "micromamba"} {
		add(name, "activate", "deactivate")
	}
	for _, name := range []string{"pyenv", "rbenv", "goenv", "nodenv", "jenv", "plenv"} {
		add(name, "shell")
	}
}

// homeStateAliases returns why the command name args changes state
// outside the workdir in a way homeState's tables miss, or "".
func homeStateAliases(name string, args []word) string {
	switch name {
	case "rustup":
		// rustup install and uninstall are toolchain install and
		// uninstall.
		if len(args) > 0 && (args[0].text == "install" || args[0].text == "uninstall" || args[0].dynamic) {
			return "rustup " + args[0].text + " installs or removes a toolchain outside the workdir"
		}
	case "dotnet":
		// dotnet new -i/--install, the older spelling of dotnet new
		// install, installs templates in ~/.templateengine.
		if len(args) > 1 && args[0].text == "new" {
			for _, a := range args[1:] {
				switch a.text {
				case "-i", "--install", "-u", "--uninstall", "--update-apply":
					return "dotnet new " + a.text + " installs or removes templates outside the workdir"
				}
			}
		}
	case "cargo-binstall", "pkgx", "webi", "uvx":
		// cargo-binstall as its own program, as cargo binstall; pkgx and
		// uvx fetch a program into a cache outside the workdir and run
		// it, as npx does a package the project lacks; webi installs.
		if len(args) > 0 && !onlyVersion(args) {
			return name + " installs or fetches programs outside the workdir"
		}
	case "uv", "pipx":
		// uv tool run and pipx run, as uvx.
		if name == "uv" && len(args) > 1 && args[0].text == "tool" && args[1].text == "run" {
			return "uv tool run fetches a program outside the workdir and runs it"
		}
		if name == "pipx" && len(args) > 0 && args[0].text == "run" {
			return "pipx run fetches a program outside the workdir and runs it"
		}
	}
	return ""
}

// pipPythonVenv reports whether the --python option of pip at args[i]
// (--python=P or --python P) names the interpreter of a virtual
// environment by a path, recording the environment as venv does: pip
// --python .venv/bin/python install x, and the pip words of uv pip
// install --python .venv/bin/python x, install into it. An absolute path
// stays opaque, as round 43 has it.
func (an *analyzer) pipPythonVenv(args []word, i int) bool {
	_, v, hasVal := strings.Cut(args[i].text, "=")
	if !hasVal {
		if i+1 >= len(args) || args[i+1].dynamic || args[i+1].pattern {
			return false
		}
		v = args[i+1].text
	}
	return v != "" && !strings.HasPrefix(v, "/") && an.venv(v)
}
