package shellscan

import (
	"slices"
	"strings"
)

// A checkerSpec models a linter, formatter that only reports, type
// checker or test runner whose operands are files or directories it only
// reads, or whose code it runs: gofmt -l ., ruff check ., mypy .,
// pytest .; the rule for commands the analysis does not model asks about
// those, since "." holds .git.
type checkerSpec struct {
	// flags are the options modelled, spelled as given ("-q",
	// "--select"): goBool takes no value unless attached, goValue takes
	// one it does not write to. Any other option leaves the command to
	// the rule for commands the analysis does not model.
	flags map[string]goFlag
	// need, when set, lists options one of which must be given for the
	// command to write nothing (black --check, prettier --check).
	need []string
	// runs marks a command that runs the code of its operands (pytest)
	// or configuration code where it runs (eslint.config.js): the
	// directories must lie in the workdir.
	runs bool
	// cache is the directory it writes in the working directory.
	cache string
	// fromFile marks a command whose parser reads more arguments from
	// the file an argument names after '@' (argparse's
	// fromfile_prefix_chars: pytest @args.txt, mypy @flags), which may
	// hold any option.
	fromFile bool
	// cwdConfig marks a command that loads its configuration, which can
	// load code, from the working directory or above rather than beside
	// its operands (eslint.config.js; flake8's setup.cfg, tox.ini or
	// .flake8, whose local-plugins name code to import; mypy's mypy.ini,
	// whose plugins it imports): the working directory must lie in the
	// workdir too.
	cwdConfig bool
}

// checkerFlags builds a flag table from the options that take no value
// and those that take one.
func checkerFlags(bools, values string) map[string]goFlag {
	m := map[string]goFlag{}
	for _, f := range strings.Fields(bools) {
		m[f] = goBool
	}
	for _, f := range strings.Fields(values) {
		m[f] = goValue
	}
	return m
}

// checkers are the modelled commands, by name and, where the command
// has subcommands, "name subcommand". Options that write a report
// (--output-file, --junitxml), change files (--fix, --write), run or
// load code the line names (pytest -p, eslint --format ./x.js, mypy
// --install-types) or move a cache (--cache-dir) are left out on
// purpose.
var checkers = lazy[map[string]checkerSpec]{build: func() map[string]checkerSpec {
	return map[string]checkerSpec{
		// gofmt prints (-l, -d) and does not change the Go files of its
		// operands unless told to (-w).
		"gofmt": {flags: checkerFlags("-l -d -s -e", "-r")},
		"ruff check": {flags: checkerFlags(
			"-q --quiet -s --silent -v --verbose -e --exit-zero --statistics --show-fixes --no-fix --no-cache --preview --no-preview --no-show-fixes",
			"--select --ignore --extend-select --extend-ignore --output-format --target-version --line-length --exclude --extend-exclude --per-file-ignores"),
			cache: ".ruff_cache"},
		"ruff format": {flags: checkerFlags("--check --diff -q --quiet -s --silent -v --verbose --no-cache --preview --no-preview",
			"--line-length --target-version --exclude"), need: []string{"--check", "--diff"}, cache: ".ruff_cache"},
		"black": {flags: checkerFlags("--check --diff -q --quiet -v --verbose --color --no-color --fast --safe --preview -S --skip-string-normalization -C --skip-magic-trailing-comma",
			"-l --line-length -t --target-version --include --exclude --extend-exclude --force-exclude"), need: []string{"--check", "--diff"}},
		"flake8": {flags: checkerFlags("-q --quiet -v --verbose --count --statistics --show-source --exit-zero",
			"--max-line-length --max-complexity --select --ignore --extend-select --extend-ignore --exclude --extend-exclude --per-file-ignores --format"),
			cwdConfig: true},
		"mypy": {flags: checkerFlags("--strict --ignore-missing-imports --no-incremental --check-untyped-defs --disallow-untyped-defs --pretty --show-error-codes --hide-error-codes --no-error-summary --show-column-numbers --warn-unused-ignores --no-implicit-optional --namespace-packages --explicit-package-bases",
			"--python-version --follow-imports -p --package -m --module"), cache: ".mypy_cache", fromFile: true,
			cwdConfig: true},
		"pytest": {flags: checkerFlags("-q --quiet -v -vv --verbose -x --exitfirst -s -l --showlocals --lf --last-failed --ff --failed-first --nf --sw --co --collect-only --no-header --strict-markers --disable-warnings",
			"-k -m --tb --maxfail --durations -n --timeout"), runs: true, cache: ".pytest_cache", fromFile: true},
		"eslint": {flags: checkerFlags("--quiet --color --no-color --report-unused-disable-directives --no-inline-config --no-error-on-unmatched-pattern --no-warn-ignored",
			"--max-warnings --ext"), runs: true, cwdConfig: true},
		"prettier": {flags: checkerFlags("--check -c -l --list-different --no-editorconfig --no-error-on-unmatched-pattern",
			"--log-level"), need: []string{"--check", "-c", "-l", "--list-different"}, runs: true},
	}
}}

// checker records what a modelled checker reads and writes, and reports
// whether it modelled args; it reports false, leaving the command to the
// rule for commands the analysis does not model, for a command or
// subcommand it does not know, an option not in its table, a word only
// known when the line runs, or a missing option the command needs to
// write nothing.
func (an *analyzer) checker(name string, args []word) bool {
	spec, ok := checkers.get()[name]
	if !ok && len(args) > 0 && !args[0].dynamic {
		if spec, ok = checkers.get()[name+" "+args[0].text]; ok {
			name, args = name+" "+args[0].text, args[1:]
		}
	}
	if !ok {
		return false
	}
	for _, a := range args {
		if spec.fromFile && (a.dynamic || strings.HasPrefix(a.text, "@")) {
			// The file's arguments are not on the line: --junitxml=.git/config,
			// -p plugin.
			an.opaque(name + " reads more arguments from a file named after '@'")
			return true
		}
	}
	var ops []word
	seen := map[string]bool{}
	operandsOnly := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic || a.special {
			return false
		}
		if operandsOnly || !strings.HasPrefix(a.text, "-") || a.text == "-" {
			ops = append(ops, a)
			continue
		}
		if a.text == "--" {
			operandsOnly = true
			continue
		}
		flag, _, hasVal := strings.Cut(a.text, "=")
		kind, ok := spec.flags[flag]
		if !ok {
			return false
		}
		seen[flag] = true
		if kind == goValue && !hasVal {
			// A value that looks like an option is left alone: some
			// parsers take it as the value, others as the next option.
			if i+1 == len(args) || args[i+1].dynamic || args[i+1].special || strings.HasPrefix(args[i+1].text, "-") {
				return false
			}
			i++
		}
	}
	if len(spec.need) > 0 && !slices.ContainsFunc(spec.need, func(n string) bool { return seen[n] }) {
		return false
	}
	for _, op := range ops {
		if op.text != "-" {
			an.addAccess(op, modeRead, name, true)
		}
	}
	if spec.runs {
		dirs := make([]word, 0, len(ops))
		for _, op := range ops {
			// pytest's node ids name a test inside a file
			// (tests/x.py::test_y).
			op.text, _, _ = strings.Cut(op.text, "::")
			dirs = append(dirs, op)
		}
		if spec.cwdConfig && len(dirs) > 0 {
			dirs = append(dirs, word{text: "."})
		}
		an.packageDirs(dirs)
	} else if spec.cwdConfig {
		an.packageDirs(nil)
	}
	if spec.cache != "" {
		an.addAccess(word{text: spec.cache}, modeWrite, name, true)
	}
	return true
}
