package shellscan

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
)

// compilerPathOption is an option of a C compiler driver whose value is a
// directory or a file it takes code from: what it finds there becomes the
// program's code, or runs while it builds.
type compilerPathOption struct {
	opt string
	// kind says what the compiler takes from the value.
	kind string
	// exact: the value is the next word, or follows "=" (a separate
	// option of that name); otherwise it is attached or the next word.
	exact bool
	// headers: a leading "=" or "$SYSROOT" names a directory in the
	// system root.
	headers bool
	// bare: a value without a '/' is a name the compiler looks up in its
	// own directories (-fplugin=annobin), not a path.
	bare bool
}

// compilerPathOptions are gcc's and clang's options naming where code
// comes from, longer names before the names they start with.
var compilerPathOptions = lazy[[]compilerPathOption]{build: func() []compilerPathOption {
	const headers = "headers it includes"
	const sysroot = "the headers and libraries of a system root"
	const specs = "a specs file, which names the programs it runs"
	return []compilerPathOption{
		{opt: "-isystem", kind: headers, headers: true}, {opt: "-iquote", kind: headers, headers: true},
		{opt: "-idirafter", kind: headers, headers: true}, {opt: "-isysroot", kind: sysroot},
		{opt: "-include", kind: "a header it includes first"}, {opt: "-imacros", kind: "a header whose macros it takes"},
		{opt: "-iplugindir=", kind: "plugins it loads"}, {opt: "--sysroot", kind: sysroot, exact: true},
		{opt: "-specs", kind: specs, exact: true}, {opt: "--specs", kind: specs, exact: true},
		{opt: "-fplugin=", kind: "a plugin it loads", bare: true},
		{opt: "-I", kind: headers, headers: true}, {opt: "-L", kind: "libraries it links in"},
		{opt: "-B", kind: "the programs it runs (cc1, as, ld)"},
	}
}}

// compilerDirs records the directories and files a compiler driver takes
// code from (see compilerPathOptions: -I, -L, -isystem, -include, -B,
// --sysroot, -specs=, -fplugin= …, with the value attached or as the next
// word) as paths it reads, and returns its other words, which are checked
// as paths it may write: such a value is only read, and "." or ".." there
// (gcc -I. -c x.c, gcc -Btools/ -c x.c) named a tree it might write. A
// value outside the project and the system's own directories makes the
// line opaque: what the compiler finds there becomes the program's code
// (gcc -I../evil -o t x.c && ./t ran the constructor of a stdio.h there),
// or runs as it builds (cc1 of -B, a plugin). So do the directories its
// linker options name (see compilerLinkerPaths).
func (an *analyzer) compilerDirs(name string, args []word) []word {
	rest := make([]word, 0, len(args))
	c := compilerCheck{an: an, name: name, sysroot: compilerSysroot(args)}
	for i := 0; i < len(args); i++ {
		a := args[i]
		var o compilerPathOption
		found := false
		for _, po := range compilerPathOptions.get() {
			if a.text == po.opt || strings.HasPrefix(a.text, po.opt) && (!po.exact || a.text[len(po.opt)] == '=') {
				o, found = po, true
				break
			}
		}
		if !found || a.special {
			rest = append(rest, a)
			continue
		}
		val := a
		val.text = strings.TrimPrefix(a.text[len(o.opt):], "=")
		if a.text == o.opt {
			if strings.HasSuffix(o.opt, "=") {
				rest = append(rest, a) // -fplugin= alone names nothing
				continue
			}
			if i+1 == len(args) {
				break
			}
			i++
			val = args[i]
		} else if o.headers && strings.HasPrefix(a.text[len(o.opt):], "=") {
			val.text = a.text[len(o.opt):] // -I=dir, in the system root
		}
		an.pathArg(val, modeRead, name)
		if o.bare && !strings.Contains(val.text, "/") && !val.dynamic {
			continue
		}
		text := val.text
		if o.headers {
			if t, ok := strings.CutPrefix(text, "="); ok {
				text = c.sysroot + "/" + t
			} else if t, ok := strings.CutPrefix(text, "$SYSROOT"); ok && !val.dynamic {
				text = c.sysroot + "/" + t
			}
		}
		c.judge(o.opt, val, text, o.kind)
	}
	c.linker(args)
	if c.dropLinker != nil {
		kept := rest[:0]
		for _, a := range rest {
			if !c.dropLinker[a.text] {
				kept = append(kept, a)
			}
		}
		rest = kept
	}
	return an.fromCommandCwd(rest)
}

