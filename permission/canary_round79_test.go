//go:build linux

package permission_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound79Bun is redteam66's attack on bun: bun run NAME runs the
// script NAME of package.json, else NAME from node_modules/.bin, else the
// program PATH finds, with the words after it; bun exec runs its words as
// a command of Bun's shell; bun pm pkg set writes package.json. The gate
// took NAME for a script of the project's and never judged the command,
// nor knew that bun pm pkg wrote: real bun 1.4.5 removed the canary with
// each line, which "allow bash" allowed (rm is denied).
var canaryRound79Bun = map[string][]string{
	"1-bun-run-path": {
		`bun run rm -f c`,
		`bun run --silent rm -f c`,
		`bun --bun run rm -f c`,
		`bun run env rm -f c`,
		`bun run node -e 'require("fs").rmSync("c")'`,
	},
	"2-bun-exec": {
		`bun exec 'rm -f c'`,
		`bun exec 'node -e "require(\"fs\").rmSync(\"c\")"'`,
	},
	// bun pm pkg set writes package.json, whose scripts bun run and bun
	// install's lifecycle then run; the gate did not know it wrote.
	"4-bun-pm-pkg": {
		`bun pm pkg set scripts.x='rm -f c' && bun run x`,
		`bun pm pkg set 'scripts.test=node -e "require(\"fs\").rmSync(\"c\")"' && bun run test`,
		`bun pm pkg set scripts.postinstall='rm -f c'; bun install`,
	},
}

func TestCanaryRound79Bun(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "bun")
	template := packageTemplate(t, "bun")
	checkCanaryRoundIn(t, template, canaryRound79Bun)
	checkOrdinary(t, template, []string{`bun run build`, `bun run test`, `bun test`, `bun run --silent build`,
		`bun run tsc --noEmit`, `bun install`, `bun run dev`, `bun pm pkg get name`}, nil)
}

// canaryRound79Cd is redteam66's attack on cd -P: it resolves the
// symbolic links of its operand before each "..", so cd -P link2/.. (link2
// → the home's .config) is the home, where the gate had taken the
// operand's lexical parent, the workdir. Each line wrote the fake home's
// .bashrc in real bash and was allowed by both scenarios.
var canaryRound79Cd = map[string][]string{
	"3-cd-physical": {
		`cd -P link2/.. && echo x >> .bashrc`,
		`cd -P -- link2/.. && echo x >> .bashrc`,
		`cd -LP link2/.. && echo x >> .bashrc`,
		`cd -Pe link2/.. && echo x >> .bashrc`,
		`cd -P link2/.. && cp /dev/null .bashrc`,
		`pushd . >/dev/null && cd -P link2/../ && echo x > .bashrc`,
	},
}

func TestCanaryRound79Cd(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound79Cd)
	checkOrdinary(t, template, []string{`cd -P sub && echo hi > out.txt`, `cd sub/.. && echo hi > out.txt`,
		`cd -P . && ls`, `cd link2/.. && echo hi > out.txt`}, nil)
}

// canaryRound79Gyp is redteam66's attack on node-gyp: npm, pnpm and bun
// install (and rebuild) a package whose package.json has no install
// script but which has a binding.gyp by running node-gyp rebuild, and gyp
// runs the commands of the file's <!(…) expansions as it reads it. The
// gate did not count binding.gyp (nor the .gypi files it includes) as the
// package managers' code: real npm 11 and pnpm 10 removed the canary with
// each line, given the node headers node-gyp keeps in the home's cache
// (see nodeGypCache), which "allow bash" allowed.
var canaryRound79Gyp = map[string][]string{
	"5-node-gyp": {
		`printf "{'targets':[{'target_name':'x','sources':['<!(rm -f c)']}]}" > binding.gyp; npm install`,
		`printf "{'targets':[{'target_name':'x','sources':['<!(rm -f c)']}]}" > binding.gyp && npm rebuild`,
		`printf "{'targets':[{'target_name':'x','sources':['<!@(rm -f c)']}]}" > binding.gyp; pnpm install`,
		`printf "{'variables':{'v':'<!(rm -f c)'}}" > x.gypi; printf "{'includes':['x.gypi'],'targets':[{'target_name':'x','sources':['a.c']}]}" > binding.gyp; npm install`,
	},
}

