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
		"flake8 --max-line-length=100 .":                 {"reads . +tree"},
		"mypy --strict .":                                {"reads . +tree", "writes .mypy_cache +tree"},
		"pytest":                                         {"reads . +runs", "writes .pytest_cache +tree"},
		`pytest -q -k "a and not b" tests/x.py::test_y`:  {"reads tests/x.py::test_y +tree", "reads tests/x.py +runs", "writes .pytest_cache +tree"},
		"python3 -m pytest -x .":                         {"reads . +tree", "reads . +runs", "writes .pytest_cache +tree"},
		"python3 -mmypy src":                             {"reads src +tree", "writes .mypy_cache +tree"},
		"eslint --max-warnings 0 .":                      {"reads . +tree", "reads . +runs"},
		"prettier --check src":                           {"reads src +tree", "reads src +runs"},
		"pytest -- -odd-name.py":                         {"reads -odd-name.py +tree", "reads -odd-name.py +runs", "writes .pytest_cache +tree"},
	})
	checkUnmodelled(t, []string{
		"ruff check --fix .", "ruff format .", "ruff check --cache-dir x .", "black .", "black -q .",
		"flake8 --output-file=r.txt .", "mypy --install-types .", "mypy --cache-dir=x .", "pytest -p evil .",
		"pytest --basetemp=x .", "pytest --junitxml=r.xml .", "pytest -W error .", "python3 -B -m pytest .",
		"eslint --fix .", "eslint -c x.js .", "eslint --format ./f.js .", "prettier --write .", "prettier .",
		"pytest $T", "ruff check -k", "prettier --check --log-level --write .", "ruff check --select --fix .",
	})
}
