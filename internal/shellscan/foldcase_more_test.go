package shellscan

import (
	"slices"
	"testing"
)

// A script's name is opened by the file system, which on macOS folds its
// case: python3 .venv/bin/PIP install x runs pip there, as python3
// .venv/bin/pip install x does, and installs into python3's environment.
func TestScriptNamesInAnyCaseAreJudgedAsTheScript(t *testing.T) {
	for _, line := range []string{
		`python3 .venv/bin/PIP install x`, `python3 /usr/local/bin/Pip3 install x`, `python3 /usr/bin/PIP-3.12 install x`,
		`python3 /usr/lib/python3/site-packages/pip/__MAIN__.PY install x`, `python3 .venv/bin/pIp3.12 install x`,
	} {
		// Opaque, or the python that runs the pip script handed to the
		// gate, to be found by PATH in a virtual environment of the
		// workdir (see TestPipFoundByPath): either way pip installs only
		// into such an environment.
		if a := analyzeBash(line, "/Users/u", "/w"); !opaqueOrFoundByPath(a) {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{`python3 .venv/bin/PIP --version`, `python3 tools/Pipeline.py`} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// The commands a program the analysis does not model may run, and those of
// a script a command may read, are spelled for deny rules in lower case
// too: tool --exec=RM runs rm on macOS, and a deny rule on rm sees it.
func TestGuessedAndReadSpellingsInAnyCase(t *testing.T) {
	for line, want := range map[string]string{
		"tool --exec=RM":                        "rm",
		"tool --exec=/bin/Rm":                   "rm",
		"runner 'make; TERRAFORM destroy'":      "terraform destroy",
		"logsave /dev/null Terraform destroy":   "terraform destroy",
		"echo 'TERRAFORM destroy' | pbcopy":     "terraform destroy",
		"tool -x'\u017fhred -u f'":              "shred -u f",
		"printf 'Kubectl delete ns x' > f; t f": "kubectl delete ns x",
	} {
		a := Analyze(line, Options{Home: "/Users/u", Workdir: "/w"})
		found := false
		for _, c := range a.Commands {
			if slices.Contains(c.Guessed, want) || slices.Contains(c.Read, want) || slices.Contains(c.Alt, want) || c.Text == want {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no spelling %q in %+v", line, want, a.Commands)
		}
	}
}

// A case-insensitive APFS volume folds names by Unicode's full case
// folding: ß is "ss" and the ligatures ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ their letters, so
// ßh runs ssh and ﬁsh runs fish there.
func TestProgramNamesUnderFullCaseFolding(t *testing.T) {
	for _, line := range []string{
		"\u00dfh -o ProxyCommand='rm -rf ~' x", "pbpaste | \ufb01sh", "\ufb02ock f make", "ca\ufb00einate python3 -c x",
		"pro\ufb01les install -path x", "sy\ufb06emsetup -setremotelogin on", "sy\ufb05emsetup -setremotelogin on",
		"\u1e9eH x",
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
}
