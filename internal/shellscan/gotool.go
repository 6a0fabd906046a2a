package shellscan

import (
	"strings"
)

// goDistTools are the tools of the Go distribution, which go tool runs
// from GOROOT's pkg/tool directory; any other name is a tool of the
// module's tool directives.
var goDistTools = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"addr2line", "asm", "buildid", "cgo", "compile", "covdata", "cover", "dist",
		"distpack", "doc", "fix", "link", "nm", "objdump", "pack", "pprof", "preprofile", "test2json",
		"trace", "vet"} {
		m[n] = true
	}
	return m
}}

// goDistShows are the commands of go tool dist that only print.
var goDistShows = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"list": true, "env": true, "version": true, "banner": true}
}}

// goTool returns why go tool args (args after "tool") runs code the
// analysis does not see or writes outside the workdir, or "": a tool that
// is not the distribution's is one a tool directive of go.mod names (go
// mod edit -tool, go get -tool add them), built from the package it
// names, which may be one the line wrote or one fetched into the module
// cache, as go run example.com/x runs; go tool dist, but for the commands
// that print, and distpack build, delete and test the files of GOROOT.
func goTool(name string, args []word) string {
	i := 0
	for i < len(args) && !args[i].dynamic && strings.HasPrefix(args[i].text, "-") {
		i++
	}
	if i == len(args) {
		return "" // go tool, go tool -n: the list of tools
	}
	if args[i].dynamic {
		return name + " tool runs a tool named by a word only known when the line runs"
	}
	tool := args[i].text
	switch {
	case !goDistTools.get()[tool]:
		return name + " tool " + clipName(tool) + " runs a tool go.mod names, built from a package that may be one the line wrote or fetched"
	case hasAny(args[:i], "-n"):
		return ""
	case tool == "distpack":
		return name + " tool distpack writes the distribution's archives into GOROOT"
	case tool == "dist":
		if i+1 < len(args) && goDistShows.get()[args[i+1].text] {
			return ""
		}
		if i+1 == len(args) {
			return "" // its usage
		}
		return name + " tool dist builds, deletes or tests the files of GOROOT"
	}
	return ""
}

// goToolArgs returns the words after go's tool subcommand, skipping the
// -C DIR go takes before it, or false when the subcommand is not tool.
func goToolArgs(args []word) ([]word, bool) {
	i := goSubcommandAt(args)
	if i < len(args) && args[i].text == "tool" {
		return args[i+1:], true
	}
	return nil, false
}

// packageCreator returns why pnpm, yarn or bun args runs a package it
// fetches, or "": their create NAME runs the package create-NAME, as npm
// init NAME does, and bun x runs one as bunx does.
func packageCreator(name string, args []word) string {
	if name != "pnpm" && name != "yarn" && name != "bun" {
		return ""
	}
	sub, ok := linkMakerSubcommand(args)
	switch {
	case !ok:
		return ""
	case sub == "":
		return name + " runs a command named by a word only known when the line runs"
	case sub == "create" || name == "bun" && sub == "x":
		return name + " " + sub + " fetches a package and runs it"
	}
	return ""
}
