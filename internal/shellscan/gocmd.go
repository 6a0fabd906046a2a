package shellscan

import (
	"path"
	"slices"
	"strings"
)

// goFlag is how the go command (or gofmt) takes one of its flags.
type goFlag int

const (
	goBool    goFlag = iota + 1 // takes no value unless attached (-race, -json=Field)
	goValue                     // takes a value it does not write to (-run, -tags, -pgo file)
	goOutput                    // takes a file it writes (-o, -coverprofile)
	goOutDir                    // takes a directory it writes in (-outputdir, -pkgdir)
	goProfile                   // a profile it writes, under -outputdir if relative
	goToolArg                   // options it passes to the compiler, linker or assembler
)

// goFlags are the flags of go test, vet, list and build that the analysis
// models, with how each is taken. A flag not listed leaves the command to
// the rule for commands the analysis does not model.
var goFlags = lazy[map[string]goFlag]{build: func() map[string]goFlag {
	return map[string]goFlag{
		"a": goBool, "n": goBool, "x": goBool, "v": goBool, "race": goBool, "msan": goBool, "asan": goBool,
		"cover": goBool, "trimpath": goBool, "work": goBool, "linkshared": goBool, "short": goBool,
		"failfast": goBool, "benchmem": goBool, "json": goBool, "e": goBool, "m": goBool, "u": goBool,
		"deps": goBool, "test": goBool, "find": goBool, "export": goBool, "compiled": goBool,
		"retracted": goBool, "versions": goBool, "fullpath": goBool, "modcacherw": goBool,
		// -buildvcs takes true, false or auto, attached, and stands alone
		// for true: the word after it is never its value.
		"buildvcs": goBool,
		"p":        goValue, "tags": goValue, "mod": goValue, "buildmode": goValue,
		"memprofilerate": goValue, "blockprofilerate": goValue, "mutexprofilefraction": goValue,
		"compiler": goValue, "installsuffix": goValue, "run": goValue, "skip": goValue, "bench": goValue,
		"benchtime": goValue, "count": goValue, "cpu": goValue, "parallel": goValue, "timeout": goValue,
		"shuffle": goValue, "covermode": goValue, "coverpkg": goValue, "fuzz": goValue, "fuzztime": goValue,
		"fuzzminimizetime": goValue, "list": goValue, "vet": goValue, "f": goValue, "c": goValue,
		"pgo": goValue, "overlay": goValue, "reuse": goValue,
		"o": goOutput, "modfile": goOutput, "coverprofile": goProfile, "cpuprofile": goProfile,
		"memprofile": goProfile, "blockprofile": goProfile, "mutexprofile": goProfile, "trace": goProfile,
		"outputdir": goOutDir, "pkgdir": goOutDir,
		"ldflags": goToolArg, "gcflags": goToolArg, "asmflags": goToolArg, "gccgoflags": goToolArg,
	}
}}

// goKeepsTestBinary reports whether flag is a profile flag for which go
// test keeps the test binary in its working directory, as -c would.
func goKeepsTestBinary(flag string) bool {
	switch flag {
	case "cpuprofile", "memprofile", "blockprofile", "mutexprofile":
		return true
	}
	return false
}

