package shellscan

import (
	"slices"
	"testing"
)

// python -m runs the command-line tool a module holds as the tool runs:
// python3 -m uv run x is uv run x (and -m uv pip, judged since db78413,
// is only one of its subcommands), python3 -m pipx run x is pipx run x,
// python3 -m pre_commit install installs git hooks. The analysis judges
// the tool's command as the tool's, and deny rules see it.
func TestPythonModuleCLIsAreJudgedAsTheirTools(t *testing.T) {
	for _, line := range []string{
		`python3 -m uv run x.py`, `python3 -m uv tool run x`, `python3 -m pipx run x`, `python3 -m poetry run x`,
		`python3 -m pdm run x`, `python3 -m hatch run x`, `python3 -m pipenv run x`, `python3 -m pre_commit install`,
		`python3 -m conda run x`, `python3 -m conda install x`, `py -m uv run x`, `python3 -Im uv run x`,
		`python3 -I -m uv.__main__ run x`, `PYTHON3 -m uv run x`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	a := Analyze(`python3 -m uv run terraform destroy`, Options{Home: "/Users/u", Workdir: "/w"})
	if !slices.ContainsFunc(a.Commands, func(c Command) bool { return c.Text == "uv run terraform destroy" || c.Text == "terraform destroy" }) {
		t.Errorf("python3 -m uv run terraform destroy: no command uv run … in %+v", a.Commands)
	}
	for _, line := range []string{
		`python3 -m pytest -q`, `python3 -m unittest`, `python3 -m venv .venv`, `python3 -m http.server 8000`,
		`python3 -m json.tool x.json`, `.venv/bin/python -m pip install x`, `python3 -m pip --version`,
		`python3 -m uv --version`, `python3 -m mypy .`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
