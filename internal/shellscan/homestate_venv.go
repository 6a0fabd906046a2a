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
