//go:build linux

package permission_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryReviewNpx are attacks of the review of npx's understanding, run in
// the fixture of reviewNpxTemplate. Each does damage when run, so each must
// be refused by both scenarios.
var canaryReviewNpx = map[string][]string{
	// npx takes the word after --no, --no-fund or --no-audit as their
	// value, so it puts no "--" before the program's name, and npm then
	// reads the options after the name as its own configuration.
	"npx-value": {
		`printf 'require("fs").writeFileSync("c", "x")' > y; npx --no ver --node-options=--require=./y`,
		`printf 'require("fs").appendFileSync(".git/config", "x")' > y; npx --no-fund ver --node-options=--require=./y`,
		`npx --no-audit ver "--node-options=--import=data:text/javascript,import{writeFileSync}from'fs';writeFileSync('c','x')"`,
		`npx --no-audit ver --noEmit "--node-options=--import=data:text/javascript,import{writeFileSync}from'fs';writeFileSync('c','x')"`,
		`printf 'require("fs").writeFileSync("c", "x")' > y; npx -y --no ver --node-options=--require=./y`,
		`printf 'require("fs").writeFileSync("c", "x")' > y; npx --no ver -q --node-options=--require=./y`,
		`printf 'require("fs").writeFileSync("c", "x")' > y; npx --no-fund ver --node-options --require=./y`,
		`printf 'node-options=--require=./y\n' > y.rc; printf 'require("fs").writeFileSync("c", "x")' > y; npx --no ver --userconfig=y.rc`,
	},
	// sh runs npx's command: a program named like one of its builtins is
	// the builtin, whatever node_modules/.bin holds.
	"npx-builtin": {
		`npx trap 'echo x > c' EXIT`,
		`npx trap 'echo x > .git/config' EXIT`,
		`npx --yes trap 'echo x > c' EXIT`,
		`npx -- trap 'echo x > c' EXIT`,
		`npx eval 'echo x > c'`,
		`printf 'echo x > c' > y; npx command . ./y`,
	},
	// The project's own package bin, which npx runs first, is a file
	// the line writes.
	"npx-pkgbin": {
		`mkdir -p tools; printf '#!/bin/sh\necho x > c\n' > tools/lint; chmod +x tools/lint; npx lint`,
		`mkdir -p tools && printf '#!/bin/sh\necho x > c\n' > tools/lint && chmod +x tools/lint && npx --yes lint src`,
		`mkdir tools; cp node_modules/.bin/rm tools/lint; npx lint c`,
	},
	// In a workspace (app), npm reads the root's .npmrc and looks in the
	// root's package.json for a program of its own.
	"npx-workspace": {
		`mkdir -p tools; printf '#!/bin/sh\necho x > ../c\n' > tools/lint; chmod +x tools/lint; cd app && npx lint`,
		`cd app; mkdir -p ../tools; printf '#!/bin/sh\necho x > ../c\n' > ../tools/lint; chmod +x ../tools/lint; npx --yes lint`,
		`printf 'require("fs").writeFileSync("../c", "x")' > y; printf 'node-options=--require=../y\n' > .npmrc; cd app && npx ver`,
		`cd app && printf 'require("fs").writeFileSync("../c", "x")' > y && printf 'node-options=--require=./y\n' > ../.npmrc && npx ver`,
	},
	// The program npx finds is one the line moves, links or restores.
	"npx-moved": {
		`mkdir -p x && printf '#!/bin/sh\necho x > c\n' > x/tsc && chmod +x x/tsc && mv node_modules/.bin node_modules/old && mv x node_modules/.bin && npx tsc`,
		`mkdir -p x/.bin && printf '#!/bin/sh\necho x > c\n' > x/.bin/tsc && chmod +x x/.bin/tsc && mv node_modules nm && mv x node_modules && npx tsc`,
		`printf '#!/bin/sh\necho x > c\n' > x && chmod +x x && ln -sf ../../x node_modules/.bin/tsc && npx tsc`,
		`printf '#!/bin/sh\necho x > c\n' > node_modules/typescript/bin/tsc && npx lnk`,
		`mkdir -p x && printf '#!/bin/sh\necho x > c\n' > x/tsc && chmod +x x/tsc && cp -r x/. node_modules/.bin/ && npx tsc`,
	},
	// npm's configuration from the environment the line sets.
	"npx-env": {
		`printf '#!/bin/sh\necho x > c\nexec /bin/sh "$@"\n' > y; chmod +x y; npm_config_script_shell=./y npx tsc`,
		`printf '#!/bin/sh\necho x > c\nexec /bin/sh "$@"\n' > y; chmod +x y; export npm_config_script_shell=./y; npx tsc`,
		`printf 'script-shell=./y\n' > y.rc; printf '#!/bin/sh\necho x > c\nexec /bin/sh "$@"\n' > y; chmod +x y; NPM_CONFIG_USERCONFIG=y.rc npx tsc`,
		`printf '#!/bin/sh\necho x > c\nexec /bin/sh "$@"\n' > y; chmod +x y; env npm_config_script_shell=./y npx tsc`,
		`printf 'require("fs").writeFileSync("c", "x")' > y.cjs; npm_config_node_options=--require=./y.cjs npx ver`,
	},
}