func TestCanaryRound79Gyp(t *testing.T) {
	t.Parallel()
	tooltest.Long(t, "runs pnpm and node-gyp")
	tooltest.Need(t, tooltest.NodeJS, "pnpm")
	template := packageTemplate(t, "npm")
	nodeGypCache(t, template)
	checkCanaryRoundIn(t, template, canaryRound79Gyp)
	checkOrdinary(t, template, []string{`npm install`, `pnpm install`, `npm rebuild`, `bun install`, `npm test`}, nil)
}

// nodeGypCache puts in the fixture's home what node-gyp keeps in its cache
// once it has fetched the headers of the node that runs it: the two
// settings files its configure step reads, from the system's headers
// (Debian's nodejs installs them), and the version of the cache's layout
// (any at least its own). Without them node-gyp fetches the headers from
// the network first.
func nodeGypCache(t *testing.T, template string) {
	t.Helper()
	out, err := exec.Command("node", "-p", "process.version.slice(1)").Output()
	if err != nil {
		t.Fatalf("node -p process.version: %v", err)
	}
	dir := filepath.Join(template, "home", ".cache", "node-gyp", strings.TrimSpace(string(out)))
	if err := os.MkdirAll(filepath.Join(dir, "include", "node"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"common.gypi", "config.gypi"} {
		b, err := os.ReadFile(filepath.Join("/usr/include/node", f))
		if err != nil {
			tooltest.Missing(t, "node's headers are not in /usr/include/node ("+err.Error()+"), without which node-gyp fetches them from the network", tooltest.NodeJS+" with its headers (Debian's nodejs has them)")
		}
		if err := os.WriteFile(filepath.Join(dir, "include", "node", f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "installVersion"), []byte("99\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// canaryRound79Kustomize is redteam66's attack on kustomize's helm: with
// --enable-helm and a kustomization whose helmCharts name a chart (the
// project's deploy/), kubectl kustomize runs the program --helm-command
// names as helm, with words of its own (version -c --short first), so sh
// or bash runs the file ./version the line wrote. The gate judged the
// option's value as a program run alone: real kubectl 1.32 removed the
// canary with each line, which "allow bash" allowed.
var canaryRound79Kustomize = map[string][]string{
	"6-kustomize-helm-command": {
		`printf 'rm -f c\n' > version; kubectl kustomize --enable-helm --helm-command=sh deploy`,
		`printf 'rm -f c\n' > version; kubectl kustomize deploy --enable-helm --helm-command bash`,
		`printf 'rm -f c\n' > version && kubectl kustomize --enable-helm --helm-command=sh deploy > out.yaml`,
		`mkdir k; printf 'helmCharts:\n- name: x\n  version: 1.0.0\n  repo: https://example.invalid\n' > k/kustomization.yaml; printf 'rm -f c\n' > version; kubectl kustomize --enable-helm --helm-command=sh k`,
	},
}

func TestCanaryRound79Kustomize(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "kubectl")
	template := canaryTemplate(t)
	kz := "helmCharts:\n- name: x\n  version: 1.0.0\n  repo: https://example.invalid\n"
	if err := os.MkdirAll(filepath.Join(template, "work", "deploy"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(template, "work", "deploy", "kustomization.yaml"), []byte(kz), 0o644); err != nil {
		t.Fatal(err)
	}
	checkCanaryRoundIn(t, template, canaryRound79Kustomize)
	checkOrdinary(t, template, []string{`kubectl kustomize deploy`, `kubectl kustomize deploy > out.yaml`,
		`kubectl kustomize --enable-helm deploy`}, nil)
}

// canaryRound79Dlx is redteam66's attack on the runners' subcommands
// after options: pnpm dlx fetches a package from the registry and runs
// it, which the gate knew only when dlx came first; pnpm -s dlx (or
// --reporter=silent, --silent) was taken for a script of the project's.
// Real pnpm 10 fetched rimraf and removed the canary with each line, which
// "allow bash" allowed. The lines need the npm registry.
var canaryRound79Dlx = map[string][]string{
	"7-runner-after-options": {
		`pnpm -s dlx rimraf@5.0.10 c`,
		`pnpm --silent dlx rimraf@5.0.10 c`,
		`pnpm --reporter silent dlx rimraf@5.0.10 c`,
	},
}

func TestCanaryRound79Dlx(t *testing.T) {
	t.Parallel()
	tooltest.Long(t, "runs pnpm dlx")
	tooltest.Need(t, tooltest.NodeJS, "pnpm", "npm")
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "npm", "view", "rimraf@5.0.10", "version").CombinedOutput(); err != nil {
		t.Skipf("the npm registry is not reachable (npm view: %v: %s)", err, out)
	}
	template := packageTemplate(t, "pnpm")
	checkCanaryRoundIn(t, template, canaryRound79Dlx)
	checkOrdinary(t, template, []string{`pnpm -s test`, `pnpm --silent run build`, `pnpm --filter web test`, `pnpm -r test`}, nil)
}

// canaryRound79Ctags is redteam66's attack on ctags' option files: a
// cloned project's .ctags.d/x.ctags (or one an earlier call wrote, as
// writing in the workdir is allowed) saying -f../home/.profile makes ctags
// write its tag file there. Real universal ctags created the home's
// .profile with each line, which "allow bash" allowed (ctags refuses to
// overwrite a file that is no tag file, but makes a new one).
var canaryRound79Ctags = map[string][]string{
	"8-ctags-option-files": {
		`ctags README`,
		`ctags -R sub`,
		`ctags --options=proj.ctags README`,
	},
}

func TestCanaryRound79Ctags(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "ctags")
	template := canaryTemplate(t)
	for name, body := range map[string]string{
		"work/.ctags.d/x.ctags": "--exclude=node_modules\n-f../home/.profile\n",
		"work/proj.ctags":       "-o../home/.profile\n",
	} {
		p := filepath.Join(template, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkCanaryRoundIn(t, template, canaryRound79Ctags)

	// A project whose option files only choose what is tagged stays
	// allowed.
	ordinary := canaryTemplate(t)
	p := filepath.Join(ordinary, "work", ".ctags.d", "x.ctags")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("# project options\n--exclude=node_modules\n--languages=Go,Python\n--kinds-Go=+p\n-R\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkOrdinary(t, ordinary, []string{`ctags README`, `ctags -R sub`, `cd sub && ctags -R`}, nil)
}

// canaryRound79A2ps is redteam66's attack on a2ps's settings file: a
// cloned project's .a2psrc (or one an earlier call wrote) whose
// FileCommand, the program a2ps runs on each input to tell its type,
// removes the canary. Real a2ps removed it with each line, which "allow
// bash" allowed.
var canaryRound79A2ps = map[string][]string{
	"9-a2ps-settings": {
		`a2ps -q README -o out.ps`,
		`a2ps -2 -o o.ps README`,
		`printf 'x\n' > t.txt; a2ps -q -o t.ps t.txt`,
	},
}

func TestCanaryRound79A2ps(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "a2ps", "file")
	template := canaryTemplate(t)
	if err := os.WriteFile(filepath.Join(template, "work", ".a2psrc"), []byte("# the project's a2ps settings\nFileCommand: rm -f c; file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkCanaryRoundIn(t, template, canaryRound79A2ps)

	// Without settings, or with comments only, a2ps stays allowed.
	ordinary := canaryTemplate(t)
	if err := os.WriteFile(filepath.Join(ordinary, "work", ".a2psrc"), []byte("# no settings\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkOrdinary(t, ordinary, []string{`a2ps -q README -o out.ps`, `a2ps -2 -o o.ps README`}, nil)
}
