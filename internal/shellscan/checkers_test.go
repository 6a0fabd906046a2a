package shellscan

import "testing"

// ruff check ., mypy ., pytest . and their kin asked under "allow
// bash", since "." holds .git. They are modelled: their operands are
// read, a test runner's (and a linter that loads configuration code)
// are directories whose code runs, and a cache directory is written
// where the command runs. Options that write, fix or load code the line
// names are not modelled and leave the command to the unmodelled rule.
func TestCheckersAreModelled(t *testing.T) {
	checkModelled(t, map[string][]string{
		"ruff check .": {"reads . +tree", "writes .ruff_cache +tree"},
		"ruff check --select E,F --statistics src tests": {"reads src +tree", "reads tests +tree", "writes .ruff_cache +tree"},
		"ruff format --check .":                          {"reads . +tree", "writes .ruff_cache +tree"},
		"black --check -l 100 .":                         {"reads . +tree"},
		// flake8 reads its configuration (local-plugins: code) from its
		// working directory: cd /tmp && flake8 /w would load /tmp's.
		"flake8 --max-line-length=100 .": {"reads . +tree", "reads . +runs"},
		"flake8 /w/src":                  {"reads /w/src +tree", "reads . +runs"},
		// mypy imports the plugins its mypy.ini names, from its
		// working directory.
		"mypy --strict .": {"reads . +tree", "reads . +runs", "writes .mypy_cache +tree"},
		"pytest":          {"reads . +runs", "writes .pytest_cache +tree"},
		`pytest -q -k "a and not b" tests/x.py::test_y`: {"reads tests/x.py::test_y +tree", "reads tests/x.py +runs", "writes .pytest_cache +tree"},
		// python -m imports the module from its working directory first,
		// which is a directory whose code runs.
		"python3 -m pytest -x .":      {"reads . +tree", "reads . +runs", "reads . +runs", "writes .pytest_cache +tree"},
		"python3 -mmypy src":          {"reads src +tree", "reads . +runs", "reads . +runs", "writes .mypy_cache +tree"},
		"python3 -m black --check /w": {"reads /w +tree", "reads . +runs"},
		"eslint --max-warnings 0 .":   {"reads . +tree", "reads . +runs", "reads . +runs"},
		// eslint loads eslint.config.js from the working directory up,
		// not from beside its operands: cd ~ && eslint /w/src runs ~'s.
		"eslint /w/src":          {"reads /w/src +tree", "reads /w/src +runs", "reads . +runs"},
		"prettier --check src":   {"reads src +tree", "reads src +runs"},
		"pytest -- -odd-name.py": {"reads -odd-name.py +tree", "reads -odd-name.py +runs", "writes .pytest_cache +tree"},
	})
	checkUnmodelled(t, []string{
		"ruff check --fix .", "ruff format .", "ruff check --cache-dir x .", "black .", "black -q .",
		"flake8 --output-file=r.txt .", "mypy --install-types .", "mypy --cache-dir=x .", "pytest -p evil .",
		"pytest --basetemp=x .", "pytest --junitxml=r.xml .", "pytest -W error .", "python3 -B -m pytest .",
		"eslint --fix .", "eslint -c x.js .", "eslint --format ./f.js .", "prettier --write .", "prettier .",
		"pytest $T", "ruff check -k", "prettier --check --log-level --write .", "ruff check --select --fix .",
	})
}

// pytest (8.2 on) and mypy read more arguments from a file named after
// '@' (argparse's fromfile_prefix_chars), which may hold any option:
// printf -- '--junitxml=.git/config\n' > a && pytest @a clobbers the
// repository's configuration. The line is opaque, even when an option
// before it is not modelled (which left it to the unmodelled rule, whose
// words "@a" are harmless paths), and when a word is only known when the
// line runs.
func TestCheckerArgumentFilesAreOpaque(t *testing.T) {
	for _, line := range []string{
		"pytest @args.txt", "pytest -q tests @a", "python3 -m pytest @a", "python3 -mpytest -x @a",
		"pytest --cov=src @a", "mypy @flags", "mypy --python-version @v .", "python3 -m mypy @f",
		"pytest -k $K .",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q: not opaque (accesses %v)", line, a.accesses)
		}
	}
}
