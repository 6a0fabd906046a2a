package shellscan

import "testing"

// A script's name is opened by the file system, which on macOS folds its
// case: python3 .venv/bin/PIP install x runs pip there, as python3
// .venv/bin/pip install x does, and installs into python3's environment.
func TestScriptNamesInAnyCaseAreJudgedAsTheScript(t *testing.T) {
	for _, line := range []string{
		`python3 .venv/bin/PIP install x`, `python3 /usr/local/bin/Pip3 install x`, `python3 /usr/bin/PIP-3.12 install x`,
		`python3 /usr/lib/python3/site-packages/pip/__MAIN__.PY install x`, `python3 .venv/bin/pIp3.12 install x`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{`python3 .venv/bin/PIP --version`, `python3 tools/Pipeline.py`} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
