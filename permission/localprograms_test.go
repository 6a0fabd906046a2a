package permission

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// npx runs a program of the project's node_modules/.bin only when npm would
// find it there, from every directory the line works in; otherwise it
// fetches a package from the registry, which makes the line opaque.
func TestNpxNeedsTheProgramWhereNpmLooks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	wd := filepath.Join(root, "repo")
	files := map[string]string{
		"repo/package.json":                        `{"workspaces":["app","lib"]}`,
		"repo/node_modules/.bin/eslint":            "#!/bin/sh\n",
		"repo/app/package.json":                    "{}",
		"repo/app/node_modules/.bin/tsc":           "#!/bin/sh\n",
		"repo/app/node_modules/.bin/eslint":        "#!/bin/sh\n",
		"repo/lib/node_modules/.bin/vite/.keep":    "",
		"repo/node_modules/typescript/bin/tsc":     "#!/bin/sh\n",
		"repo/node_modules/.bin/prettier.disabled": "",
	}
	for p, body := range files {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A link to the package's program, as npm makes them.
	if err := os.Symlink("../typescript/bin/tsc", filepath.Join(wd, "node_modules/.bin/tsc")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../nowhere", filepath.Join(wd, "node_modules/.bin/jest")); err != nil {
		t.Fatal(err)
	}
	g := &Gate{workdir: wd}
	for _, tt := range []struct {
		line   string
		opaque bool
	}{
		{"npx eslint .", false},
		{"npx tsc --noEmit", false},      // a link to the package's program
		{"npx jest", true},               // a link to nothing
		{"npx prettier --check .", true}, // not installed
		{"cd app && npx tsc", false},     // app's own, and the workspace root's
		{"cd app && npx eslint src", false},
		{"cd lib && npx vite", true}, // a directory, not a program
		{"npx eslint . && cd app && npx tsc", false},
		{"cd app && npx jest", true},
		{"cd $d && npx tsc", true}, // an unknown directory
	} {
		a := shellscan.Analyze(tt.line, shellscan.Options{Workdir: wd})
		why := g.localPrograms(a)
		if got := why != "" || a.Opaque; got != tt.opaque {
			t.Errorf("%q: opaque %v, want %v (%q, %q)", tt.line, got, tt.opaque, why, a.Reasons)
		}
	}

	// In a workspace whose root lacks the program, npm 7 and later look
	// from the workspace's own node_modules/.bin (npm exec's runPath).
	if err := os.Remove(filepath.Join(wd, "node_modules/.bin/tsc")); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(wd, "app")
	g = &Gate{workdir: app}
	a := shellscan.Analyze("npx tsc", shellscan.Options{Workdir: app})
	if why := g.localPrograms(a); why != "" || a.Opaque {
		t.Errorf("npx tsc, which the workspace has, is opaque: %q %q", why, a.Reasons)
	}
	a = shellscan.Analyze("npx prettier", shellscan.Options{Workdir: app})
	if why := g.localPrograms(a); why == "" {
		t.Errorf("npx prettier, which neither has, is not opaque")
	}
	a = shellscan.Analyze("./node_modules/.bin/tsc", shellscan.Options{Workdir: app})
	if why := g.localPrograms(a); why != "" || a.Opaque {
		t.Errorf("running app's own tsc is opaque: %q %q", why, a.Reasons)
	}
}

// npx runs a program the project's own package.json names (npm exec looks
// in the package and its workspace root before node_modules/.bin), from a
// file of the project the line may write: a package.json that may name the
// program makes the line opaque.
func TestNpxRunsTheProjectsOwnProgramFirst(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		pkg, root string // the package's and its parent's package.json ("" for none)
		opaque    bool
	}{
		{`{}`, "", false},
		{`{"name":"p","bin":{"other":"x"}}`, "", false},
		{`{"name":"p","bin":null}`, "", false},
		{`{"name":"p","bin":{"lint":"tools/lint"}}`, "", true},
		{`{"name":"p","bin":{"x:lint":"tools/lint"}}`, "", true},
		{`{"name":"lint","bin":"tools/lint"}`, "", true},
		{`{"name":"@s/lint","bin":"tools/lint"}`, "", true},
		{`{"name":"p","bin":"tools/p"}`, "", false},
		{`{"bin":"tools/lint"}`, "", true},
		{`{"name":"p","directories":{"bin":"tools"}}`, "", true},
		{"\ufeff{}", "", true}, // npm strips the mark; Go does not parse it
		{`{}`, `{"workspaces":["app"],"bin":{"lint":"x"}}`, true},
		{`{}`, `{"workspaces":["app"]}`, false},
	} {
		root := t.TempDir()
		app := filepath.Join(root, "app")
		files := map[string]string{"app/package.json": tt.pkg, "app/node_modules/.bin/lint": "#!/bin/sh\n"}
		if tt.root != "" {
			files["package.json"] = tt.root
		}
		for p, body := range files {
			if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		g := &Gate{workdir: app}
		a := shellscan.Analyze("npx lint", shellscan.Options{Workdir: app})
		if a.Opaque {
			t.Fatalf("npx lint is opaque to the analysis: %q", a.Reasons)
		}
		if why := g.localPrograms(a); (why != "") != tt.opaque {
			t.Errorf("package.json %s under %s: opaque %v, want %v (%q)", tt.pkg, tt.root, why != "", tt.opaque, why)
		}
	}
}
