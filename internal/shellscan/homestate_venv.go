package shellscan

import "strings"

// uvConfig records that uv reads its settings in the working directory
// and every directory above it (uv.toml, pyproject.toml's [tool.uv]),
// which may name where uv pip installs (target, prefix, system, python):
// an Access.UvConfig of ".", which the caller checks from every candidate
// directory.
func (an *analyzer) uvConfig() {
	if len(an.a.accesses) >= maxAccessPaths {
		an.opaque("the command touches too many paths to check")
		return
	}
	an.a.accesses = append(an.a.accesses, access{mode: modeRead, path: ".", uvConfig: true})
}

// pipConfig records that pip reads the settings files of the user and of
// the system, and its environment, which may say where it installs or
// writes (target, prefix, log …): an Access.PipConfig of ".", which the
// caller checks.
func (an *analyzer) pipConfig() {
	if len(an.a.accesses) >= maxAccessPaths {
		an.opaque("the command touches too many paths to check")
		return
	}
	an.a.accesses = append(an.a.accesses, access{mode: modeRead, path: ".", pipConfig: true})
}

// uvPipGuessed treats the code uses of the commands guessed among the words
// of uv pip (its pip, an interpreter its --python names) from index uses
// on as uv's own, recorded before its words (from): uv pip is uv's own
// pip, which uvPip models and whose packages packagesGiven records, not a
// program it runs after writing one of its words, as logsave FILE CMD
// would (so uv pip install --python .venv/bin/python x and --target ./t
// are not taken for a line that writes the code it runs).
func (an *analyzer) uvPipGuessed(name string, args []word, uses, from int) {
	if !uvPipCommand(name, args) {
		return
	}
	for i := uses; i < len(an.codeUses); i++ {
		an.codeUses[i].from = min(an.codeUses[i].from, from)
	}
	an.uvPipInterpreterRead(from, args[1:])
}

// uvPipInterpreterRead turns the words given to uv from index from of the
// accesses on that name the interpreter uv pip args's --python names into
// reads: uv runs it (uvPip records it as a virtual environment's python,
// which the caller checks), and does not write it.
func (an *analyzer) uvPipInterpreterRead(from int, args []word) {
	python := ""
	for i, a := range args {
		opt, v, hasVal := strings.Cut(a.text, "=")
		switch {
		case opt == "--python" || opt == "-p":
			if !hasVal && i+1 < len(args) {
				v = args[i+1].text
			}
			python = v
		case strings.HasPrefix(a.text, "-p") && !strings.HasPrefix(a.text, "--"):
			python = a.text[2:]
		}
	}
	if python == "" {
		return
	}
	for i := max(from, 0); i < len(an.a.accesses); i++ {
		if acc := &an.a.accesses[i]; acc.unknown && acc.path == python {
			acc.unknown = false
		}
	}
}

// moduleUvPip returns the words after pip in python's args that run uv
// pip as a module (python3 -m uv pip …), or nil.
func moduleUvPip(args []word) []word {
	for i, a := range args {
		if (a.text == "-m" && i+2 < len(args) && args[i+1].text == "uv" || a.text == "-muv" && i+1 < len(args)) && !a.dynamic {
			j := i + 1
			if a.text == "-m" {
				j++
			}
			if args[j].text == "pip" {
				return args[j+1:]
			}
			return nil
		}
	}
	return nil
}

// uvPipCommand reports whether name args is uv pip, which uvPip models.
func uvPipCommand(name string, args []word) bool {
	return name == "uv" && len(args) > 0 && args[0].text == "pip" && !args[0].dynamic
}

// runsDirect marks the command wrapped is looking at as run by the line
// itself (depth and chain 0, not guessed: see analyzer.direct) and returns
// the function that restores the mark of the command around it.
func (an *analyzer) runsDirect(depth, chain int) func() {
	prev := an.direct
	an.direct = depth == 0 && chain == 0 && !an.guess
	return func() { an.direct = prev }
}

// pathVenv reports whether prog, a pip or python named without a path
// (pip install x, python3 -m pip install x) that the line runs itself,
// may be one PATH finds in a virtual environment of the workdir, and if
// so records it as an Access.Lookup for the caller to find by the PATH the
// line gets. The line cannot have changed PATH before it: assignments,
// export, read, declare, unset, hash, source and their kin are opaque.
func (an *analyzer) pathVenv(prog string) bool {
	if !an.direct || prog == "" || strings.ContainsAny(prog, "/\\") {
		return false
	}
	if len(an.a.accesses) >= maxAccessPaths {
		an.opaque("the command touches too many paths to check")
		return true
	}
	an.a.accesses = append(an.a.accesses, access{mode: modeRead, path: prog, venv: true, lookup: true})
	return true
}
