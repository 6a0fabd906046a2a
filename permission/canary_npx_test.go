//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryNpx are attacks through npx, which the analysis understands when it
// runs a program the project installed in node_modules/.bin: the program
// is checked as if the line named it (npx rm is node_modules/.bin/rm), and
// what npx would otherwise fetch, and the options that choose what it runs
// or how, are opaque. Each does damage when run in the fixture below, so
// each must be refused by both scenarios.
var canaryNpx = map[string][]string{
	// The program's name is what the rules see.
	"npx-rules": {
		`npx rm c`,
		`npx -- rm -f c`,
		`npx --yes rm c`,
		`npx ver "$(rm -f c)"`,
	},
	// A program, configuration or code npx finds, which the line wrote.
	"npx-written": {
		`printf '#!/bin/sh\nrm -f c\n' > node_modules/.bin/ver && npx ver`,
		`cp node_modules/.bin/rm node_modules/.bin/ver && npx ver c`,
		`mv node_modules/.bin/rm node_modules/.bin/tsc; npx tsc c`,
		`printf '#!/bin/sh\nrm -f c\nexec /bin/sh "$@"\n' > y; chmod +x y; printf 'script-shell=./y\n' > .npmrc; npx tsc`,
		`printf 'require("fs").rmSync("c")' > node_modules/x.js; printf 'node-options=--require=./node_modules/x.js\n' > .npmrc; npx ver`,
	},
	// Options that run a command, or change how npx or node runs.
	"npx-options": {
		`npx -c 'rm -f c'`,
		`npx --call='rm -f c'`,
		`printf 'require("fs").rmSync("c")' > y.js; npx --node-options=--require=./y.js ver`,
		`printf '#!/bin/sh\nrm -f c\nexec /bin/sh "$@"\n' > y; chmod +x y; npx --script-shell=./y tsc`,
		`printf 'require("fs").rmSync("c")' > y.js; NODE_OPTIONS=--require=./y.js npx ver`,
		`printf '{"name":"p","version":"1.0.0","bin":{"zz":"z.js"}}' > package.json; printf '#!/usr/bin/env node\nrequire("fs").rmSync("c")' > z.js; npx zz`,
	},
}

// canaryNpxOrdinary are lines that "allow bash" allows: npx of programs
// the project installed.
var canaryNpxOrdinary = []string{
	"npx tsc --noEmit", "npx --yes tsc", "npx -- ver --version", "npx ver && npx tsc -p src",
	"git status && npx tsc",
}

// TestCanaryNpx runs the lines in a project that installed tsc, ver (a
// node program) and rm in node_modules/.bin, as npm links them.
func TestCanaryNpx(t *testing.T) {
	t.Parallel()
	tooltest.Long(t, "runs npx for each line")
	tooltest.Need(t, tooltest.NodeJS, "npx")
	template := canaryTemplate(t)
	work := filepath.Join(template, "work")
	for name, body := range map[string]string{
		"package.json":          "{}\n",
		"node_modules/.bin/tsc": "#!/bin/sh\necho tsc \"$@\"\n",
		"node_modules/.bin/ver": "#!/usr/bin/env node\nconsole.log('1.0.0')\n",
		"node_modules/.bin/rm":  "#!/bin/sh\nexec /bin/rm \"$@\"\n",
	} {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	checkReviewRound(t, template, canaryNpx)
	checkOrdinary(t, template, canaryNpxOrdinary, nil)
}
