package shellscan

// checkerName is the name the checkers table knows the program name by:
// Debian's pytest-3 and the older py.test are pytest.
func checkerName(name string) string {
	switch name {
	case "pytest-3", "py.test":
		return "pytest"
	}
	return name
}

// checkerCode records, for a checker that runs code where it runs
// (pytest's conftest.py and the plugins of -p, eslint's and prettier's
// configuration code, flake8's local plugins) but that checker left to
// the rule for commands the analysis does not model (an option its table
// leaves out: pytest --version, -rA, -p plugin), the code of the working
// directory as that of the command: it loads it whatever its options, so
// the files the line writes before it are its code (see
// runsWrittenCode).
func (an *analyzer) checkerCode(name string, args []word) {
	spec, ok := checkers.get()[name]
	if !ok && len(args) > 0 && !args[0].dynamic {
		spec, ok = checkers.get()[name+" "+args[0].text]
	}
	if !ok || !spec.runs && !spec.cwdConfig {
		return
	}
	// Only the code: the rule for commands the analysis does not model
	// judges the words, and the working directory is where it runs.
	if len(an.codeUses) >= maxCodeUses {
		an.opaque("the line runs code from too many files to check")
		return
	}
	an.codeUses = append(an.codeUses, codeUse{prog: name, path: ".", names: dirCodeFiles, from: an.callFrom})
}
