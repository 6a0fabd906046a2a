package shellscan

import (
	"os"
	"path/filepath"
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

// A file written through a link of the workdir that a later command of
// the line runs under the name the link leads to is code the line wrote:
// the write is recorded under both names. Writes through links that no
// later command runs, and writes not through a link, stay understood.
func TestWritesThroughProjectLinks(t *testing.T) {
	wd := t.TempDir()
	for name, text := range map[string]string{
		"package.json":           `{"scripts": {"test": "echo ok"}}`,
		"node_modules/.bin/tsc":  "#!/bin/sh\necho ok\n",
		"node_modules/foo/.keep": "",
		"tools/tool.sh":          "#!/bin/sh\necho ok\n",
		"doc/README.md":          "# x\n",
		"GNUmakefile":            "all: ; @echo ok\n",
	} {
		p := filepath.Join(wd, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"pj":        "package.json",
		"b":         "node_modules/.bin",
		"CLAUDE.md": "doc/README.md",
		"e":         ".",
		"out":       "/tmp",
		"nf":        "node_modules/foo",
		"dd":        "doc",
		// A program run through a link to a file of the project.
		"runme":                    "tools/tool.sh",
		"node_modules/.bin/mytool": "../../tools/tool.sh",
	} {
		if err := os.Symlink(to, filepath.Join(wd, link)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		line   string
		opaque bool
	}{
		{"cat kit/package.json > pj && npm test", true},
		{"cp x.json pj; npm test", true},
		{"printf '#!/bin/sh\\nid\\n' > b/tsc && npx tsc", true},
		{"sed -i s/ok/id/ b/t?c && npx tsc", true},
		{"echo 'all: ; id' > e/GNUmakefile && make", true},
		{"cd e && echo 'all: ; id' > GNUmakefile; make", true},
		// A ".." after a link steps back from where it led; a pattern
		// may match a link; a link made by the line (round 129).
		{"printf x > nf/../.bin/tsc && npx tsc", true},
		{"cd nf && printf x > ../.bin/tsc; cd .. && npx tsc", true},
		{"cat kit/package.json | tee ?j >/dev/null && npm test", true},
		{"printf x | tee [b]/tsc >/dev/null && npx tsc", true},
		{"cmake -E create_symlink node_modules/.bin bb && printf x > bb/tsc && npx tsc", true},
		// The command's /proc/self/cwd is the workdir, not the test's.
		{"cat kit/package.json > /proc/self/cwd/pj && npm test", true},
		{"cat kit/package.json | tee /proc/self/cwd/?j >/dev/null && npm test", true},
		// The program run is, through a link, the file written.
		{"printf x > tools/tool.sh && npx mytool", true},
		{"printf x > tools/tool.sh && ./runme", true},
		{"cd tools && printf x > tool.sh; cd .. && ./runme", true},
		// A command the analysis does not model given a directory, or
		// a link to one, before a program in it runs.
		{"cmake -E copy x.txt node_modules/.bin && npx tsc", true},
		{"cmake -E copy x.txt b && npx tsc", true},
		// Too many paths to record the name the link leads to.
		{"cat " + strings.Repeat("x.txt ", 1021) + "> /dev/null; cat kit/package.json > pj && npm test", true},
		// The name the line runs is the one it wrote: opaque as before.
		{"cat kit/package.json > package.json && npm test", true},
		// Nothing later runs what the line wrote.
		{"cat kit/package.json > pj", false},
		{"npm test && cat kit/package.json > pj", false},
		{"sed -i s/x/y/ CLAUDE.md && git diff --stat", false},
		{"echo y >> e/doc/README.md && cat doc/README.md", false},
		{"echo x > out/log && npm test", false},
		{"echo x > notes.txt && npm test", false},
		{"printf x > dd/../notes.txt && npm test", false},
		{"cat x.txt | tee ?otes.txt >/dev/null && npm test", false},
		{"cmake -E make_directory build && echo x > build/y", false},
		{"printf x > tools/other.sh && npx mytool", false},
		{"printf x > notes.txt && ./runme", false},
		{"cmake -E copy x.txt build && npx tsc", false},
	}
	for _, tt := range tests {
		a := Analyze(tt.line, Options{Home: "/home/u", Workdir: wd})
		if a.Opaque != tt.opaque {
			t.Errorf("%q: opaque %v (%q), want %v", tt.line, a.Opaque, a.Reasons, tt.opaque)
		}
	}
}