// goModel records what go test, vet, list, build -o, run, fmt and
// generate read and write, so that their package operands are reads (go
// test . reads the package in the working directory; it writes nothing
// there). go generate runs the commands of its packages' //go:generate
// lines, as make runs a Makefile's recipes: the code of the packages'
// directories (see packageDirs), which must not be what the line wrote. The
// arguments go run passes to the program are words of a command the
// analysis does not model; go fmt writes the Go files of its packages.
// It reports false, leaving the command to the rule for commands the
// analysis does not model, for any other subcommand, a flag it does not model (-C, the
// test binary's -test.* and -args, vet's analyzer flags), a word only
// known when the line runs, go test -c and go build without -o, which
// write a file named after the package into the working directory, and
// go fmt of a pattern (./...). The flags that run programs (-exec,
// -toolexec, -vettool) were made opaque by goCommand.
func (an *analyzer) goModel(name string, args []word) bool {
	if len(args) == 0 || args[0].dynamic {
		return false
	}
	if at := goSubcommandAt(args); at > 0 {
		// go -C dir build runs go build in dir: go -C sub build cmd/pack
		// writes sub/pack (review67g: with go 1.26, go -C sub build cmd/pack &&
		// hyperfine -N -r1 'sub/pack c c' wrote over the canary). The
		// directory is a candidate working directory, as after cd dir,
		// so that the paths the subcommand names are taken from it too.
		dir := args[at-1]
		if _, v, ok := strings.Cut(dir.text, "="); ok && strings.HasPrefix(dir.text, "-") {
			dir.text = v
		}
		if at >= len(args) || args[at].dynamic || !goWritesProgram(args[at].text, args[at+1:]) && !goModelled(args[at].text) {
			return false
		}
		if dir.dynamic || dir.special || dir.pattern {
			an.opaque(name + " -C builds in another directory, whose program the analysis does not follow")
			return true
		}
		an.cd(name+" -C", []word{dir})
		return an.goModel(name, args[at:])
	}
	sub := args[0].text
	if !goModelled(sub) {
		return false
	}
	what := name + " " + sub
	type out struct {
		w    word
		flag string
		kind goFlag
	}
	var outs []out
	var tool, ops, progArgs []word
	outputDir, output, compileOnly, keepBinary := "", false, false, false
	if goWritesProgram(sub, args[1:]) && goHasFlag(args[1:], "C") {
		// go build -C dir writes its program into dir (-o's too, taken
		// from there), where a command the line hands it to may run it.
		an.opaque(what + " -C builds in another directory, whose program the analysis does not follow")
		return true
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a.dynamic || a.special {
			return false
		}
		if a.text == "--" && sub == "build" {
			// The flags end: what follows are packages or files (go
			// build -o t -- cmd/pack).
			for _, op := range args[i+1:] {
				if op.dynamic || op.special {
					return false
				}
			}
			ops = append(ops, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a.text, "-") || a.text == "-" {
			if sub == "run" {
				// go run [flags] package [arguments] or x.go y.go
				// [arguments]: what follows is the program's.
				j := i + 1
				for strings.HasSuffix(a.text, ".go") && j < len(args) && strings.HasSuffix(args[j].text, ".go") && !args[j].dynamic {
					j++
				}
				ops, progArgs = args[i:j], args[j:]
				break
			}
			ops = append(ops, a)
			continue
		}
		flag, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a.text, "-"), "-"), "=")
		kind, ok := goFlags.get()[flag]
		if !ok {
			return false
		}
		if sub == "test" && goListOnly(flag) {
			// go test passes a flag it does not know to the test binary
			// and takes the words after it as the binary's too: go test
			// -e /w/x tests the package in the working directory.
			return false
		}
		if flag == "c" && sub == "test" {
			kind = goBool // go test -c compiles the test binary; vet -c=N takes a number
			// Any value strconv.ParseBool takes as true (-c=1, -c=T)
			// counts, and the last -c.
			compileOnly = !hasVal || !goFalse(val)
		}
		if kind == goBool {
			continue
		}
		v := word{text: val, pattern: a.pattern}
		if !hasVal {
			// A value that looks like an option is left alone (go's flag
			// package takes it as the value; a reader may not).
			if i+1 == len(args) || args[i+1].dynamic || args[i+1].special || strings.HasPrefix(args[i+1].text, "-") {
				return false
			}
			i++
			v = args[i]
		}
		switch kind {
		case goToolArg:
			tool = append(tool, word{text: "-" + flag + "=" + v.text})
		case goOutput, goOutDir, goProfile:
			if v.pattern {
				return false
			}
			if flag == "o" {
				// The last -o counts (go build -o x -o= has none).
				output = v.text != ""
			}
			if v.text == "" {
				// An empty value is no value: go build -o= writes the
				// binary it names after the package or the first file
				// into the working directory, as without -o.
				continue
			}
			outs = append(outs, out{v, flag, kind})
			keepBinary = keepBinary || goKeepsTestBinary(flag)
			if kind == goOutDir && flag == "outputdir" {
				outputDir = v.text
			}
		}
	}
	switch {
	case sub == "build" && !output, sub == "test" && compileOnly && !output:
		an.goDefaultOutputs(sub, ops, what)
		return false
	case sub == "run" && len(ops) == 0:
		return false
	case sub == "run" && strings.Contains(ops[0].text, "@"):
		// go run example.com/tool@latest fetches a program and runs it,
		// as npx does.
		an.opaque(what + " runs a program it fetches: " + clipName(ops[0].text))
		return true
	case sub == "fmt":
		// go fmt rewrites the Go files of each package it is given.
		if len(outs) > 0 || len(tool) > 0 || slices.ContainsFunc(ops, func(w word) bool { return strings.Contains(w.text, "...") || w.pattern }) {
			return false
		}
		if len(ops) == 0 {
			ops = []word{{text: "."}}
		}
		for _, op := range ops {
			if strings.HasSuffix(op.text, ".go") {
				an.addAccess(op, modeWrite, what, false)
			} else {
				an.addAccess(word{text: path.Join(op.text, "*.go"), pattern: true}, modeWrite, what, false)
			}
		}
		return true
	}
	if sub == "test" && !compileOnly || sub == "run" || sub == "generate" {
		for _, op := range ops {
			if !goLocalPackage(op.text) {
				// go test example.com/lib, std, all, ..., go run
				// example.com/tool: the packages lie where the module
				// graph puts them (the module cache, a directory a
				// replace names, GOROOT), and their code runs there.
				an.opaque(what + " runs the code of packages named by import path, which may lie outside the workdir: " + op.text)
				return true
			}
		}
	}
	if sub == "test" && keepBinary && !output {
		// go test -cpuprofile (-memprofile, -blockprofile,
		// -mutexprofile) keeps the test binary, named after the package,
		// in the working directory (not -outputdir): it is recorded
		// under a name of its own there.
		an.addAccess(word{text: "pkg.test"}, modeWrite, what, false)
	}
	for _, o := range outs {
		// -o may name a directory, which the file is written into. The
		// program or test binary written there is executable: handed to
		// a command the analysis does not model (hyperfine './t'), it is
		// a program the line wrote, as it is run by name (gatecred67).
		from := len(an.a.accesses)
		an.addAccess(o.w, modeWrite, what, o.kind != goProfile)
		if o.flag == "o" && (sub == "build" || sub == "test") {
			built := an.goBuiltHere(ops)
			for i := from; i < len(an.a.accesses); i++ {
				an.a.accesses[i].executable = true
				an.a.accesses[i].built = built
			}
		}
		// -modfile=x.mod writes x.sum beside it; -buildmode=c-shared and
		// c-archive write a C header beside -o's file.
		if base := strings.TrimSuffix(o.w.text, path.Ext(o.w.text)); base != "" && o.flag == "modfile" {
			an.addAccess(word{text: base + ".sum", pattern: o.w.pattern}, modeWrite, what, false)
		} else if base != "" && o.flag == "o" && o.w.text != "/dev/null" {
			an.addAccess(word{text: base + ".h", pattern: o.w.pattern}, modeWrite, what, false)
		}
		if o.kind == goProfile && outputDir != "" && !path.IsAbs(o.w.text) {
			an.addAccess(word{text: path.Join(outputDir, o.w.text)}, modeWrite, what, false)
		}
	}
	// What the compiler, linker or assembler is told is checked as the
	// words of a command the analysis does not model, nested values
	// included (-ldflags=-o=x).
	an.unknownArgs(tool)
	for _, op := range ops {
		an.addAccess(op, modeRead, what, false)
	}
	an.packageDirs(ops)
	// The program go run builds may write any file it is given.
	an.unknownArgs(progArgs)
	return true
}

