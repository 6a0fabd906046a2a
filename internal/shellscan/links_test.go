package shellscan

import (
	"strings"
	"testing"
)

// A command the analysis does not model, given a word after a command
// that may have made a symbolic link there, may write through the link,
// which the caller cannot resolve before the line runs.
func TestUnmodelledWordsAfterALinkAreOpaque(t *testing.T) {
	tests := []struct {
		line   string
		opaque bool
	}{
		{"cp -P link x && python3 -m mymod j x", true},
		{"cp -d link x && openssl base64 -in f -out x", true},
		{"cp -a link x && ctags -f x f", true},
		{"cp --no-dereference hooks h && openssl base64 -in f -out h/pre-commit", true},
		{"cp -R hooks h && openssl base64 -in f -out h/x", true},
		{"cp -P link sub/x && ctags -R sub", true},
		{"mv link x && python3 -m mymod j x", true},
		{"rsync -l link x && python3 -m mymod j x", true},
		{"cp -P link x; cd sub; openssl base64 -in f -out ../x", true},
		{"for i in 1 2; do openssl base64 -in f -out x; cp -P link x; done", true},
		// git puts a link the patch or commit holds anywhere in the worktree.
		{"git apply p.diff && python3 -m mymod j x", true},
		{"git checkout -q other && openssl base64 -in f -out y", true},
		// cp without these options copies what a link leads to.
		{"cp README x && python3 -m mymod x", false},
		{"cp -P link x && python3 -m mymod README y", false},
		{"python3 -m mymod j x && cp -P link x", false},
		{"mv a b && openssl base64 -in f -out y", false},
		// A subcommand and an interpreter's own script are not paths
		// written; the script's arguments and other words still are.
		{"git checkout -b feature && npm test", false},
		{"git pull && npm ci", false},
		{"git stash && python3 x.py", false},
		{"git pull && pip install -r requirements.txt", true},
		{"git pull && python3 -m pip install -r requirements.txt", true},
		{"git pull && python3 -mpip install ./pkg", true},
		{"git stash && python3 x.py out.json", true},
		{"git pull && npm install ./pkg", true},
		{"git pull && npm ./x", true},
		{"git pull && npm --prefix d test", true},
	}
	for _, tt := range tests {
		a := analyzeBash(tt.line, "/home/u", "/w")
		got := false
		for _, r := range a.reasons {
			if strings.Contains(r, "may make a symbolic link there") {
				got = true
			}
		}
		if got != tt.opaque {
			t.Errorf("%q: opaque after a link %v, want %v (reasons %v)", tt.line, got, tt.opaque, a.reasons)
		}
	}
}