// fromCommandCwd returns words with each plain relative operand taken
// from the one directory the command runs in, when the line's flow knows
// it and the line went to others (cd sub && gcc -c ../x.c -o ../x.o
// writes the project's x.o, not the one beside the project): the paths a
// compiler may write are otherwise taken from each of the line's
// directories.
func (an *analyzer) fromCommandCwd(words []word) []word {
	cwds := an.commandCwds()
	if an.workdir == "" || len(cwds) != 1 || len(an.a.cwds) == 1 || cwds[0] == "" || path.IsAbs(cwds[0]) {
		return words
	}
	out := make([]word, len(words))
	for i, w := range words {
		out[i] = w
		if w.text != "" && !w.dynamic && !w.pattern && !w.special && w.alts == nil && !strings.HasPrefix(w.text, "-") &&
			!path.IsAbs(w.text) && !strings.HasPrefix(w.text, "~") && !strings.Contains(w.text, "=") {
			// Unclean, so that a link's ".." is resolved where it led.
			out[i].text = strings.TrimSuffix(an.workdir, "/") + "/" + cwds[0] + "/" + w.text
		}
	}
	return out
}

// compilerSysroot returns the system root a compiler driver's words name
// (--sysroot=dir, --sysroot dir, -isysroot dir), "" for /.
func compilerSysroot(args []word) string {
	root := ""
	for i, a := range args {
		switch {
		case strings.HasPrefix(a.text, "--sysroot="):
			root = strings.TrimPrefix(a.text, "--sysroot=")
		case (a.text == "--sysroot" || a.text == "-isysroot") && i+1 < len(args):
			root = args[i+1].text
		case strings.HasPrefix(a.text, "-isysroot"):
			root = strings.TrimPrefix(a.text, "-isysroot")
		}
	}
	return strings.TrimSuffix(root, "/")
}

// compilerCheck judges the paths one compiler driver's words name.
type compilerCheck struct {
	an      *analyzer
	name    string
	sysroot string
	// outside: the line is already opaque for one of them.
	outside bool
	// dropLinker are the -Wl, words whose every part is a linker option
	// naming a directory or file and its value, which judge checked.
	dropLinker map[string]bool
}

// judge makes the line opaque when text, the path val of the option opt
// names (val.text, or the text judged in its place), lies outside the
// project and the system's own directories from one of the line's
// working directories, as written or as the kernel resolves it: a
// symbolic link followed by ".." steps back from where it led (inc/..
// with inc a link to ../evil is the project's parent). A value only known
// when the line runs is outside.
func (c *compilerCheck) judge(opt string, val word, text, kind string) {
	an := c.an
	if c.outside {
		return
	}
	if val.dynamic {
		an.opaque(c.name + " " + opt + " names a path only known when the command runs")
		c.outside = true
		return
	}
	texts := []string{text}
	for _, alt := range val.alts {
		texts = append(texts, alt.text)
	}
	for _, t := range texts {
		for _, cwd := range an.commandCwds() {
			if an.outsidePath(cwd, t) {
				an.opaque(c.name + " " + opt + " names " + clipName(val.text) + ", outside the project, for " + kind)
				c.outside = true
				return
			}
		}
	}
}

// outsidePath reports whether the path p, relative to the candidate
// working directory cwd (see bashAnalysis.cwds), lies outside the project
// and the system's own directories, cleaned as written or resolved
// component by component as the kernel does (see outsideCode).
func (an *analyzer) outsidePath(cwd, p string) bool {
	abs := an.resolve(cwd, p)
	if !path.IsAbs(abs) || an.outsideCode(abs) {
		return true
	}
	raw := p
	if !path.IsAbs(p) {
		raw = an.resolve(cwd, ".") + "/" + p
	}
	real := filepath.ToSlash(pathmatch.Resolve(filepath.FromSlash(raw)))
	return real != abs && an.outsideCode(real)
}