// packageDirs records the directories of the packages a go subcommand is
// given (the one in the working directory when there are none) as
// directories whose code it builds or runs: go test runs the test binary
// there, and building runs cgo's compiler on the C files there. A pattern's directory
// is what precedes its "/..."; an import path (example.com/m/x, std) is
// recorded as written, which places it in the working directory.
func (an *analyzer) packageDirs(ops []word) {
	if len(ops) == 0 {
		ops = []word{{text: "."}}
	}
	for _, op := range ops {
		dir := op.text
		if dir == "..." {
			dir = "."
		}
		if d, ok := strings.CutSuffix(dir, "/..."); ok {
			dir = d
			if strings.Trim(d, "/") == "" {
				dir = "/" // go test /... is every package under the root
			}
		}
		if strings.HasSuffix(dir, ".go") {
			dir = path.Dir(dir)
		}
		if len(an.a.accesses) >= maxAccessPaths {
			an.opaque("the command touches too many paths to check")
			return
		}
		an.a.accesses = append(an.a.accesses, access{mode: modeRead, path: dir, pattern: op.pattern, runs: true})
		// The code it runs there is that of the files the line wrote
		// before this command; the outputs the command itself was seen
		// to write (go test -o x.test) are not among them.
		if len(an.codeUses) >= maxCodeUses {
			an.opaque("the line runs code from too many files to check")
			return
		}
		an.codeUses = append(an.codeUses, codeUse{prog: "the command", path: dir, names: dirCodeFiles, from: an.callFrom})
	}
}

