package shellscan

import (
	"slices"
	"strings"
)

// JavaScript's package managers run a program by its name as well as by
// a script of package.json: pnpm tsc, yarn tsc and bun run tsc run the
// script named tsc or else node_modules/.bin/tsc (pnpm and yarn any
// program PATH finds), npm run build the script build, which may run tsc.
// Real pnpm tsc, bun run tsc and npm run build (script "tsc") wrote the
// outDir of a tsconfig.json the line wrote, in the home (gate60). The
// program the manager starts reads the settings files it reads when run
// by itself (see settingsCodeUses), so a line that writes one and then
// runs it through the manager runs code of its own.

// scriptToolPrograms are the programs of settingsCode a package.json
// script commonly runs, installed from npm: their settings files count
// for any command of a package manager that runs scripts (npm run build,
// npm test, npm install's prepare), whose script the analysis does not
// see.
var scriptToolPrograms = lazy[[]string]{build: func() []string {
	var out []string
	for name, files := range settingsCode.get() {
		if name == "tsc" || name == "vue-tsc" || name == "swc" || name == "dprint" || slices.Contains(files, "package.json") {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}}

// scriptToolFiles returns the settings files of scriptToolPrograms, each
// once.
var scriptToolFiles = lazy[[]string]{build: func() []string {
	seen := map[string]bool{}
	var out []string
	for _, name := range scriptToolPrograms.get() {
		for _, f := range settingsCode.get()[name] {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}}

// packageRunnerOperand returns the index in args of the first word after
// the options a package runner (npm, pnpm, yarn, bun) takes before its
// command or program: words that begin with "-", each with its value when
// packageRunnerValued says it takes one, up to a word only known at run
// time.
func packageRunnerOperand(args []word) int {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].text, "-") && !args[i].dynamic {
		if packageRunnerValued(args[i].text) {
			i++
		}
		i++
	}
	return i
}

// packageRunnerTarget records, for npm, pnpm, yarn and bun, the code the
// program they start reads: the settings files of the tools a script runs
// (scriptToolFiles), and those of the program a word names (pnpm tsc, yarn
// run tsc, bun run tsc, npm run tsc: the script of that name, or the
// program), judged as that program run with the words after it. npm's
// args come with its command first (see npmArgs).
func (an *analyzer) packageRunnerTarget(name string, args []word) {
	if onlyVersion(args) {
		return
	}
	i := packageRunnerOperand(args)
	if i < len(args) && !args[i].dynamic && (name == "npm" && npmGlobalReads.get()[args[i].text] || packageReads.get()[args[i].text]) {
		return
	}
	an.usesCode(name+" (a script of package.json)", "/", scriptToolFiles.get()...)
	an.packageScripts(name, args)
	if i >= len(args) {
		return
	}
	switch t := args[i].text; {
	case t == "run" || t == "run-script":
		i++
		for i < len(args) && strings.HasPrefix(args[i].text, "-") && !args[i].dynamic {
			i++
		}
	case name == "npm":
		// npm runs no program by its name but through run (and exec,
		// which is opaque).
		return
	}
	if i >= len(args) || args[i].dynamic {
		return
	}
	target := programName(foldCase(args[i].text))
	rest := args[i+1:]
	if target == "make" || target == "gmake" {
		an.usesCode(target, "/", "GNUmakefile", "makefile", "Makefile", "*.mk")
	}
	if names, ok := projectFiles.get()[target]; ok {
		an.usesCode(target, "/", names...)
	}
	if names, ok := rcCodeFiles.get()[target]; ok {
		an.usesCode(target, "/", names...)
	}
	if names, ok := runnerCode.get()[target]; ok {
		an.usesCode(target, "/", names...)
	}
	an.settingsCodeUses(target, rest)
}

// packageRunnerValued reports whether the option t of a package manager,
// before its command, takes the next word as its value (pnpm -C dir,
// --filter pkg, yarn --cwd dir).
func packageRunnerValued(t string) bool {
	switch t {
	case "-C", "--dir", "--filter", "-F", "--cwd", "--prefix", "--reporter", "--loglevel",
		"--registry", "--cache", "--cache-folder", "--modules-folder":
		return true
	}
	return false
}

// packageReads are the commands of pnpm, yarn and bun that only show the
// project's packages or the registry's data and run no script.
var packageReads = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`list ls ll la outdated view info show why explain root bin help licenses`) {
		m[n] = true
	}
	return m
}}
