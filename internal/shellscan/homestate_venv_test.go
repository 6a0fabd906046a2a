package shellscan

import (
	"slices"
	"testing"
)

// A pip or python named by a path into a virtual environment's bin
// directory is handed to the caller as an Access.Venv, which checks the
// program and its environment; a command guessed among the words of one
// the analysis does not model keeps no accesses, so there it is opaque.
func TestVenvProgramIsHandedToTheCaller(t *testing.T) {
	for _, c := range []struct{ line, prog string }{
		{".venv/bin/pip install x", ".venv/bin/pip"},
		{"venv/bin/python -m pip install x", "venv/bin/python"},
		{".venv/bin/python3 -m pip uninstall -y x", ".venv/bin/python3"},
		{"pip --python .venv/bin/python install x", ".venv/bin/python"},
		{"/w/.venv/bin/pip install -r requirements.txt", "/w/.venv/bin/pip"},
	} {
		a := analyzeBash(c.line, "/home/u", "/w")
		if len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", c.line, a.reasons)
		}
		if !slices.ContainsFunc(a.accesses, func(acc access) bool { return acc.venv && acc.path == c.prog }) {
			t.Errorf("%q: no venv access of %s in %+v", c.line, c.prog, a.accesses)
		}
	}
	for _, line := range []string{
		"logsave /dev/null .venv/bin/pip uninstall -y m", "logsave log .venv/bin/python -m pip uninstall -y m",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
}