// linkerPathOptions are the linker's options naming a directory or file
// of code, with what it takes from there: -rpath's directories are where
// the built program looks for its shared libraries (libc.so.6 among them)
// when it runs, -dynamic-linker the loader that runs it.
var linkerPathOptions = lazy[map[string]string]{build: func() map[string]string {
	const rpath = "the shared libraries the program loads when it runs"
	const loader = "the loader that runs the program"
	const libs = "libraries it links in"
	return map[string]string{
		"-rpath": rpath, "--rpath": rpath, "-R": rpath, "-rpath-link": libs, "--rpath-link": libs,
		"-dynamic-linker": loader, "--dynamic-linker": loader, "-I": loader, "-L": libs, "--library-path": libs,
	}
}}

// linker judges the directories and files the words a compiler driver
// passes its linker name (-Wl,-rpath,dir, -Wl,--dynamic-linker=x,
// -Xlinker -R -Xlinker dir, -Wl,-L,dir), in the order the linker sees
// them. An rpath's $ORIGIN is the directory of the program the line
// builds (-o, a.out by default); another of the loader's variables is
// only known when the program runs.
func (c *compilerCheck) linker(args []word) {
	type part struct {
		text string
		of   int // index in args
	}
	var parts []part
	out := "a.out"
	for i, a := range args {
		switch {
		case strings.HasPrefix(a.text, "-Wl,"):
			for _, f := range strings.Split(a.text[len("-Wl,"):], ",") {
				parts = append(parts, part{f, i})
			}
		case a.text == "-Xlinker" && i+1 < len(args):
			parts = append(parts, part{args[i+1].text, -1})
		case a.text == "-o" && i+1 < len(args):
			out = args[i+1].text
		case strings.HasPrefix(a.text, "-o") && len(a.text) > 2:
			out = a.text[2:]
		}
	}
	checked := map[int]int{} // parts of a -Wl, word judge saw
	for k := 0; k < len(parts); k++ {
		p := parts[k]
		opt, val, kind := "", "", ""
		if o, v, ok := strings.Cut(p.text, "="); ok && strings.HasPrefix(o, "-") {
			opt, val, kind = o, v, linkerPathOptions.get()[o]
		} else if kind = linkerPathOptions.get()[p.text]; kind != "" && k+1 < len(parts) {
			opt, val = p.text, parts[k+1].text
			if parts[k+1].of == p.of && p.of >= 0 {
				checked[p.of]++
			}
			k++
		} else {
			for _, o := range []string{"-R", "-L", "-I"} {
				if strings.HasPrefix(p.text, o) && len(p.text) > 2 && !strings.HasPrefix(p.text, "-rpath") {
					opt, val, kind = o, p.text[2:], linkerPathOptions.get()[o]
				}
			}
		}
		if kind == "" {
			continue
		}
		if p.of >= 0 {
			checked[p.of]++
		}
		text := val
		if kind == linkerPathOptions.get()["-rpath"] {
			dir := path.Dir(out)
			text = strings.NewReplacer("${ORIGIN}", dir, "$ORIGIN", dir).Replace(val)
			if strings.Contains(text, "$") {
				if !c.outside {
					c.an.opaque(c.name + " " + opt + " names " + clipName(val) + ", a directory the loader expands when the program runs")
					c.outside = true
				}
				continue
			}
			// The loader takes each of an rpath's directories.
			for _, d := range strings.Split(text, ":") {
				c.judge(opt, word{text: val}, d, kind)
			}
			continue
		}
		c.judge(opt, word{text: val}, text, kind)
	}
	// A -Wl, word made only of such options and values names nothing the
	// linker writes: it is left out of the words checked as writes.
	for i, n := range checked {
		if n == len(strings.Split(args[i].text[len("-Wl,"):], ",")) {
			if c.dropLinker == nil {
				c.dropLinker = map[string]bool{}
			}
			c.dropLinker[args[i].text] = true
		}
	}
}
