package permission_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// g61Recipes are projects whose recipe (Makefile, justfile, Taskfile.yml,
// build.ninja, cmake's build directory, package.json's scripts) runs a
// program that reads settings files naming code or outside paths, and
// lines that write such a file before running the recipe: each ran the
// line's own settings (tsc's outDir in the home) and was allowed before
// gate61. The clean lines write files no program of the recipe reads, or
// run a recipe that names none.
var g61Recipes = map[string]string{
	"Makefile":               "all:\n\ttsc -p .\ndocs:\n\t./scripts/docs.sh\n",
	"scripts/docs.sh":        "#!/bin/sh\ndoxygen\n",
	"justfile":               "build:\n    hugo --minify\n",
	"Taskfile.yml":           "version: '3'\ntasks:\n  default:\n    cmds:\n      - mkdocs build\n",
	"build.ninja":            "rule t\n  command = node_modules/.bin/tsc\nbuild out: t\n",
	"b/build.ninja":          "include rules.ninja\n",
	"b/rules.ninja":          "rule d\n  command = /usr/bin/doxygen Doxyfile\n",
	"c/CMakeCache.txt":       "CMAKE_HOME_DIRECTORY:INTERNAL=/src\n",
	"c/Makefile":             "all:\n\t$(MAKE) -f CMakeFiles/Makefile2 all\n",
	"c/CMakeFiles/d.mk":      "docs:\n\tcd /src && hugo\n",
	"web/package.json":       `{"scripts": {"build": "sphinx-build -b html . _build", "test": "pytest -q"}}`,
	"package.json":           `{"scripts": {"docs": "doxygen", "site": "hugo", "build": "vite build"}}`,
	"plain/Makefile":         "all:\n\tcc -o a a.c\n",
	"plain/package.json":     `{"scripts": {"build": "node build.js"}}`,
	"plain/justfile":         "x:\n    go build ./...\n",
	"plain/c/CMakeFiles/x":   "cc -c a.c\n",
	"plain/c/CMakeCache.txt": "x\n",
}

func TestG61RecipesRunSettings(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	for name, text := range g61Recipes {
		p := filepath.Join(wd, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home})
	refused := []string{
		`echo '{"compilerOptions":{"outDir":"../../h"}}' > tsconfig.json && make`,
		`echo x > tsconfig.base.json && make all`, `echo x > Doxyfile && make docs`,
		`echo x > hugo.toml && just build`, `echo x > config.toml && just`, `echo x > mkdocs.yml && task`,
		`echo x > mkdocs.yml && go-task default`, `echo x > tsconfig.json && ninja`,
		`echo x > Doxyfile && ninja -C b`, `echo x > hugo.toml && cmake --build c`,
		`echo x > conf.py && cd web && npm run build`, `echo x > pytest.ini && npm --prefix web test`,
		`echo x > Doxyfile && npm run docs`, `echo x > hugo.toml && pnpm site`, `echo x > hugo.toml && yarn run site`,
		`echo x > hugo.toml && bun run site`, `echo x > scripts/docs.sh && make docs`,
		`echo x > tsconfig.json && cd plain && make -C .. all`, `echo x > Doxyfile && make -f Makefile docs`,
		`echo x > hugo.toml && just -f justfile build`,
	}
	allowed := []string{
		`make`, `just`, `task`, `ninja`, `cmake --build c`, `npm run build`, `echo x > notes.txt && make`,
		`echo x > notes.txt && just build`, `echo x > notes.txt && npm run docs`, `echo x > notes.txt && make -C plain`,
		`echo x > tsconfig.json && make -C plain`, `echo x > hugo.toml && npm --prefix plain run build`,
		`echo x > hugo.toml && just -f plain/justfile -d plain x`, `echo x > Doxyfile && cmake --build plain/c`,
		`echo x > tsconfig.json && ninja -C b`,
	}
	for _, line := range refused {
		if out := authorize(t, g, line); out.Run {
			t.Errorf("%q was allowed", line)
		}
	}
	for _, line := range allowed {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("%q was refused: %+v", line, out.Verdict)
		}
	}
}

// TestG61RecipeUnreadable: a recipe the gate cannot read fully (a
// Makefile that is a device) makes any file the line writes before the
// runner count as code; a large build.ninja of object files is read.
func TestG61RecipeUnreadable(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	for _, d := range []string{home, filepath.Join(wd, "dev"), filepath.Join(wd, "big")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/dev/zero", filepath.Join(wd, "dev", "Makefile")); err != nil {
		t.Fatal(err)
	}
	var ninja strings.Builder
	ninja.WriteString("rule cc\n  command = gcc -c $in -o $out\n")
	for i := range 6000 {
		fmt.Fprintf(&ninja, "build obj/f%d.o: cc src/f%d.c\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(wd, "big", "build.ninja"), []byte(ninja.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home})
	for line, run := range map[string]bool{
		"echo x > notes.txt && make -C dev": false, "make -C dev": true,
		"echo x > notes.txt && ninja -C big": true, "echo '{}' > tsconfig.json && ninja -C big": true,
	} {
		if out := authorize(t, g, line); out.Run != run {
			t.Errorf("%q: run %v, want %v (%+v)", line, out.Run, run, out.Verdict)
		}
	}
}
