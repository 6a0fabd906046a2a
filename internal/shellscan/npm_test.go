package shellscan

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// TestNpmCommandResolvesAsNpm checks npmCommand against the installed
// npm's own resolution of command words (lib/utils/cmd-list.js): every
// prefix of every command and alias name, camelCase spellings and words
// npm knows nothing of.
func TestNpmCommandResolvesAsNpm(t *testing.T) {
	tooltest.Need(t, tooltest.NodeJS, "npm")
	npmPath, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(npmPath, "root", "-g").Output()
	if err != nil {
		tooltest.Missing(t, fmt.Sprintf("npm root -g: %v", err), tooltest.NodeJS)
	}
	list := filepath.Join(strings.TrimSpace(string(out)), "npm", "lib", "utils", "cmd-list.js")
	if _, err := os.Stat(list); err != nil {
		tooltest.Missing(t, fmt.Sprintf("npm's command list: %v", err), tooltest.NodeJS)
	}
	words := map[string]bool{"": true, "runScript": true, "installTest": true, "installCiTest": true, "RUN": true,
		"xyz": true, "exE": true, "cOnfig": true, "Exec": true, "run-": true, "install-c": true, "-x": true}
	for _, n := range npmNames.get() {
		for i := 1; i <= len(n); i++ {
			words[n[:i]] = true
		}
	}
	var ws []string
	for w := range words {
		ws = append(ws, w)
	}
	in, _ := json.Marshal(ws)
	script := `const {deref, commands, aliases} = require(process.argv[1]);
const ws = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = {};
for (const w of ws) out[w] = deref(w) || '';
console.log(JSON.stringify({out, commands, aliases}));`
	cmd := exec.Command("node", "-e", script, list)
	cmd.Stdin = strings.NewReader(string(in))
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got struct {
		Out      map[string]string
		Commands []string
		Aliases  map[string]string
	}
	if err := json.Unmarshal(res, &got); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Commands, " ") != strings.Join(npmCommands, " ") || len(got.Aliases) != len(npmAliases.get()) {
		t.Errorf("npm's commands or aliases differ from the model's: %q, %d aliases", got.Commands, len(got.Aliases))
	}
	for a, c := range got.Aliases {
		if npmAliases.get()[a] != c {
			t.Errorf("npm alias %q is %q, the model has %q", a, c, npmAliases.get()[a])
		}
	}
	for w, want := range got.Out {
		if g := npmCommand(w); g != want {
			t.Errorf("npmCommand(%q) = %q, npm resolves it to %q", w, g, want)
		}
	}
}

// Round 40: each spelling of an npm command is decided as the command:
// npm exe and npm x are npm exec, npm conf is npm config, options before
// the command do not hide it.
func TestNpmCommandSpellings(t *testing.T) {
	for _, line := range []string{
		"npm exe -- touch zz", "npm exe -c 'touch zz'", "npm --silent x -- touch zz", "npm -s exec -c 'touch zz'",
		"npm -- x -c 'touch zz'", "npm --ignore-scripts exe -c 'touch zz'", "npm explo x -- ls",
		"printf x > y && chmod +x y && npm ed x --editor=./y", "npm conf set script-shell=./x", "npm confi set x=y", "npm -g c set x=y",
		"npm conf --location=user set x=y", "npm init x", "npm create vite", "npm innit x", "npm cr x",
		"npm --registry http://x exe -c ls", "npm --foo exe -c ls", "npm -Q exe -c ls", "npm -g true exe -c ls",
		"npm -C sub exe -c ls",
		// The user's configuration and the global prefix lie outside
		// the workdir.
		"npm config del ignore-scripts", "npm c del ignore-scripts", "npm logout", "npm login", "npm adduser",
		"npm link", "npm ln", "npm link ../lib", "npm -g rm npm", "npm uninstall -g npm", "npm rm --location=global x",
		"npm --global update", "npm rebuild -g", "npm unlink -g x", "npm i -gf x", "npm i --glob x", "npm i --loc global x",
		"npm install --global=true x", "npm -g true rm x", "npm un -Dg x",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"npm test", "npm t", "npm tst", "npm run build", "npm rum build", "npm urn build", "npm run-script build",
		"npm runScript build", "npm install", "npm i", "npm ci", "npm ls", "npm list", "npm --silent run build",
		"npm -s test", "npm --prefix sub run build", "npm -w pkg test", "npm --workspace=pkg run lint",
		"npm init -y", "npm init", "npm view lodash", "npm outdated", "npm audit", "npm conf get registry",
		"npm config list", "npm --version", "npm -v", "npm pack --dry-run", "npm exp x", "npm execute x",
		"npm exEc x", "npm ls -g", "npm prefix -g", "npm root --global", "npm outdated -g", "npm i --global=false x",
		"npm run build -- -g", "npm config list -g", "npm install --lockfile-version 3", "npm ci --loglevel=error",
		"npm i --global-style",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
	// A deny rule on a command meets its other spellings.
	for line, want := range map[string]string{
		"npm pub": "npm publish", "npm --silent publish": "npm publish --silent", "npm unp x": "npm unpublish x",
		"/usr/bin/npm pub": "npm publish",
	} {
		a := analyzeBash(line, "/home/u", "/w")
		if len(a.units) == 0 || !contains(a.units[0].others, want) {
			t.Errorf("%q: units %+v, want the spelling %q", line, a.units, want)
		}
	}
}
