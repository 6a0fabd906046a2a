package shellscan

import "strings"

// bun falls back on the programs of PATH (redteam66): bun run NAME runs
// the script NAME of package.json, else the program NAME of
// node_modules/.bin, else the one PATH finds (real bun 1.4.5 ran bun run
// rm -f c and bun run node -e CODE), and bun exec runs its words as a
// command of Bun's shell (it ran bun exec 'rm -f c'). The program named
// is judged as the command it would be on the line; a script of that
// name (the project's own) is judged as packageScripts judges the
// scripts. (pnpm NAME, which runs pnpm exec NAME when NAME is no script,
// was already judged so.)

// nodeGypFiles are the files node-gyp reads as code: npm, pnpm, yarn and
// bun install (and rebuild) a package whose package.json has no install
// or preinstall script but that has a binding.gyp with node-gyp rebuild,
// and gyp runs the commands of its <!(…) and <!@(…) expansions (and of
// its actions) as it reads it and the .gypi files it includes: real npm
// 11 and pnpm 10 removed the canary with printf … > binding.gyp; npm
// install, given the node headers node-gyp keeps in the home's cache
// (redteam66).
var nodeGypFiles = []string{"binding.gyp", "*.gyp", "*.gypi"}

// bunPkgWrites are the commands of bun pm pkg that write package.json.
var bunPkgWrites = map[string]bool{"set": true, "delete": true, "fix": true}

// bunRunsPath judges the program bun run and bun exec args run from PATH
// (see above) as the command it would be on the line, and records the
// package.json bun pm pkg writes.
func (an *analyzer) bunRunsPath(args []word, depth, chain int) {
	if onlyVersion(args) {
		return
	}
	i := packageRunnerOperand(args)
	if i >= len(args) {
		return
	}
	if args[i].dynamic {
		return
	}
	switch args[i].text {
	case "pm":
		// bun pm pkg set, delete and fix write package.json, whose
		// scripts a later bun run NAME (or bun install's lifecycle
		// scripts) runs: the write is recorded, so that the line that
		// then runs one is judged as running code it wrote, as for
		// printf … > package.json (npm pkg set is judged a configuration
		// write).
		if len(args) > i+2 && args[i+1].text == "pkg" && (args[i+2].dynamic || bunPkgWrites[args[i+2].text]) {
			an.pathArg(word{text: "package.json"}, modeWrite, "bun pm pkg "+args[i+2].text)
		}
	case "exec":
		an.opaque("bun exec runs its words as a command of Bun's shell")
		an.evalScript(args[i+1:], depth)
	case "run":
		// bun run's own options may come before the name or after it,
		// some with a value: each word that may be the name is judged.
		n := 0
		for j := i + 1; j < len(args) && n < maxGuesses; j++ {
			if args[j].dynamic {
				an.opaque("bun run runs a script or a program named by a word only known when the line runs")
				return
			}
			if strings.HasPrefix(args[j].text, "-") {
				continue
			}
			n++
			an.inner(args[j:], depth, chain)
		}
	}
}

// kustomizeHelmCommand returns why kustomize (kubectl kustomize, kubectl
// apply -k …, kustomize build) given --helm-command runs a program the
// analysis does not see, or "": with --enable-helm and a kustomization
// whose helmCharts name a chart, kustomize runs that program as helm with
// words of its own (version -c --short, pull, template …), so sh or bash
// runs the file ./version (real kubectl 1.32 removed the canary with
// printf 'rm -f c' > version; kubectl kustomize --enable-helm
// --helm-command=sh DIR, redteam66). kubectl's flags take no
// abbreviation.
func kustomizeHelmCommand(name string, args []word) string {
	switch name {
	case "kubectl", "kustomize", "oc", "k3s", "microk8s":
	default:
		return ""
	}
	for _, a := range args {
		if a.text == "--" {
			break
		}
		if a.text == "--helm-command" || strings.HasPrefix(a.text, "--helm-command=") {
			return name + " --helm-command runs the program it names as helm, with words of its own (version, pull, template) that the analysis does not see"
		}
	}
	return ""
}

// runnerSubcommand returns the index in args of the subcommand of a runner
// (see runners) that runs a command, if it is one of subs, after the
// tool's own options: pnpm -s dlx rimraf c fetches and runs rimraf as
// pnpm dlx does (real pnpm 10 removed the canary with it, redteam66). A
// word after an option written without '=' may be that option's value
// (pnpm --filter web exec …), so the word after it is looked at too.
func runnerSubcommand(subs []string, args []word) (int, bool) {
	afterOption := false
	for i, a := range args {
		t := a.text
		if t == "--" {
			break
		}
		if strings.HasPrefix(t, "-") && t != "-" && !a.dynamic {
			afterOption = !strings.Contains(t, "=")
			continue
		}
		if contains(subs, t) {
			return i, true
		}
		if !afterOption {
			break
		}
		afterOption = false
	}
	return 0, false
}

// bunInline reports whether bun (or deno) args run inline code: -e CODE,
// -p CODE, --eval, --print (or --eval=CODE, -eCODE), or the command eval,
// before the script or command, after any of bun's own options (real bun
// 1.4.5 removed the canary with bun --bun -e CODE, bun --hot -e, bun -p,
// bun --print, bun -eCODE and bun --eval=CODE, which the gate allowed: it
// looked at the first word only, review66c). A word after an option
// written without '=' may be that option's value (bun --cwd sub -e …),
// so the words after it are looked at too.
func bunInline(args []word) bool {
	afterOption := false
	for _, a := range args {
		t := a.text
		if a.dynamic {
			return true
		}
		if t == "--" {
			return false
		}
		switch {
		case t == "--eval" || t == "--print" || strings.HasPrefix(t, "--eval=") || strings.HasPrefix(t, "--print="):
			return true
		case strings.HasPrefix(t, "--"):
			afterOption = !strings.Contains(t, "=")
			continue
		case strings.HasPrefix(t, "-") && len(t) > 1:
			// -e, -p, and clusters or attached values that hold
			// either (-ie, -eCODE).
			if strings.ContainsAny(t[1:], "ep") {
				return true
			}
			afterOption = len(t) == 2
			continue
		}
		if t == "eval" {
			return true
		}
		if !afterOption {
			return false
		}
		afterOption = false
	}
	return false
}
