package shellscan

import (
	"slices"
	"testing"
)

// On a case-insensitive file system (macOS's default) a program name in
// any letter case runs the program: Python3 -c runs inline code as
// python3 -c does, and RM -rf x is rm. The analysis judges such a line as
// the program's, and deny rules see the lower-case spelling.
func TestProgramNamesInAnyCaseAreJudgedAsTheProgram(t *testing.T) {
	for _, line := range []string{
		`Python3 -c 'import os'`, `PYTHON -c 1`, `NODE -e x`, `Perl -e 1`, `RSCRIPT -e 1`, `r -e 1`,
		`BASH -c "$x"`, `Sh -c "$(cat f)"`, `EVAL x`,
		`BREW install jq`, `PIP install x`, `GO install .`, `Cargo install x`, `DOCKER run x`,
		`/usr/bin/Python3 -c 1`, `NICE Python3 -c 1`, `XARGS -0 BASH -c x`,
	} {
		if a := analyzeBash(line, "/home/u", "/w"); !opaqueOrFoundByPath(a) {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{`BASH -c 'echo hi'`, `GO build ./...`, `LS -la`} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
	for line, want := range map[string]string{
		"RM -rf build":        "rm -rf build",
		"/bin/RM -rf build":   "rm -rf build",
		"Terraform destroy":   "terraform destroy",
		"nice GIT push --all": "git push --all",
	} {
		a := Analyze(line, Options{Home: "/home/u", Workdir: "/w"})
		found := false
		for _, c := range a.Commands {
			if c.Text == want || slices.Contains(c.Alt, want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no command or spelling %q in %+v", line, want, a.Commands)
		}
	}
}