// reviewNpxTemplate is the fixture of TestCanaryNpx with programs named
// like sh's builtins, a package bin of the project's own (lint, in
// tools/, which the project has not built), a program linked as npm links
// them (lnk → ../typescript/bin/tsc), and a workspace app with ver and
// lint.
func reviewNpxTemplate(t *testing.T) string {
	t.Helper()
	template := canaryTemplate(t)
	work := filepath.Join(template, "work")
	for name, body := range map[string]string{
		"package.json":                    `{"name":"p","version":"1.0.0","bin":{"lint":"tools/lint"},"workspaces":["app"]}` + "\n",
		"app/package.json":                `{"name":"a","version":"1.0.0"}` + "\n",
		"app/node_modules/.bin/ver":       "#!/usr/bin/env node\nconsole.log('1.0.0')\n",
		"app/node_modules/.bin/lint":      "#!/bin/sh\necho lint \"$@\"\n",
		"node_modules/.bin/tsc":           "#!/bin/sh\necho tsc \"$@\"\n",
		"node_modules/.bin/ver":           "#!/usr/bin/env node\nconsole.log('1.0.0')\n",
		"node_modules/.bin/rm":            "#!/bin/sh\nexec /bin/rm \"$@\"\n",
		"node_modules/.bin/exec":          "#!/bin/sh\necho exec \"$@\"\n",
		"node_modules/.bin/eval":          "#!/bin/sh\necho eval \"$@\"\n",
		"node_modules/.bin/command":       "#!/bin/sh\necho command \"$@\"\n",
		"node_modules/.bin/trap":          "#!/bin/sh\necho trap \"$@\"\n",
		"node_modules/.bin/lint":          "#!/bin/sh\necho lint \"$@\"\n",
		"node_modules/typescript/bin/tsc": "#!/bin/sh\necho tsc \"$@\"\n",
	} {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../typescript/bin/tsc", filepath.Join(work, "node_modules/.bin/lnk")); err != nil {
		t.Fatal(err)
	}
	return template
}

// TestCanaryReviewNpx runs the attacks of the review with the real npx.
func TestCanaryReviewNpx(t *testing.T) {
	t.Parallel()
	tooltest.Long(t, "runs npx for each line")
	tooltest.Need(t, tooltest.NodeJS, "npx")
	template := reviewNpxTemplate(t)
	checkReviewRound(t, template, canaryReviewNpx)
	checkOrdinary(t, template, canaryNpxOrdinary, nil)
}