// goModelled reports whether goModel models the go subcommand sub. With
// -C, each runs in the directory it names, whose code it builds, runs or
// generates from: go -C tools generate runs tools/gen.go's //go:generate
// lines, which the line may have written (redteam130).
func goModelled(sub string) bool {
	switch sub {
	case "test", "vet", "list", "build", "run", "fmt", "generate":
		return true
	}
	return false
}

// goWritesProgram reports whether the go subcommand sub, given args,
// writes a program: go build, and go test with -c or -o.
func goWritesProgram(sub string, args []word) bool {
	return sub == "build" || sub == "test" && (goHasFlag(args, "c") || goHasFlag(args, "o"))
}

// goHasFlag reports whether the flags args of a go subcommand, up to
// "--", hold the flag name (-name, --name, with or without =value). For
// C: go takes -C only as the first flag, changes to the directory it
// names, and go build or go test -c writes its program there.
func goHasFlag(args []word, name string) bool {
	for _, a := range args {
		if a.text == "--" {
			return false
		}
		if f, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a.text, "-"), "-"), "="); strings.HasPrefix(a.text, "-") && f == name {
			return true
		}
	}
	return false
}

// goLocalPackage reports whether a package operand of the go command
// names a directory (".", "./x", "../x/...", "/abs") or Go files, rather
// than an import path or a pattern of import paths (example.com/m/x,
// std, all, "...").
func goLocalPackage(op string) bool {
	return op == "." || op == ".." || strings.HasPrefix(op, "./") || strings.HasPrefix(op, "../") ||
		path.IsAbs(op) || strings.HasSuffix(op, ".go")
}

// goListOnly reports whether flag is one of go list's own flags, which go
// test does not know.
func goListOnly(flag string) bool {
	switch flag {
	case "e", "m", "u", "f", "deps", "test", "find", "export", "compiled", "retracted", "versions", "reuse":
		return true
	}
	return false
}

// goFalse reports whether a boolean flag's value is one strconv.ParseBool
// takes as false.
func goFalse(val string) bool {
	switch val {
	case "0", "f", "F", "false", "FALSE", "False":
		return true
	}
	return false
}

// goBuiltHere reports whether the packages ops of a go build (none: the
// one in the working directory) are the workdir's own, named by a path
// beneath the directory the line started in (., ./cmd/app, main.go), so
// that the program built of them is made of code whose use the analysis
// checks (packageDirs), as a C compiler's is of its sources: go build -o
// app . && ./app --help runs the project's program, as go run . does
// (review67g). A package named by import path (cmd/pack of the standard
// library), a path above or outside the workdir, and a build after a cd
// are not.
func (an *analyzer) goBuiltHere(ops []word) bool {
	if an.cwdChanged || an.cwdUnknown {
		return false
	}
	for _, op := range ops {
		t := op.text
		if op.dynamic || op.special || op.pattern || !goLocalPackage(t) || path.IsAbs(t) ||
			slices.Contains(strings.Split(path.Clean(t), "/"), "..") {
			return false
		}
	}
	return true
}