// canaryReviewXargs are attacks of the review of xargs running a reader.
var canaryReviewXargs = map[string][]string{
	// Options the reader's understanding does not take, and GNU xargs's
	// abbreviations and clusters of them.
	"xargs-options": {
		`printf 'c\0' | xargs -0l rm -f`,
		`echo c | xargs -ri rm -f {}`,
		`echo c | xargs --max-lines rm -f`,
		`echo c | xargs -e rm -f`,
		`echo c | xargs --max-a=1 rm -f`,
		`echo c | xargs -rn1 -- rm -f`,
		`echo c | xargs -x0 -d '\n' rm -f`,
		`echo c | xargs --del='\n' -- rm -f`,
		`echo c | xargs -rn1 -P2 rm -f`,
		`printf c > y; xargs -a y rm -f`,
	},
	// xargs behind wrappers, or a function named xargs, and wrappers run
	// by xargs.
	"xargs-wrappers": {
		`xargs() { echo x > .git/config; }; echo | xargs cat`,
		`echo c | nice xargs -n1 rm -f`,
		`echo c | env xargs rm -f`,
		`printf c | timeout 5 xargs -0 rm`,
		`echo c | command xargs -r rm`,
		`echo c | xargs -n1 nice rm`,
		`echo c | xargs -t -- env rm`,
	},
	// A reader xargs finds on a PATH the line changed (bin/ls of the
	// fixture, which xargs's execvp runs with sh).
	"xargs-path": {
		`PATH=bin:$PATH; echo c | xargs -r ls`,
		`echo | PATH=bin:$PATH xargs ls`,
		`export PATH=bin:$PATH; ls | xargs -n1 ls`,
		`for PATH in bin:/usr/bin:/bin; do echo | xargs ls; done`,
		`PATH=$PWD/bin:$PATH && printf 'x\0' | xargs -0 ls`,
	},
	// Readers beside commands that are none, and the reader's output run
	// as code.
	"xargs-readers": {
		`echo c | xargs -t grep -q x || echo c | xargs -t rm -f`,
		`printf '%s\n' 'c' | xargs -I% echo rm -f % | sh`,
		`ls c | xargs echo rm -f | bash`,
		`ls c | xargs -r echo | xargs -r rm -f`,
		`ls | xargs grep -c x >> .git/config`,
		`echo README | xargs cat | tee -a .git/config`,
		`echo c | xargs -n1 wc -l | xargs -t truncate -s 0 c`,
	},
}

func TestCanaryReviewXargs(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	checkReviewRound(t, canaryTemplate(t), canaryReviewXargs)
}

// checkReviewRound is checkCanaryRoundIn, save that what npm writes to its
// cache in the fake home (~/.npm: logs, the npx cache) is no damage, since
// every run of npx writes there, attack or not, and that a line may run for
// 20 seconds (and, killed then with no damage done, once more for two
// minutes): npx alone takes two or three on a loaded machine, more than
// runBash allows.
func checkReviewRound(t *testing.T, template string, round map[string][]string) {
	t.Helper()
	// Each line is a parallel subtest in a fixture of its own, as in
	// checkCanaryRoundIn: most of its time is spent waiting for npm, npx
	// or node to start.
	t.Run("lines", func(t *testing.T) {
		for class, lines := range round {
			for i, line := range lines {
				t.Run(fmt.Sprintf("%s-%d", class, i), func(t *testing.T) {
					t.Parallel()
					root := canaryFixture(t, template)
					allowedBy := allowingScenarios(t, root, line)
					before := canarySnapshot(t, root)
					start := time.Now()
					runLine(t, root, line, 20*time.Second, "")
					p := reviewChanged(root, before, canarySnapshot(t, root))
					if p == "" && time.Since(start) >= 20*time.Second {
						// Killed before it did its work (npx on a loaded
						// machine, beside the other lines): once more, in a
						// fresh fixture, with time to finish.
						root = canaryFixture(t, template)
						before = canarySnapshot(t, root)
						runLine(t, root, line, 2*time.Minute, "")
						p = reviewChanged(root, before, canarySnapshot(t, root))
					}
					if p == "" {
						t.Errorf("class %s: %q did no damage when run (allowed by %v)", class, line, allowedBy)
					}
					if len(allowedBy) > 0 {
						t.Errorf("class %s: %q was allowed by %v (changed %q)", class, line, allowedBy, p)
					}
				})
			}
		}
	})
}

// reviewChanged is changed, with paths under the fake home's .npm left out;
// it returns the path relative to root.
func reviewChanged(root string, before, after map[string]string) string {
	npm := filepath.Join(root, "home", ".npm")
	keep := func(m map[string]string) map[string]string {
		out := map[string]string{}
		for p, v := range m {
			if p != npm && !strings.HasPrefix(p, npm+string(filepath.Separator)) {
				out[p] = v
			}
		}
		return out
	}
	return strings.TrimPrefix(changed(keep(before), keep(after)), root)
}
