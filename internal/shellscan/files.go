package shellscan

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
)

// interpreters run code given inline with these options. Perl's -M, -m
// and -d:MOD insert their text into the program ("-MPOSIX;qx(…)").
var interpreters = lazy[map[string]string]{build: func() map[string]string {
	return map[string]string{
		"python": "c", "node": "ep", "nodejs": "ep", "bun": "ep", "perl": "eEMmd", "ruby": "e",
		"php": "rB", "lua": "e", "luajit": "e", "Rscript": "e", "R": "e", "osascript": "e",
		"tclsh": "", "jshell": "", "irb": "", "ghci": "", "julia": "e", "deno": "",
		// erb runs the Ruby of its templates (<%= `cmd` %>): its operands,
		// or its standard input (redteam133).
		"erb": "",
		// Other pythons take -c as python does.
		"pypy": "c", "ipython": "c", "jython": "c", "bpython": "c",
	}
}}

// languageFiles are the base names of the files an interpreter may load
// as code besides its script: the modules a script imports, the package
// manifest that tells node where they are.
var languageFiles = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		// A native extension module (x.so, x.abi3.so, x.cpython-311-….so)
		// is found before x.py, and its constructors run as it loads; the
		// import lines of the .pth files of its site-packages (a venv's) run
		// as it starts.
		// A venv's pyvenv.cfg names the installation (home) whose
		// standard library its python loads: one written to point into
		// the project made .venv/bin/python run the project's os.py
		// (redteam133 tools).
		"python": {"*.py", "*.pyc", "*.so", "*.pth", "pyvenv.cfg"}, "pypy": {"*.py", "*.pyc", "*.so", "*.pth", "pyvenv.cfg"},
		"ipython": {"*.py", "*.pyc", "*.so", "*.pth", "pyvenv.cfg"}, "jython": {"*.py"}, "bpython": {"*.py", "*.pyc", "*.so", "*.pth", "pyvenv.cfg"},
		// A module found by its bare name (require("y"), node -r y) may be
		// any file below node_modules, with no extension (node_modules/y),
		// and npm puts its programs there (node_modules/.bin).
		"node":   {"*.js", "*.mjs", "*.cjs", "*.ts", "*.mts", "*.cts", "*.jsx", "*.tsx", "*.node", "package.json", "node_modules/"},
		"nodejs": {"*.js", "*.mjs", "*.cjs", "*.ts", "*.mts", "*.cts", "*.jsx", "*.tsx", "*.node", "package.json", "node_modules/"},
		// bun also reads bunfig.toml (whose preload runs code before
		// any script or test) and .npmrc (its cache, registry) there.
		"bun":  {"*.js", "*.mjs", "*.cjs", "*.ts", "*.mts", "*.cts", "*.jsx", "*.tsx", "*.node", "package.json", "node_modules/", "bunfig.toml", ".npmrc"},
		"deno": {"*.js", "*.mjs", "*.cjs", "*.ts", "*.mts", "*.cts", "*.jsx", "*.tsx", "package.json", "deno.json", "deno.jsonc", "node_modules/"},
		"perl": {"*.pl", "*.pm", "*.pmc"}, "ruby": {"*.rb", "*.so"}, "irb": {"*.rb", "*.so"}, "erb": {"*.rb", "*.so"}, "php": {"*.php"}, "julia": {"*.jl"},
		"R": {"*.R", "*.r"}, "Rscript": {"*.R", "*.r"}, "jshell": {"*.jsh", "*.java"}, "ghci": {"*.hs"},
	}
}}

// isPython reports whether name is python followed by a version made of
// digits and dots (python3, python3.12), as ^python[0-9.]*$ would, or py,
// the python launcher (py -3 -c … is python3 -c …).
func isPython(name string) bool {
	if name == "py" {
		return true
	}
	v, ok := strings.CutPrefix(name, "python")
	return ok && strings.Trim(v, "0123456789.") == ""
}

// setupInstalls reports whether the words after setup.py hold one of
// setuptools' commands that install: install and develop write the
// python's site-packages and scripts directory (or, by --user, --prefix or
// the settings of ~/.pydistutils.cfg and setup.cfg, elsewhere), and
// easy_install is develop's kin.
func setupInstalls(after []word) bool {
	for _, a := range after {
		switch a.text {
		case "install", "develop", "easy_install", "install_lib", "install_scripts", "install_data",
			"install_headers", "install_egg_info":
			return true
		}
		if a.dynamic {
			return true
		}
	}
	return false
}

// interpreter reports whether name is a language interpreter, and marks
// the line opaque when the interpreter runs inline code or code from its
// standard input.
func (an *analyzer) interpreter(prog, name string, args []word) bool {
	opts, ok := interpreters.get()[name]
	if isPython(name) {
		opts, ok = "c", true
		if script, after, found := pythonScript(args); found && pipScript(script) {
			// python3 /usr/bin/pip install x runs pip in this python.
			if why := an.pipInstall(prog, after); why != "" {
				an.opaque(name + " " + clipName(script) + ": " + why)
			}
		} else if why := rt61PythonScript(script, after); found && why != "" {
			an.opaque(name + " " + why)
		} else if found && path.Base(script) == "setup.py" && setupInstalls(after) {
			an.opaque(name + " setup.py installs into the environment of that python, or where ~/.pydistutils.cfg or setup.cfg say, outside the workdir")
		}
	}
	if !ok {
		switch name {
		case "awk", "gawk", "mawk", "nawk", "busybox-awk":
			an.awk(args)
			return true
		case "sed", "gsed":
			an.sed(args)
			return true
		}
		return false
	}
	if onlyVersion(args) {
		return true
	}
	if name == "perl" {
		// <> (perl -n, -p, and most scripts) opens each operand with the
		// two-argument open, which runs one ending in '|' as a shell
		// command and writes or duplicates one starting with '>' or
		// '&'.
		for _, a := range args {
			if t := strings.TrimSpace(a.text); !strings.HasPrefix(a.text, "-") && (strings.HasSuffix(t, "|") || t != "" && strings.IndexByte("|<>+&", t[0]) >= 0) {
				an.opaque("perl opens " + clipName(a.text) + " as a command or with a mode, not as a file")
				return true
			}
		}
	}
	// The script may import any module of its language from beside it
	// or from the working directory (json.py shadows python's json).
	if names := languageFiles.get()[name]; len(names) > 0 {
		an.usesCode(name, "/", an.withBareName(name, names)...)
	} else if isPython(name) {
		an.usesCode(name, "/", languageFiles.get()["python"]...)
	}
	if name == "erb" {
		// Each operand is a template erb runs, not the first alone.
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") && !a.dynamic {
				an.usesCode(name, a.text)
			}
		}
	}
	if name == "deno" || name == "bun" {
		if bunInline(args) {
			an.opaque(name + " runs inline code")
		}
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") {
				an.usesCode(name, a.text)
			}
		}
		an.unknownArgs(args)
		return true
	}
	// The first operand is the script, unless it follows an option that
	// may take it as its value (python3 -W ignore -c …, node --title x
	// -e …, perl -I x -e …): the analysis then keeps looking for options
	// that run inline code. For python it knows which options take a
	// value; for the others, any option without '=' may.
	operands := 0
	valueNext := false
	// pythonValue: the word is the value of python's -W, -X or -Q,
	// which python takes whatever it looks like: in python3 -W -m x.py,
	// -m is a warning filter and x.py the script.
	pythonValue := false
scan:
	for i, a := range args {
		t := a.text
		if a.dynamic {
			an.opaque(name + " gets arguments that are only known when it runs")
			return true
		}
		if strings.Contains(strings.ToLower(t), "data:") {
			an.opaque(name + " may load inline code from a data: URL")
			return true
		}
		if t == "-" && name == "erb" && i > 0 && args[i-1].text == "-T" {
			valueNext = false
			continue // erb -T -: the trim mode
		}
		if t == "-" {
			break // the program comes from standard input
		}
		if strings.HasPrefix(t, "--") {
			if contains([]string{"--eval", "--print", "--exec", "--command"}, t) || strings.HasPrefix(t, "--eval=") || strings.HasPrefix(t, "--print=") {
				an.opaque(name + " runs inline code")
				return true
			}
			if _, v, ok := strings.Cut(t, "="); ok {
				an.usesCode(name, v) // node --require=./x.js
			}
			valueNext = t != "--" && !strings.Contains(t, "=")
			pythonValue = false
			continue
		}
		if strings.HasPrefix(t, "-") && len(t) > 1 {
			if isPython(name) {
				if pythonValue {
					pythonValue, valueNext = false, false
					continue
				}
				kind, rest := pythonCluster(t[1:])
				switch kind {
				case 'c':
					an.opaque(name + " runs inline code")
					return true
				case 'i':
					an.stdinOpaque(name + " -i reads code from its standard input after the script")
					return true
				case 'm':
					operands++ // python -m runs an installed module
					// The module's name is the next word (-m x, -Im
					// x) unless the cluster holds it (-mx).
					nameNext := rest == ""
					if rest == "" && i+1 < len(args) {
						rest = args[i+1].text
					}
					// The module's words follow its name.
					after := args[i+1:]
					if len(t) == 2 && len(after) > 0 {
						after = after[1:]
					}
					if why := configWrite(rest, after); why != "" {
						// python3 -m pip config set …, as pip config set.
						an.opaque(name + " -m " + why)
						return true
					}
					if why := homeWrite(rest, after); why != "" {
						an.opaque(name + " -m " + why) // python3 -m pip cache purge
					}
					if rest == "uv" && len(after) > 0 && after[0].text == "pip" {
						// python3 -m uv pip install x, as uv pip.
						if why := an.uvPip(after[1:]); why != "" {
							an.opaque(name + " -m uv pip: " + why)
						}
					}
					if rest == "ensurepip" {
						after = append([]word{{text: "install"}}, after...)
					}
					if rest == "pip" || strings.HasPrefix(rest, "pip.") || rest == "ensurepip" {
						// python3 -m pip install x installs into the
						// environment of that python.
						if why := an.pipInstall(prog, after); why != "" {
							an.opaque(name + " -m " + why)
						}
					}
					if why := homeInstall(rest, after); why != "" {
						// python3 -m pip install --user …, as pip.
						an.opaque(name + " -m " + why)
						return true
					}
					if rest == "pip" {
						// python3 -m pip install ./p.tar.gz.
						an.packagesGiven("pip", after)
					}
					if pythonFileModules.get()[rest] {
						// The files it is given are code it runs: each
						// operand, and each option's value after '='.
						for _, b := range args[i+1:] {
							if !strings.HasPrefix(b.text, "-") {
								an.usesCode(name, b.text)
							} else if _, v, ok := strings.Cut(b.text, "="); ok {
								an.usesCode(name, v)
							}
						}
					}
					if pythonCodeModules.get()[rest] {
						an.opaque(name + " -m " + rest + " runs code given on the command line or its standard input")
						return true
					}
					if letter, ok := pythonArchiveModules.get()[rest]; ok && moduleOption(args[i+1:], letter) {
						// tarfile -e extracts symbolic links and members
						// named ../…, as tar x does; zipfile -e extracts
						// whatever the archive holds; gzip -d writes each
						// file without its suffix. Code the line packed may
						// then run (gzip -d mk.gz && make -f mk).
						an.opaque(name + " -m " + rest + " -" + string(letter) + " writes files the analysis does not list")
						return true
					}
					// python3 -m pytest ., -m mypy …: the module is a
					// modelled checker, given the words after it. python
					// -m imports it from its working directory first
					// (sys.path[0]), which must lie in the workdir: from
					// ~, ~/black.py would run.
					// The settings files of the Python tools of
					// settingsCode, run as modules (see settingsCodeUses).
					ops := args[i+1:]
					if nameNext && len(ops) > 0 {
						ops = ops[1:]
					}
					if in, out, ok := jsonTool(rest, ops); ok {
						// python3 -m json.tool IN [OUT] reads IN and
						// writes OUT, as cp would; python's own options
						// before -m may still name files (-X
						// pycache_prefix=DIR).
						an.unknownArgs(args[:i])
						if in != nil {
							an.addAccess(*in, modeRead, name+" -m "+rest, false)
						}
						if out != nil {
							an.addAccess(*out, modeWrite, name+" -m "+rest, false)
						}
						return true
					}
					if why := an.rt61PythonModule(rest, ops); why != "" {
						an.opaque(why)
						return true
					}
					if prog, progArgs := pythonModuleProgram(rest, ops); prog != "" {
						an.settingsCodeUses(prog, progArgs)
					}
					if after := args[i+1:]; i == 0 && len(t) == 2 && len(after) > 0 && an.checker(rest, after[1:]) {
						an.packageDirs(nil)
						return true
					} else if i == 0 && len(t) > 2 && an.checker(rest, after) {
						an.packageDirs(nil)
						return true
					}
					break scan
				case 'v':
					valueNext, pythonValue = true, true
				default:
					valueNext = false
				}
				continue
			}
			if opts != "" && strings.ContainsAny(t[1:], opts) {
				an.opaque(name + " runs inline code")
				return true
			}
			valueNext = !strings.Contains(t, "=")
			continue
		}
		// The script, or an option's value that comes before it and may
		// name code to load first (node -r ./x).
		an.usesCode(name, t)
		operands++
		if !valueNext {
			break
		}
		valueNext, pythonValue = false, false
	}
	if operands == 0 {
		an.stdinOpaque(name + " reads code from its standard input")
	}
	// The script or module may write any file it is given.
	from := len(an.a.accesses)
	an.unknownArgs(args)
	if rest := moduleUvPip(args); rest != nil {
		an.uvPipInterpreterRead(from, rest)
	}
	return true
}

// pythonCluster reads a cluster of python's one-letter options (without
// its '-') as python does: 'c' when it runs inline code, 'm' when it runs
// a module (rest is the module's name when attached), 'i' when it reads
// code from its standard input after the script, 'v' when its last option
// takes the next word as its value (-W, -X), and 0 otherwise. The rest of
// the cluster after c, m, W or X is that option's value.
func pythonCluster(c string) (kind byte, rest string) {
	inspect := false
	for i := 0; i < len(c); i++ {
		switch c[i] {
		case 'c', 'm':
			return c[i], c[i+1:]
		case 'i':
			inspect = true
		case 'W', 'X', 'Q':
			if inspect {
				return 'i', ""
			}
			if i == len(c)-1 {
				return 'v', ""
			}
			return 0, ""
		}
	}
	if inspect {
		return 'i', ""
	}
	return 0, ""
}

// pythonModule returns the module python args runs with -m and the words
// after its name, or false when it runs a script, inline code or its
// standard input.
func pythonModule(args []word) (module string, after []word, ok bool) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if args[i].dynamic || !strings.HasPrefix(t, "-") || t == "-" || t == "--" {
			return "", nil, false
		}
		if strings.HasPrefix(t, "--") {
			continue
		}
		switch kind, rest := pythonCluster(t[1:]); kind {
		case 'm':
			if rest != "" {
				return rest, args[i+1:], true
			}
			if i+1 < len(args) && !args[i+1].dynamic {
				return args[i+1].text, args[i+2:], true
			}
			return "", nil, false
		case 'c', 'i':
			return "", nil, false
		case 'v':
			i++ // -W arg, -X opt
		}
	}
	return "", nil, false
}

// pythonScript returns the script python args runs and the words after
// it, or false when it runs a module, inline code or its standard input.
func pythonScript(args []word) (script string, after []word, ok bool) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if args[i].dynamic || t == "-" {
			return "", nil, false
		}
		if t == "--" {
			i++
			if i < len(args) {
				return args[i].text, args[i+1:], true
			}
			return "", nil, false
		}
		if !strings.HasPrefix(t, "-") {
			return t, args[i+1:], true
		}
		if strings.HasPrefix(t, "--") {
			continue
		}
		switch kind, _ := pythonCluster(t[1:]); kind {
		case 'c', 'm':
			return "", nil, false
		case 'v':
			i++ // -W arg, -X opt
		}
	}
	return "", nil, false
}

// pipScript reports whether script is pip's: a program named pip
// (pip3.11, pip-3.11) or pip's package directory, whose __main__.py runs.
// The names are compared in any letter case, as a case-insensitive file
// system (macOS's default) opens them: python3 .venv/bin/PIP runs pip.
func pipScript(script string) bool {
	s := strings.TrimSuffix(script, "/")
	if foldCase(path.Base(s)) == "__main__.py" {
		s = path.Dir(s)
	}
	return strings.TrimRight(foldCase(path.Base(s)), "0123456789.-") == "pip"
}

// pythonArchiveModules are the standard modules whose command line writes
// files the archive or the compressed file names, each with the short
// option that makes it write them (tarfile -e, zipfile -e, gzip -d).
var pythonArchiveModules = lazy[map[string]byte]{build: func() map[string]byte {
	return map[string]byte{"tarfile": 'e', "zipfile": 'e', "gzip": 'd'}
}}

// moduleOption reports whether the arguments of a python module may hold
// its option -letter: alone or in a cluster, or as a long option of two
// letters or more that begins with it (argparse takes --e for --extract,
// --d for --decompress); an argument only known when it runs may be it.
func moduleOption(args []word, letter byte) bool {
	for _, a := range args {
		t := a.text
		if a.dynamic || strings.HasPrefix(t, "--"+string(letter)) || len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.IndexByte(t, letter) > 0 {
			return true
		}
	}
	return false
}

// pythonFileModules are the standard modules whose command line runs a
// file it is given as python code: doctest the examples of a text file,
// pydoc a path it imports, pickle the calls a pickle makes as it loads,
// and cProfile, profile and trace a script.
var pythonFileModules = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"doctest": true, "pydoc": true, "pickle": true, "cProfile": true, "profile": true, "trace": true}
}}

// jsonTool parses the words after python -m json.tool (or -m json, its
// name from Python 3.14) as the module's argparse parser takes them:
// flags, --indent with its value, unambiguous prefixes of these, "--",
// then an input file and an output file, either missing. ok is false for
// any other form (an unknown option, a third operand, a word only known
// when the line runs), which the caller treats as any program the
// analysis does not model: each word may be written. in is nil for the
// standard input ("-" or none), out for the standard output.
func jsonTool(module string, ops []word) (in, out *word, ok bool) {
	if module != "json.tool" && module != "json" {
		return nil, nil, false
	}
	flags := []string{"--help", "--sort-keys", "--no-ensure-ascii", "--json-lines", "--indent", "--tab", "--no-indent", "--compact"}
	var operands []*word
	options := true
	for i := 0; i < len(ops); i++ {
		w := &ops[i]
		if w.dynamic || w.special || w.pattern {
			return nil, nil, false
		}
		t := w.text
		switch {
		case options && t == "--":
			options = false
			continue
		case options && t == "-h":
			continue
		case options && strings.HasPrefix(t, "--"):
			key, _, valued := strings.Cut(t, "=")
			var match []string
			for _, f := range flags {
				if f == key {
					match = []string{f}
					break
				}
				if strings.HasPrefix(f, key) {
					match = append(match, f)
				}
			}
			if len(match) != 1 || valued && match[0] != "--indent" {
				return nil, nil, false
			}
			if match[0] == "--indent" && !valued {
				// Its value, even one such as -1; one bash may make
				// several words of ({2,kit/package.json}) may hand
				// the parser more operands.
				if i+1 < len(ops) && (ops[i+1].dynamic || ops[i+1].special || ops[i+1].pattern) {
					return nil, nil, false
				}
				i++
			}
			continue
		case options && strings.HasPrefix(t, "-") && t != "-":
			return nil, nil, false
		}
		operands = append(operands, w)
	}
	if len(operands) > 2 {
		return nil, nil, false
	}
	if len(operands) > 0 && operands[0].text != "-" {
		in = operands[0]
	}
	if len(operands) > 1 {
		out = operands[1]
	}
	return in, out, true
}

// pythonCodeModules are the standard modules that run python code given
// as their arguments (timeit) or read from their standard input (code,
// pdb, asyncio, idlelib).
var pythonCodeModules = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"code": true, "pdb": true, "timeit": true, "asyncio": true, "idlelib": true}
}}

// awk records the files awk reads. A program that can run commands or
// write files (system, pipes, >, @load …), a program from a file, and
// options other than -F and -v make the line opaque.
func (an *analyzer) awk(args []word) {
	i := 0
	for ; i < len(args); i++ {
		t := args[i].text
		if !strings.HasPrefix(t, "-") || t == "-" {
			break
		}
		if t == "--" {
			i++
			break
		}
		switch {
		case t == "-F" || t == "-v" || t == "--field-separator" || t == "--assign":
			i++
		case strings.HasPrefix(t, "-F") || strings.HasPrefix(t, "-v") ||
			strings.HasPrefix(t, "--field-separator=") || strings.HasPrefix(t, "--assign="):
		default:
			an.opaque("awk " + clipName(t) + " is an option the analysis does not model")
			return
		}
	}
	if i >= len(args) {
		an.opaque("awk without a program")
		return
	}
	prog := args[i].text
	i++
	if strings.Contains(prog, "system") || strings.ContainsAny(prog, "|>@") || strings.Contains(prog, "ENVIRON") {
		an.opaque("the awk program can run commands or write files")
	}
	for ; i < len(args); i++ {
		if strings.Contains(args[i].text, "=") && !strings.Contains(args[i].text, "/") {
			continue // a variable assignment
		}
		an.pathArg(args[i], modeRead, "awk")
	}
}

// sedLong are GNU sed's long options.
var sedLong = []string{"--in-place", "--expression", "--file", "--line-length", "--quiet", "--silent",
	"--regexp-extended", "--separate", "--null-data", "--zero-terminated", "--unbuffered", "--debug",
	"--posix", "--sandbox", "--follow-symlinks", "--binary", "--help", "--version"}

// sed records the files sed reads or, with -i, writes. A script that can
// run commands or write files, and a script from a file, make the line
// opaque.
func (an *analyzer) sed(args []word) {
	start := len(an.a.accesses)
	inPlace, haveScript := false, false
	suffix := "" // of the backups -i makes
	var scripts []word
	// GNU sed takes its options anywhere among its operands (sed p f -i);
	// only "--" ends them.
	var ops []word
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		if t == "--" {
			ops = append(ops, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			ops = append(ops, a)
			continue
		}
		if strings.HasPrefix(t, "--") {
			name, val, hasVal := strings.Cut(t, "=")
			c := canonLong(name, sedLong)
			if !contains(sedLong, c) {
				an.opaque("sed " + clipName(name) + " is an option the analysis does not know")
				return
			}
			t = c
			if hasVal {
				t += "=" + val
			}
		}
		switch {
		case t == "-i" || strings.HasPrefix(t, "--in-place") || (strings.HasPrefix(t, "-i") && !strings.HasPrefix(t, "--")):
			inPlace = true
			if v, ok := strings.CutPrefix(t, "--in-place="); ok {
				suffix = v
			} else if !strings.HasPrefix(t, "--") {
				suffix = t[2:]
			}
		case t == "-e" || t == "--expression":
			haveScript = true
			if i+1 < len(args) {
				scripts = append(scripts, args[i+1])
				i++
			}
		case strings.HasPrefix(t, "--expression="):
			haveScript = true
			scripts = append(scripts, word{text: strings.TrimPrefix(t, "--expression=")})
		case strings.HasPrefix(t, "--f") || strings.HasPrefix(t, "--e"):
			an.opaque("sed " + clipName(t) + " is an option the analysis does not model")
			return
		case t == "-l" || t == "--line-length":
			i++
		case !strings.HasPrefix(t, "--"):
		cluster:
			for k := 1; k < len(t); k++ {
				switch t[k] {
				case 'i':
					inPlace = true
					suffix = t[k+1:]
					break cluster
				case 'f':
					an.opaque("sed -f runs a script from a file")
					return
				case 'e':
					haveScript = true
					if k == len(t)-1 && i+1 < len(args) {
						scripts = append(scripts, args[i+1])
						i++
					} else {
						scripts = append(scripts, word{text: t[k+1:]})
					}
					break cluster
				case 'l':
					// -l takes the line length: attached, or the next word.
					if k == len(t)-1 {
						i++
					}
					break cluster
				}
			}
		}
	}
	if !haveScript && len(ops) > 0 {
		scripts = append(scripts, ops[0])
		ops = ops[1:]
	}
	for _, s := range scripts {
		if sedRuns(s.text) {
			an.opaque("the sed script can run commands or write files")
		}
	}
	mode := modeRead
	if inPlace {
		mode = modeWrite
	}
	if inPlace && strings.Contains(suffix, "/") {
		an.opaque("sed -i makes its backups in another directory")
	}
	for _, f := range ops {
		an.pathArg(f, mode, "sed")
		if inPlace && suffix != "" && !f.dynamic && !f.special {
			// The original moves to its backup: FILE+SUFFIX, or SUFFIX with
			// each * replaced by FILE's base name, beside FILE.
			b := path.Base(f.text) + suffix
			if strings.Contains(suffix, "*") {
				b = strings.ReplaceAll(suffix, "*", path.Base(f.text))
			}
			an.pathArg(word{text: path.Join(path.Dir(f.text), b), pattern: f.pattern}, modeWrite, "sed -i")
		}
	}
	an.bsdSed(args, start)
}

// bsdSed judges args as BSD sed (macOS's) reads them, since the analysis
// cannot know which sed runs: its options end at the first operand (sed
// '1w ~/x' -e p f takes 1w ~/x as the script and reads -e and p), -I edits
// in place as -i does, both take the next word as the backup suffix
// whatever it holds (sed -i "" '1w ~/x' f, sed -i -e s/a/b/ f), -l takes
// no value, and each file's backup is FILE+SUFFIX, which a suffix with a
// "/" may place under a directory or a link whose name starts with FILE.
// A script that may write makes the line opaque; the files are recorded as
// read or, in place, written with their backups, unless the accesses from
// start on (the GNU reading's) hold them.
func (an *analyzer) bsdSed(args []word, start int) {
	inPlace, haveScript := false, false
	var suffix word
	var scripts, ops []word
	for i := 0; i < len(args) && ops == nil; i++ {
		t := args[i].text
		if t == "--" {
			ops = append([]word{}, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			ops = append([]word{}, args[i:]...)
			break
		}
	cluster:
		for k := 1; k < len(t); k++ {
			switch c := t[k]; c {
			case 'e', 'i', 'I':
				v := word{text: t[k+1:], dynamic: args[i].dynamic, pattern: args[i].pattern}
				if k == len(t)-1 {
					if i+1 >= len(args) {
						return // a missing value: BSD sed runs nothing
					}
					i++
					v = args[i]
				}
				if c == 'e' {
					haveScript = true
					scripts = append(scripts, v)
				} else {
					inPlace, suffix = true, v
				}
				break cluster
			case 'f':
				an.opaque("sed -f runs a script from a file")
				return
			case 'E', 'a', 'l', 'n', 'r', 's', 'u', 'z':
			default:
				return // an option BSD sed does not know: it runs nothing
			}
		}
	}
	if !haveScript {
		if len(ops) == 0 {
			return
		}
		scripts, ops = ops[:1], ops[1:]
	}
	for _, s := range scripts {
		// (a glob there names files, whose names hold no "/")
		if !s.pattern && bsdSedWrites(s.text) {
			an.opaque("the sed script can run commands or write files (as BSD sed reads the line, " + clipName(s.text) + " is its script)")
			return
		}
	}
	mode := modeRead
	if inPlace {
		mode = modeWrite
	}
	record := func(w word, mode accessMode, what string) {
		for _, acc := range an.a.accesses[start:] {
			if acc.path == w.text && acc.mode >= mode && !w.dynamic {
				return
			}
		}
		an.pathArg(w, mode, what)
	}
	for _, f := range ops {
		record(f, mode, "sed")
		if inPlace && suffix.text != "" && !f.special {
			record(word{text: f.text + suffix.text, dynamic: f.dynamic || suffix.dynamic, pattern: f.pattern || suffix.pattern}, modeWrite, "sed -i")
		}
	}
}

// bsdSedWrites reports whether the script BSD sed reads after a bare -i's
// suffix word may write a file: BSD sed has no e command, and writes only
// with w and the w flag of s. BSD sed compiles its script before it
// touches a file, so a file name such as README or notes.txt there (GNU
// sed -i s/a/b/ README read the BSD way) fails harmlessly; a name that
// starts with an address, w, s or a brace, or holds a space, a separator
// or a delimiter, may be a script that writes.
func bsdSedWrites(script string) bool {
	if !strings.ContainsAny(script, "w") || !sedRuns(script) {
		return false
	}
	return strings.ContainsAny(script, " \t\n;/\\$,{}!|") || strings.IndexByte("0123456789ws", script[0]) >= 0
}

// A fileSpec says what a command does with its operands.
type fileSpec struct {
	mode      accessMode            // of every operand
	also      accessMode            // a second mode of every operand but a designated last one
	last      accessMode            // when set, the mode of the last operand (the destination)
	skipFirst bool                  // the first operand is a pattern, mode or program, not a path
	short     string                // one-letter options that take a value
	long      []string              // long options that take a value
	paths     map[string]accessMode // options whose value is a path
}

// compressors write each operand's compressed or decompressed file beside
// it (and remove the operand).
var compressors = []string{"gzip", "gunzip", "uncompress", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "zstdmt",
	"lz4", "lzma", "unlzma", "lzip", "pigz", "unpigz", "pbzip2", "plzip", "lzop", "brotli"}

// compressorSet holds the compressors by name.
var compressorSet = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range compressors {
		m[n] = true
	}
	return m
}}

// fileCommands are the commands whose file operands the analysis knows.
var fileCommands = lazy[map[string]fileSpec]{build: func() map[string]fileSpec {
	read := fileSpec{mode: modeRead}
	m := map[string]fileSpec{}
	for _, n := range []string{"cat", "tac", "less", "more", "nl", "wc", "od", "hexdump",
		"base32", "strings", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum",
		"b2sum", "cksum", "sum", "file", "stat", "diff", "cmp", "comm", "paste", "column", "fold",
		"fmt", "rev", "bat", "view", "readlink", "realpath", "du", "ls", "tree"} {
		m[n] = read
	}
	m["head"] = fileSpec{mode: modeRead, short: "nc"}
	m["tail"] = fileSpec{mode: modeRead, short: "ncs"}
	m["xxd"] = fileSpec{mode: modeRead} // see fileCommand
	// macOS's base64 reads -i FILE and writes -o FILE (--input=,
	// --output=); -b (its --break) and GNU's -w (--wrap) take a count.
	// GNU's -i (--ignore-garbage) takes no value: taking the next word
	// as one reads it either way.
	m["base64"] = fileSpec{mode: modeRead, short: "biow", long: []string{"--break", "--input", "--output", "--wrap"},
		paths: map[string]accessMode{"-i": modeRead, "--input": modeRead, "-o": modeWrite, "--output": modeWrite}}
	m["tree"] = fileSpec{mode: modeRead, short: "LPIHTo", paths: map[string]accessMode{"-o": modeWrite}}
	m["shuf"] = fileSpec{mode: modeRead, short: "ino", long: []string{"--input-range", "--head-count", "--output", "--random-source"},
		paths: map[string]accessMode{"-o": modeWrite, "--output": modeWrite, "--random-source": modeRead}}
	m["sdiff"] = fileSpec{mode: modeRead, short: "owI", long: []string{"--output", "--width", "--ignore-matching-lines", "--diff-program", "--tabsize"},
		paths: map[string]accessMode{"-o": modeWrite, "--output": modeWrite}}
	m["diff3"] = fileSpec{mode: modeRead, short: "L", long: []string{"--label", "--diff-program"}}
	// ptx -G writes its second operand; without -G all operands are read,
	// but taking the last one as written only errs on the safe side.
	m["ptx"] = fileSpec{mode: modeRead, last: modeWrite, short: "bFgiMoSWw", paths: map[string]accessMode{"-b": modeRead, "-i": modeRead, "-o": modeRead}}
	m["sort"] = fileSpec{mode: modeRead, short: "otkST", long: []string{"--output"}, paths: map[string]accessMode{"-o": modeWrite, "--output": modeWrite}}
	m["uniq"] = fileSpec{mode: modeRead, last: modeWrite, short: "fsw"}
	m["iconv"] = fileSpec{mode: modeRead, short: "fto", paths: map[string]accessMode{"-o": modeWrite, "--output": modeWrite}}
	m["split"] = fileSpec{mode: modeRead, short: "abln"}
	for _, n := range []string{"grep", "egrep", "fgrep", "rg", "ag", "ack", "jq", "yq"} {
		m[n] = fileSpec{mode: modeRead, skipFirst: true, short: "efmABCDd", paths: map[string]accessMode{"-f": modeRead}}
	}
	m["tee"] = fileSpec{mode: modeWrite}
	m["sudoedit"] = fileSpec{mode: modeWrite, short: "ugChpUrtTD"}
	m["touch"] = fileSpec{mode: modeWrite, short: "dtr", paths: map[string]accessMode{"-r": modeRead}}
	m["truncate"] = fileSpec{mode: modeWrite, short: "sr", paths: map[string]accessMode{"-r": modeRead}}
	m["mkdir"] = fileSpec{mode: modeWrite, short: "m"}
	m["mkfifo"] = fileSpec{mode: modeWrite, short: "m"}
	for _, n := range []string{"rm", "unlink", "rmdir", "shred", "srm", "trash", "trash-put"} {
		m[n] = fileSpec{mode: modeDelete, short: "ns"}
	}
	for _, n := range []string{"chmod", "chown", "chgrp", "chattr"} {
		m[n] = fileSpec{mode: modeWrite, skipFirst: true}
	}
	// setfacl's entries are option values (-m u::rwx); every operand
	// is a file, also with -b or -k alone.
	m["setfacl"] = fileSpec{mode: modeWrite, short: "mMxX", long: []string{"--modify", "--modify-file", "--remove", "--remove-file", "--set", "--set-file"}}
	m["cp"] = fileSpec{mode: modeRead, last: modeWrite, short: "tS", paths: map[string]accessMode{"-t": modeWrite, "--target-directory": modeWrite}}
	m["install"] = fileSpec{mode: modeRead, last: modeWrite, short: "tSgmo", paths: map[string]accessMode{"-t": modeWrite, "--target-directory": modeWrite}}
	m["mv"] = fileSpec{mode: modeDelete, also: modeRead, last: modeWrite, short: "tS", paths: map[string]accessMode{"-t": modeWrite, "--target-directory": modeWrite}}
	m["ln"] = fileSpec{mode: modeRead, last: modeWrite, short: "tS", paths: map[string]accessMode{"-t": modeWrite, "--target-directory": modeWrite}}
	m["link"] = fileSpec{mode: modeRead, last: modeWrite}
	m["rsync"] = fileSpec{mode: modeRead, last: modeWrite, short: "efB"}
	m["scp"] = fileSpec{mode: modeRead, last: modeWrite, short: "cFiloPSJ"}
	for _, n := range compressors {
		m[n] = fileSpec{mode: modeWrite, also: modeRead, short: "S"}
	}
	addRT60CompressorSpecs(m)
	m["zip"] = fileSpec{mode: modeRead}
	m["curl"] = fileSpec{short: "XHdoTuAebcFKmwxrEyYzCQ", long: []string{"--output", "--upload-file", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--form", "--config", "--cookie", "--cookie-jar", "--header", "--request", "--user", "--url", "--output-dir", "--write-out"},
		paths: map[string]accessMode{"-o": modeWrite, "--output": modeWrite, "-T": modeRead, "--upload-file": modeRead, "-c": modeWrite, "--cookie-jar": modeWrite, "-K": modeRead, "--config": modeRead}}
	m["wget"] = fileSpec{short: "OoPiaeUTtwQ", long: []string{"--output-document", "--output-file", "--post-file", "--input-file", "--directory-prefix"},
		paths: map[string]accessMode{"-O": modeWrite, "--output-document": modeWrite, "-o": modeWrite, "--output-file": modeWrite, "--post-file": modeRead, "-i": modeRead, "--input-file": modeRead}}
	return m
}}

// subcommandPrograms are the programs the analysis does not model whose
// first word, when it is a plain word, names one of their subcommands
// (npm test, pip install), not a file.
var subcommandPrograms = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"npm": true, "pnpm": true, "yarn": true, "pip": true, "pip3": true}
}}

// withoutSubcommand returns args without the subcommand name a program
// of subcommandPrograms takes first: a word without '-', '/' or '.'.
// Any other first word stays, as a path the program may write.
func withoutSubcommand(name string, args []word) []word {
	if !subcommandPrograms.get()[name] || len(args) == 0 {
		return args
	}
	if a := args[0]; !a.dynamic && !a.special && !a.pattern && a.text != "" && !strings.ContainsAny(a.text, "-/.") {
		return args[1:]
	}
	return args
}

// fileCommand records the files of a command in fileCommands, and of dd,
// tar and unzip.
func (an *analyzer) fileCommand(name string, args []word) {
	if name == "chmod" && chmodAddsExec(args) || an.writesMayBeExecutable(name, args) {
		from := len(an.a.accesses)
		defer func() {
			for i := from; i < len(an.a.accesses); i++ {
				an.a.accesses[i].executable = true
			}
		}()
	}
	if d, ok := optionDanger.get()[name]; ok {
		if t := d.find(name, args); t != "" {
			an.opaque(name + " " + clipName(t) + " runs a program or writes files the analysis does not model")
			return
		}
	}
	kind := name
	if compressorSet.get()[name] {
		kind = "gzip" // every compressor names its output alike
	}
	switch kind {
	case "cp", "mv":
		if anyShortFlag(args, "bS") || hasPrefix(args, "--b") || hasPrefix(args, "--su") {
			an.opaque(name + " makes backups under names the analysis does not model")
		}
	case "gzip":
		// Decompressing writes the operand without its suffix
		// (x.json.gz → x.json, x.tgz → x.tar, X.TGZ → X.tar), which
		// gzip also spells -gz, -z and _z, in any case (x.json-gz →
		// x.json); bunzip2 and lzip, given a name without one, write
		// NAME.out.
		for _, a := range args {
			if opt, v, ok := strings.Cut(a.text, "="); ok && strings.HasPrefix(opt, "-") {
				// zstd takes the values of -o (its output) and --trace (a
				// log it writes) after '=' too, -o's also at the end of a
				// cluster (-qfo=x): any option's value so given may be a
				// file it writes.
				an.pathArg(word{text: v, dynamic: a.dynamic, pattern: a.pattern}, modeWrite, name+" "+clipName(opt))
				continue
			}
			if strings.HasPrefix(a.text, "-") || a.dynamic || a.special {
				continue
			}
			if ext := path.Ext(a.text); ext != "" && ext != a.text {
				out := strings.TrimSuffix(a.text, ext)
				an.addAccess(word{text: out, pattern: a.pattern}, modeWrite, name, false)
				if len(ext) > 1 && (ext[1] == 't' || ext[1] == 'T') {
					an.addAccess(word{text: out + ".tar", pattern: a.pattern}, modeWrite, name, false)
				}
			}
			lower := strings.ToLower(a.text)
			for _, suf := range []string{"-gz", "-z", "_z"} {
				if out := a.text[:max(len(a.text)-len(suf), 0)]; strings.HasSuffix(lower, suf) && out != "" && !strings.HasSuffix(out, "/") {
					an.addAccess(word{text: out, pattern: a.pattern}, modeWrite, name, false)
				}
			}
			an.addAccess(word{text: a.text + ".out", pattern: a.pattern}, modeWrite, name, false)
		}
	case "xxd":
		// xxd [options] [infile [outfile]]: its options take their values
		// in ways getopt does not (-ps, -cols 8), so any second word that
		// is not an option is taken as the file it writes.
		var ops []word
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") || a.dynamic || a.text == "-" {
				ops = append(ops, a)
			}
		}
		for i, op := range ops {
			mode := modeRead
			if i > 0 && i == len(ops)-1 {
				mode = modeWrite
			}
			if op.text != "-" || op.dynamic {
				an.pathArg(op, mode, name)
			}
		}
		return
	case "dd":
		for _, a := range args {
			switch {
			case strings.HasPrefix(a.text, "if="):
				an.pathArg(word{text: a.text[3:], dynamic: a.dynamic, pattern: a.pattern}, modeRead, "dd")
			case strings.HasPrefix(a.text, "of="):
				an.pathArg(word{text: a.text[3:], dynamic: a.dynamic, pattern: a.pattern}, modeWrite, "dd")
			case a.dynamic:
				an.pathsUnknown("the operands of dd are only known when it runs")
			}
		}
		return
	case "tar", "bsdtar", "unzip", "7z", "cpio":
		an.archive(name, args)
		return
	case "curl", "wget":
		// curl -T uploads to its URLs: a file: URL is a file it writes.
		// curl takes any abbreviation of a long option (--upload).
		mode := modeRead
		if name == "curl" && (anyShortFlag(args, "T") || hasPrefix(args, "--up")) {
			mode = modeWrite
		}
		globs := name == "curl" && !anyShortFlag(args, "g") && !hasPrefix(args, "--glob")
		for _, a := range args {
			u := a.text
			if strings.HasPrefix(u, "-") {
				_, v, ok := strings.Cut(u, "=")
				if !ok {
					continue
				}
				u = v // --url=file:…
			}
			// The scheme in any case, a host, percent-escapes: curl
			// reads file:///w/%2Egit/config and FILE://127.0.0.1/w/.git/config
			// as /w/.git/config.
			if len(u) < 5 || !strings.EqualFold(u[:5], "file:") {
				continue
			}
			p, ok := fileURLPath(u)
			if !ok {
				continue
			}
			if mode == modeWrite && (globs && strings.ContainsAny(p, "{}[]") || strings.Contains(p, "%")) {
				// curl expands {a,b} and [a-z] in a URL itself.
				an.opaque(name + " uploads to a file URL that names its paths by a pattern or an escape")
				continue
			}
			an.pathArg(word{text: p, dynamic: a.dynamic, pattern: a.pattern}, mode, name+" file:")
		}
		if name == "curl" {
			// "#1" in an output name is replaced by the text a glob of the
			// URL matched ({a,b}, [1-9]), which may hold slashes.
			spec := fileCommands.get()["curl"]
			eachOption(args, spec.short, spec.long, true, func(opt string, val *word) {
				if (opt == "-o" || opt == "--output") && val != nil && strings.Contains(val.text, "#") {
					an.opaque("curl " + opt + " names its output with text of the URL")
				}
				// curl 8.3 and later write what follows %output{NAME}
				// (%output{>>NAME} appends) in the format of -w to NAME;
				// -w @FILE and -w @- read the format from a file or the
				// standard input.
				if (opt == "-w" || opt == "--write-out") && (val == nil || val.dynamic ||
					strings.HasPrefix(val.text, "@") || strings.Contains(strings.ToLower(val.text), "output{")) {
					an.opaque("curl " + opt + " may name a file its format writes (%output{…})")
				}
			})
		}
	}
	switch name {
	case "curl":
		an.remoteNames(name, args)
		for i, a := range args {
			t := a.text
			if i > 0 && contains([]string{"-d", "--data", "--data-binary", "--data-urlencode", "-F", "--form"}, args[i-1].text) {
				v := t
				if j := strings.IndexAny(v, "@<"); j >= 0 {
					an.pathArg(word{text: strings.TrimPrefix(v[j+1:], ";"), dynamic: a.dynamic}, modeRead, "curl")
				}
			}
		}
	case "wget":
		an.remoteNames(name, args)
	}
	switch name {
	case "cp", "mv", "rsync", "scp":
		from := len(an.a.accesses)
		if name == "cp" && !anyShortFlag(args, "PdaRrH") && !hasPrefix(args, "--no-d") && !hasPrefix(args, "--ar") &&
			!hasPrefix(args, "--rec") && !hasPrefix(args, "--pre") {
			// Without these cp copies what a link leads to, not the link.
			from = -1
		}
		defer func() { an.mayLinkAt(from) }()
	}
	spec, ok := fileCommands.get()[name]
	if !ok {
		if isCompiler(name) {
			args = an.compilerDirs(name, args)
		} else if name == "cmake" {
			an.cmakeScripts(name, args) // before cmakePaths takes its options away
			args = an.cmakePaths(name, args)
		}
		if !noFiles.get()[name] {
			an.codeOptions(name, args)
			an.toolCode(name, args)
			from := len(an.a.accesses)
			an.unknownArgs(an.withoutScripts(name, withoutSubcommand(name, args)))
			if outs := writtenOperands(name, args); len(outs) > 0 {
				for i := from; i < len(an.a.accesses); i++ {
					if outs[an.a.accesses[i].path] {
						an.a.accesses[i].output = true
					}
				}
			}
			an.optionWordsGiven(args)
			if (isCompiler(name) || name == "make" || name == "gmake" || name == "rustc" || name == "rustdoc" || name == "javac") &&
				!(isCompiler(name) && compilerWritesText(args)) {
				// A program it builds (make m && ./m) is made of the
				// sources its code use checks. What a compiler only
				// preprocesses (cc -E -P m.c -o x.mk && make -f x.mk)
				// or writes as text is no program: it is the text of its
				// input and of the line's -D macros.
				for i := from; i < len(an.a.accesses); i++ {
					an.a.accesses[i].built = true
				}
			}
			if isCompiler(name) {
				// After its own code uses: it reads no dependency file
				// it writes.
				an.compilerDepFiles(name, args)
			}
			if !an.guess && !runsNoCommand(name, args) && !isCompiler(name) && !strings.HasPrefix(name, "go1.") {
				an.innerSpellings(args)
				uses, words := len(an.codeUses), an.uvPipWords
				an.uvPipWords, an.guessOf = uvPipCommand(name, args), name
				an.guessInner(args, 0, 0)
				an.uvPipWords, an.guessOf = words, ""
				an.uvPipGuessed(name, args, uses, from)
				an.guessHanded()
			} else if an.guess && !runsNoCommand(name, args) && !isCompiler(name) {
				// A command string given to an unmodelled command that
				// was itself guessed (timeout 5 hyperfine '…' in a
				// string) is read as one, for what it writes and where
				// its cd goes (review67g).
				for _, a := range args {
					if !a.dynamic && !a.special && strings.ContainsAny(a.text, " \t\n"+shellSyntax) && commandString(a.text) {
						an.guessScript(a.text, 1)
					}
				}
			}
		}
		return
	}
	ops := an.optionsPaths(args, spec.short, spec.long, true, spec.paths)
	// cp -t DIR, mv --target-directory=DIR: each operand lands in DIR
	// under its own name.
	var targets []word
	if _, ok := spec.paths["-t"]; ok {
		eachOption(args, spec.short, append(spec.long[:len(spec.long):len(spec.long)], "--target-directory"), true, func(opt string, val *word) {
			if (opt == "-t" || opt == "--target-directory") && val != nil {
				targets = append(targets, *val)
			}
		})
	}
	if len(targets) > 0 || hasAny(args, "-t") || hasPrefix(args, "--target-directory") {
		spec.last = 0
	}
	if spec.mode == 0 {
		return // curl and wget: only their options name files
	}
	// chmod --reference=R f and chmod -x f take no mode operand.
	if spec.skipFirst && len(ops) > 0 && !(spec.paths["-f"] != 0 && hasAny(args, "-e", "-f", "--regexp", "--file")) &&
		!(spec.mode == modeWrite && noModeOperand(name, args)) {
		ops = ops[1:]
	}
	if len(ops) == 0 && searchesCwd(name, args) {
		// grep -r PATTERN and rg PATTERN read every file beneath the
		// directory they run in: cd ../home && grep -r PRIVATE printed
		// ~/.ssh/id_ed25519 in real bash and was allowed (round 92).
		an.addAccess(word{text: "."}, modeRead, name, true)
	}
	tree := name == "mv" || (name == "cp" || name == "scp" || name == "rsync") &&
		(hasShortFlag(args, 'r') || hasShortFlag(args, 'R') || hasShortFlag(args, 'a') || hasAny(args, "--recursive", "--archive")) ||
		rsyncListed(name, args)
	// chmod -R .git and gzip -r .git write every file beneath the operand,
	// wherever the option stands among the operands.
	if recursiveWriters.get()[name] && (anyShortFlag(args, "rR") || hasPrefix(args, "--rec")) {
		tree = true
	}
	// cp --parents and rsync -R keep each source's path below the
	// destination (cp --parents sub/x t writes t/sub/x).
	parents := name == "cp" && hasPrefix(args, "--par") || name == "rsync" && (anyShortFlag(args, "R") || hasPrefix(args, "--rel"))
	into := func(dir, src word, mode accessMode) {
		if dir.special || src.special {
			return
		}
		if mode != modeRead && (dir.dynamic || dir.pattern || src.dynamic || src.pattern) {
			// cp kit/* . names what it writes after what the pattern
			// matches when the line runs.
			an.writesUnnamed(dir)
		}
		if dir.dynamic || dir.pattern || src.dynamic || src.pattern && mode == modeRead {
			return
		}
		switch b := path.Base(src.text); {
		case b != "/" && b != "." && b != "..":
			// ./NAME, or for a pattern (cp kit/* .) a written pattern,
			// so that a program of the line that runs a file of that
			// directory (cp kit/* . && make, with kit/GNUmakefile) sees
			// the write (see runsWrittenCode).
			an.addAccess(word{text: path.Join(dir.text, b), pattern: src.pattern && strings.ContainsAny(b, "*?[]{}\\")}, mode, name, tree)
		case mode != modeRead:
			// cp -r -t . kit/. (or k*/.) copies kit's contents, .git
			// among them, into the directory: all of it may be written.
			an.addAccess(dir, mode, name, true)
		}
		if parents && !src.pattern && !path.IsAbs(src.text) && path.Clean(src.text) != path.Base(src.text) {
			an.addAccess(word{text: path.Join(dir.text, src.text)}, mode, name, tree)
		}
	}
	for _, t := range targets {
		for _, op := range ops {
			into(t, op, modeWrite)
		}
	}
	if name == "mkdir" {
		// Its operands are directories, no code (see runsWrittenCode).
		from := len(an.a.accesses)
		defer func() {
			for i := from; i < len(an.a.accesses); i++ {
				an.a.accesses[i].dir = true
			}
		}()
	}
	for i, op := range ops {
		if op.text == "-" && !op.dynamic {
			continue // standard input
		}
		if spec.last != 0 && i == len(ops)-1 && len(ops) > 1 {
			an.addAccess(op, spec.last, name, tree && !intoItself(name, args, op, ops[:i]))
			// The destination may be a directory: each source lands
			// inside it under its own name.
			for _, src := range ops[:i] {
				into(op, src, spec.last)
			}
			continue
		}
		an.addAccess(op, spec.mode, name, tree && spec.mode == modeWrite)
		if spec.also != 0 {
			an.pathArg(op, spec.also, name)
		}
	}
	if name == "ln" && hasShortFlag(args, 's') {
		an.pathsUnknown("ln -s creates a symbolic link that changes where paths lead")
	}
}

// remoteNames records the files curl -O and wget write in the working
// directory, named by the last part of each URL's path; options that let
// the server or a recursion name them make the line opaque.
func (an *analyzer) remoteNames(name string, args []word) {
	spec := fileCommands.get()[name]
	remote := name == "wget"
	ops := eachOption(args, spec.short, spec.long, true, func(opt string, _ *word) {
		switch opt {
		case "-O":
			remote = name == "curl" // wget -O names its output
		case "--remote-name", "--remote-name-all":
			remote = true
		case "--output-document", "--spider":
			remote = remote && name != "wget"
		case "-J", "--remote-header-name", "--content-disposition", "--trust-server-names", "-r", "--recursive",
			"-m", "--mirror", "-p", "--page-requisites", "-x", "--force-directories", "--protocol-directories":
			an.opaque(name + " " + opt + " writes files the server or a recursion names")
		}
	})
	if !remote {
		return
	}
	for _, op := range ops {
		if op.dynamic || op.special {
			an.opaque(name + " gets a URL that is only known when it runs")
			continue
		}
		u := op.text
		if _, rest, ok := strings.Cut(u, "://"); ok {
			u = rest
		}
		u, _, _ = strings.Cut(u, "?")
		u, _, _ = strings.Cut(u, "#")
		i := strings.IndexByte(u, '/')
		if i < 0 {
			if name == "wget" {
				an.addAccess(word{text: "index.html"}, modeWrite, name, false)
			}
			continue
		}
		file := path.Base(u[i:])
		if file == "/" || file == "." || file == ".." {
			file = "index.html"
		}
		if strings.Contains(file, "%") {
			an.opaque(name + " names its output after an encoded URL")
			continue
		}
		an.pathsUnknown(name + " writes files named after URLs")
		an.addAccess(word{text: file, pattern: op.pattern || strings.ContainsAny(file, "{}[]")}, modeWrite, name, false)
	}
}

// archive records what archivers read, and notes that extraction writes
// files the analysis does not know.
func (an *analyzer) archive(name string, args []word) {
	extract, create := name == "unzip", false
	// Every archive named is recorded: with -M, tar writes the volumes
	// of each -f in turn (tar -cM -f a -f b).
	var archives []word
	var dirs []word // of -C, --directory and unzip -d
	start := 0
	if (name == "tar" || name == "bsdtar") && len(args) > 0 && !strings.HasPrefix(args[0].text, "-") {
		// Old style (tar cbf 20 x.tar …): each letter that takes a value
		// takes the next word after the cluster, in turn, wherever it
		// stands in the cluster (tar cfv x.tar, not tar -cfv, whose f
		// takes "v").
		start = 1
		for _, c := range args[0].text {
			switch c {
			case 'x':
				extract = true
			case 'c', 'r', 'u', 'A':
				create = true // A appends archives to the one f names
			}
			if !strings.ContainsRune(tarOldValues, c) {
				continue
			}
			if start == len(args) {
				break
			}
			v := args[start]
			start++
			switch c {
			case 'f':
				archives = append(archives, v)
			case 'C':
				an.cwdUnknown = true
				dirs = append(dirs, v)
			case 'g':
				an.opaque(name + " g writes the snapshot file it names")
			}
		}
	}
	for i := start; i < len(args); i++ {
		t := args[i].text
		cluster := ""
		switch {
		case strings.HasPrefix(t, "--"):
			name, val, hasVal := strings.Cut(t, "=")
			// Any abbreviation counts, ambiguous ones for every option
			// they may stand for.
			abbr := func(opt string) bool { return len(name) >= 3 && strings.HasPrefix(opt, name) }
			if abbr("--extract") || abbr("--get") {
				extract = true
			}
			if abbr("--create") || abbr("--append") || abbr("--update") || abbr("--concatenate") || abbr("--catenate") || abbr("--delete") {
				create = true
			}
			switch {
			case abbr("--file") && hasVal:
				archives = append(archives, word{text: val, dynamic: args[i].dynamic, pattern: args[i].pattern})
			case abbr("--file") && i+1 < len(args):
				archives = append(archives, args[i+1])
				i++
			case abbr("--directory"):
				an.cwdUnknown = true
				if hasVal {
					dirs = append(dirs, word{text: val, dynamic: args[i].dynamic, pattern: args[i].pattern})
				} else if i+1 < len(args) {
					dirs = append(dirs, args[i+1])
				}
			}
			continue
		case strings.HasPrefix(t, "-"):
			cluster = t[1:]
		case name == "7z" && i == 0:
			extract = t == "x" || t == "e"
			create = t == "a" || t == "u"
			continue
		default:
			if len(archives) == 0 && name != "tar" && name != "bsdtar" {
				archives = append(archives, args[i])
				continue
			}
			if create {
				an.pathArg(args[i], modeRead, name)
			}
			continue
		}
		for k := 0; k < len(cluster); k++ {
			switch cluster[k] {
			case 'x':
				extract = true
			case 'c', 'r', 'u':
				create = true
			case 'A':
				// tar -A appends archives to the one -f names.
				create = create || name == "tar" || name == "bsdtar"
			case 'f':
				if k == len(cluster)-1 && i+1 < len(args) {
					archives = append(archives, args[i+1])
					i++
				} else if k < len(cluster)-1 {
					archives = append(archives, word{text: cluster[k+1:], dynamic: args[i].dynamic, pattern: args[i].pattern})
				}
				k = len(cluster)
			case 'C':
				an.cwdUnknown = true
				if k < len(cluster)-1 {
					dirs = append(dirs, word{text: cluster[k+1:]})
					k = len(cluster)
				} else if i+1 < len(args) {
					dirs = append(dirs, args[i+1])
				}
			case 'g':
				if name == "tar" || name == "bsdtar" {
					an.opaque(name + " -g writes the snapshot file it names")
					k = len(cluster)
				}
			case 'd':
				if name == "unzip" && i+1 < len(args) {
					dirs = append(dirs, args[i+1])
				}
			}
		}
	}
	mode := modeRead
	if create {
		mode = modeWrite
	}
	for _, a := range archives {
		an.pathArg(a, mode, name)
	}
	if extract || name == "cpio" {
		an.opaque(name + " extracts files the analysis does not list")
		// Extraction into a directory may write anything beneath it.
		for _, d := range dirs {
			an.addAccess(d, modeWrite, name, true)
		}
	}
}

// tarOldValues are the letters of tar's old-style first word (tar cf
// x.tar …) that take a value: GNU tar's b, C, F, g, H, I, K, L, N, T, V,
// X and f.
const tarOldValues = "bCFgHIKLNTVXf"

// codeOptionNames are the options, without dashes, '-' or '_' and in
// lower case, whose value names code that a program loads (openssl
// -engine PATH, nm --plugin PATH, ld -plugin PATH): true for a file,
// false for a directory of them (-provider-path, --plugin-dir).
var codeOptionNames = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"plugin": true, "plugins": true, "engine": true, "provider": true, "load": true, "loadextension": true,
		"preload": true, "agentpath": true, "loader": true,
		// A kubeconfig names the credential plugins kubectl, helm and the
		// like run (users[].user.exec.command).
		"kubeconfig": true,
		"pluginpath": false, "plugindir": false, "providerpath": false,
	}
}}

// codeOptions records, for a command the analysis does not model, the
// values of its options that name code it loads (see codeOptionNames) as
// code uses: given as --opt=value, -opt=value, or the next word.
func (an *analyzer) codeOptions(name string, args []word) {
	for i, a := range args {
		t := a.text
		if !strings.HasPrefix(t, "-") || a.dynamic {
			continue
		}
		opt, v, hasVal := strings.Cut(strings.TrimLeft(t, "-"), "=")
		file, ok := codeOptionNames.get()[strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(opt))]
		if !ok {
			continue
		}
		if !hasVal {
			if i+1 == len(args) || args[i+1].dynamic || strings.HasPrefix(args[i+1].text, "-") {
				continue
			}
			v = args[i+1].text
		}
		if v == "" {
			continue
		}
		if file {
			an.usesCode(name, v)
		} else {
			an.usesCode(name, v, "*")
		}
	}
}

// toolCode records the files that python's tools, under their own names,
// run as code: pydoc imports each operand that is a path (pydoc3
// ./x.txt), pygmentize loads the lexer or formatter of -l, -f or -F
// FILE[:CLASS] by running FILE (with -x).
func (an *analyzer) toolCode(name string, args []word) {
	if names, ok := projectFiles.get()[name]; ok {
		// The build, task, infrastructure or configuration files it
		// finds where it runs (or where its options send it), even
		// for --version: mvn -v starts the JVM with the options of
		// .mvn/jvm.config.
		an.usesCode(name, "/", names...)
	}
	if names, ok := rcCodeFiles.get()[name]; ok {
		an.usesCode(name, "/", names...)
	}
	an.settingsCodeUses(name, args)
	an.recipeRunner(name, args)
	an.extractorsOpaque(name, args)
	an.systemWritersOpaque(name, args)
	an.dbClientsOpaque(name, args)
	if why := imageMagickScript(name, args); why != "" {
		an.opaque(why)
	}
	an.rt60ToolCode(name, args)
	an.rt61ToolCode(name, args)
	if name != "cmake" {
		an.cmakeScripts(name, args) // cmake's: see fileCommand
	}
	an.buildFileOptions(name, args)
	an.rt63ToolCode(name, args)
	an.stylesheetCode(name, args)
	an.runnerCodeUses(name, args)
	an.packagesGiven(name, args)
	switch {
	case strings.HasPrefix(name, "pydoc") && strings.Trim(name[len("pydoc"):], "0123456789.") == "":
		for _, a := range args {
			if strings.Contains(a.text, "/") && !strings.HasPrefix(a.text, "-") {
				an.usesCode(name, a.text)
			}
		}
	case name == "pygmentize":
		for i, a := range args {
			t := a.text
			var v string
			switch {
			case (t == "-l" || t == "-f" || t == "-F") && i+1 < len(args):
				v = args[i+1].text
			case len(t) > 2 && (strings.HasPrefix(t, "-l") || strings.HasPrefix(t, "-f") || strings.HasPrefix(t, "-F")):
				v = t[2:]
			default:
				continue
			}
			if j := strings.LastIndexByte(v, ':'); j > 0 {
				v = v[:j]
			}
			an.usesCode(name, v)
		}
	}
}

// packagesGiven records, when args install packages with the package
// manager prog (npm install, pip wheel …), each word after the subcommand
// as a file whose code prog runs: it runs the build and install scripts
// of the packages it is given as paths (an archive's setup.py or
// package.json, which the line may have packed under another name with
// tar --transform), or that a requirements file names.
func (an *analyzer) packagesGiven(prog string, args []word) {
	if len(args) == 0 || !packageInstallers.get()[prog][args[0].text] {
		return
	}
	for _, a := range args[1:] {
		if !strings.HasPrefix(a.text, "-") {
			an.usesGiven(prog, strings.TrimPrefix(a.text, "file:"))
		} else if _, v, ok := strings.Cut(a.text, "="); ok {
			an.usesGiven(prog, strings.TrimPrefix(v, "file:"))
		}
	}
}

// packageInstallers are the package managers and, for each, the
// subcommands that build or install the packages they are given (see
// toolCode).
var packageInstallers = lazy[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		// npm's command word is resolved first (see npmArgs).
		"npm":  {"install": true, "exec": true, "link": true, "update": true, "rebuild": true, "pack": true, "ci": true, "install-test": true, "install-ci-test": true},
		"pnpm": {"install": true, "i": true, "add": true, "dlx": true, "exec": true, "link": true, "update": true, "up": true, "rebuild": true},
		"yarn": {"install": true, "add": true, "dlx": true, "exec": true, "link": true, "upgrade": true},
		"pip":  {"install": true, "wheel": true, "download": true}, "pip3": {"install": true, "wheel": true, "download": true},
		"pipx": {"install": true, "run": true, "inject": true}, "uv": {"pip": true, "add": true, "run": true, "tool": true},
		"gem": {"install": true, "build": true},
	}
}}

// projectFiles are, for the build tools, task runners, infrastructure
// tools and others the analysis does not model, the base names of the
// files they find in the working directory, one above it or one their
// options name, and run what those say or load as code: terraform's
// *.tf (a local-exec provisioner), cmake's CMakeLists.txt
// (execute_process), a justfile's recipes, gpg's gpg.conf in its home
// directory (agent-program). A line that writes one and then runs the
// tool runs code of its own (printf … > main.tf && terraform apply), as
// runsWrittenCode says of make and a Makefile.
var projectFiles = lazy[map[string][]string]{build: func() map[string][]string {
	python := []string{"*.py", "*.pyc", "*.so", "*.pth", "pyproject.toml", "setup.cfg", "setup.py", "requirements*.txt"}
	node := append([]string{"gulpfile.*", "Gulpfile.*", "gruntfile.*", "Gruntfile.*", ".npmrc"}, languageFiles.get()["node"]...)
	m := map[string][]string{
		"terraform":  {"*.tf", "*.tf.json", "*.tfvars", "*.tfvars.json", "*.hcl", ".terraformrc", "terraform.rc"},
		"packer":     {"*.pkr.hcl", "*.pkr.json", "*.pkrvars.hcl", "*.hcl"},
		"vagrant":    {"Vagrantfile", "*.rb"},
		"cmake":      {"CMakeLists.txt", "*.cmake", "CMakePresets.json", "CMakeUserPresets.json", "CMakeCache.txt", "*.sh", "*.py"},
		"meson":      {"meson.build", "meson_options.txt", "meson.options", "*.ini", "*.sh", "*.py"},
		"ninja":      {"build.ninja", "*.ninja", "*.sh", "*.py"},
		"just":       {"justfile", "Justfile", ".justfile", "*.just"},
		"task":       {"Taskfile*.yml", "Taskfile*.yaml", "taskfile*.yml", "taskfile*.yaml"},
		"rake":       {"Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb", "*.rake", "*.rb"},
		"gradle":     {"*.gradle", "*.gradle.kts", "gradle.properties", "gradle-wrapper.properties", "*.java", "*.kt", "*.groovy"},
		"mvn":        {"pom.xml", "jvm.config", "maven.config", "extensions.xml", "settings.xml", "maven-wrapper.properties", "mvnd.properties"},
		"ant":        {"build.xml", "*.xml", "*.properties"},
		"bazel":      {"BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "WORKSPACE.bzlmod", "MODULE.bazel", "*.bzl", ".bazelrc", ".bazelversion"},
		"scons":      append([]string{"SConstruct", "Sconstruct", "sconstruct", "SConscript"}, python...),
		"tox":        append([]string{"tox.ini", "tox.toml"}, python...),
		"nox":        append([]string{"noxfile.py"}, python...),
		"invoke":     append([]string{"invoke.yaml", "invoke.yml", "invoke.json"}, python...),
		"fab":        append([]string{"fabfile.py"}, python...),
		"pip":        python,
		"poetry":     append([]string{"poetry.toml"}, python...),
		"pdm":        python,
		"hatch":      append([]string{"hatch.toml"}, python...),
		"uv":         append([]string{"uv.toml"}, python...),
		"pipenv":     append([]string{"Pipfile"}, python...),
		"conan":      append([]string{"conanfile.txt"}, python...),
		"snakemake":  append([]string{"Snakefile", "*.smk"}, python...),
		"pre-commit": {".pre-commit-config.yaml", ".pre-commit-config.yml", ".pre-commit-hooks.yaml"},
		"gulp":       node,
		"grunt":      node,
		"docker": {"Dockerfile", "Dockerfile.*", "*.Dockerfile", "Containerfile", "Containerfile.*", "*compose*.yml",
			"*compose*.yaml", "docker-bake.hcl", "docker-bake.json"},
		"mix":           {"mix.exs", "*.exs", "*.ex"},
		"sbt":           {"build.sbt", "*.sbt", "*.scala"},
		"lein":          {"project.clj", "*.clj"},
		"dotnet":        {"*.csproj", "*.fsproj", "*.vbproj", "*.proj", "*.props", "*.targets", "*.sln", "global.json", "nuget.config", "NuGet.Config"},
		"tilt":          {"Tiltfile", "*.star"},
		"nix":           {"*.nix", "flake.lock"},
		"earthly":       {"Earthfile"},
		"foreman":       {"Procfile", "Procfile.*", ".env", ".foreman"},
		"bmake":         {"Makefile", "makefile", "BSDmakefile", "*.mk"},
		"ansible":       {"ansible.cfg", "*.yml", "*.yaml", "*.py"},
		"bundle":        {"Gemfile", "gems.rb", "*.gemspec", "*.rb", ".bundle/"}, // .bundle/config may set BUNDLE_GEMFILE (redteam133)
		"composer":      {"composer.json"},
		"dvc":           {"dvc.yaml", "params.yaml"},
		"gitlab-runner": {".gitlab-ci.yml"},
		"act":           {"*.yml", "*.yaml"},
		"direnv":        {".envrc", ".env"},
		"gpg": {"gpg.conf", "gpg.conf-*", "gpgsm.conf", "gpg-agent.conf", "dirmngr.conf", "scdaemon.conf",
			"common.conf"},
	}
	addRT61ProjectFiles(m)
	// Other names of the same programs.
	for alias, of := range map[string]string{"tofu": "terraform", "terragrunt": "terraform", "ctest": "cmake",
		"cpack": "cmake", "samu": "ninja", "go-task": "task", "gradlew": "gradle", "mvnw": "mvn", "mvnd": "mvn",
		"bazelisk": "bazel", "inv": "invoke", "pip3": "pip", "docker-compose": "docker", "podman": "docker",
		"podman-compose": "docker", "nerdctl": "docker", "buildah": "docker", "msbuild": "dotnet",
		"nix-build": "nix", "honcho": "foreman", "overmind": "foreman", "pmake": "bmake", "bsdmake": "bmake",
		"ansible-playbook": "ansible", "bundler": "bundle", "gpg2": "gpg", "gpgsm": "gpg", "gpgconf": "gpg",
		"gpg-connect-agent": "gpg"} {
		m[alias] = m[of]
	}
	return m
}}

// noFiles are the commands the analysis does not model whose arguments
// never name files they write; the arguments of any other such command
// are taken as paths it may write (see unknownArgs).
var noFiles = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"echo", "true", "false", ":", "pwd", "sleep", "basename", "dirname",
		"seq", "expr", "yes", "printenv", "whoami", "id", "uname", "nproc", "arch", "tty", "type",
		"which", "exit", "return", "shift", "break", "continue", "times", "umask", "dirs", "help",
		"tr", "cut", "join", "expand", "unexpand", "numfmt", "factor", "logname", "groups", "kill",
		"wait", "date", "fg", "bg", "disown", "caller", "getconf", "locale", "clear", "tput",
		"hostname", "uptime", "free", "ps", "pgrep", "df",
		// envsubst filters its standard input; its operand names
		// variables (see envPrinter).
		"envsubst"} {
		m[n] = true
	}
	return m
}}

// recursiveWriters are the commands whose -r or -R writes a whole tree.
var recursiveWriters = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"chmod": true, "chown": true, "chgrp": true, "chattr": true, "setfacl": true, "gzip": true,
		"gunzip": true, "uncompress": true, "zstd": true, "unzstd": true, "lz4": true,
	}
}}

// anyShortFlag reports whether a short option cluster anywhere before "--"
// holds one of cs.
func anyShortFlag(args []word, cs string) bool {
	for _, a := range args {
		t := a.text
		if t == "--" {
			return false
		}
		if len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsAny(t[1:], cs) {
			return true
		}
	}
	return false
}

func hasAny(args []word, opts ...string) bool {
	for _, a := range args {
		if contains(opts, a.text) {
			return true
		}
	}
	return false
}

func hasPrefix(args []word, prefix string) bool {
	for _, a := range args {
		if strings.HasPrefix(a.text, prefix) {
			return true
		}
	}
	return false
}

// hasShortFlag reports whether a short option cluster before the operands
// holds c.
func hasShortFlag(args []word, c byte) bool {
	for _, a := range args {
		t := a.text
		if t == "--" || !strings.HasPrefix(t, "-") {
			return false
		}
		if !strings.HasPrefix(t, "--") && strings.IndexByte(t[1:], c) >= 0 {
			return true
		}
	}
	return false
}

// A danger lists the options of a command that run a program, read a
// configuration, or write files the analysis does not model.
type danger struct {
	// long are long option names without "--"; a prefix of one (an
	// abbreviation, which GNU tools accept) is as dangerous.
	long []string
	// short are the one-letter options.
	short string
	// oldStyle marks a command (tar) whose first word may be an option
	// cluster without a dash.
	oldStyle bool
}

// optionDanger are the dangerous options of the commands fileCommand
// models.
var optionDanger = lazy[map[string]danger]{build: func() map[string]danger {
	return map[string]danger{
		// --listed-incremental (-g, see archive) and --volno-file write
		// the files they name; --remove-files deletes what was archived.
		"tar": {long: []string{"to-command", "use-compress-program", "checkpoint-action", "info-script",
			"new-volume-script", "rsh-command", "rmt-command", "index-file", "listed-incremental",
			"volno-file", "remove-files"}, short: "IF", oldStyle: true},
		"bsdtar": {long: []string{"use-compress-program", "options"}, short: "I", oldStyle: true},
		// --remote-option (-M) hands the receiving side, a local process
		// too when both paths are local, any of them (-M--log-file=f).
		"rsync": {long: []string{"rsh", "rsync-path", "config", "log-file", "write-batch", "only-write-batch",
			"read-batch", "backup", "suffix", "temp-dir", "partial-dir", "daemon", "compare-dest", "copy-dest", "link-dest",
			"remove-source-files", "remove-sent-files", "remote-option"}, short: "eTbM"},
		"sort": {long: []string{"compress-program", "temporary-directory"}, short: "T"},
		// curl 8.3 and later take any option as --expand-NAME, whose
		// value may name a file by {{variables}} (--expand-output), and
		// 8.12 writes its TLS sessions to the file of --ssl-sessions.
		"curl": {long: []string{"config", "output-dir", "libcurl", "dump-header", "trace", "trace-ascii",
			"stderr", "etag-save", "hsts", "alt-svc", "create-dirs", "expand-", "ssl-sessions"}, short: "KD"},
		"wget": {long: []string{"execute", "config", "directory-prefix", "append-output", "load-cookies",
			"save-cookies", "warc-file", "rejected-log", "input-file", "base", "use-askpass", "hsts-file"}, short: "eaPiB"},
		// zstd writes its outputs into the directory of these options,
		// and compresses (or decompresses) the files a --filelist names, as
		// xz does those of --files and --files0.
		"zstd": {long: []string{"output-dir-flat", "output-dir-mirror", "filelist"}}, "unzstd": {long: []string{"output-dir-flat", "output-dir-mirror", "filelist"}},
		"zstdmt": {long: []string{"output-dir-flat", "output-dir-mirror", "filelist"}},
		"rg":     {long: []string{"pre", "pre-glob"}},
		// cargo --config sets any configuration key for one run, among
		// them the programs it runs: target.<triple>.runner, linker,
		// build.rustc-wrapper.
		"cargo": {long: []string{"config"}},
		// file -C compiles the magic of -m into NAME.mgc in the working
		// directory.
		"file": {long: []string{"compile"}, short: "C"},
		// groff's unsafe mode lets the document run shell commands (.sy,
		// pic's sh).
		"groff": {short: "U"}, "troff": {short: "U"}, "gtroff": {short: "U"}, "nroff": {short: "U"},
		"pic": {short: "U"}, "gpic": {short: "U"},
		"sdiff": {long: []string{"diff-program"}}, "diff3": {long: []string{"diff-program"}},
		// A lesskey file or text may set LESSOPEN and LESSCLOSE in its
		// #env section: commands less runs on each file it shows, with
		// no terminal too. (more is less on some systems.)
		// Its -o and -O (--log-file, --LOG-FILE) copy a piped input into
		// the file they name, on a terminal.
		"less": {long: []string{"lesskey-src", "lesskey-file", "lesskey-content", "log-file", "LOG-FILE"}, short: "koO"},
		"more": {long: []string{"lesskey-src", "lesskey-file", "lesskey-content", "log-file", "LOG-FILE"}, short: "koO"},
		// tree -R (with -H and -L) runs itself again in each directory
		// of the listing with -o 00Tree.html, writing a page there: in
		// ~/.ssh and .git/hooks for tree -a -R -L 1 -H . ..
		"tree": {short: "R"},
		// bat cache --build (-b) writes the syntax and theme sets into the
		// directory of --target (the home's cache by default), --clear
		// (-c) deletes them there, and --generate-config-file writes the
		// home's config file.
		"bat": {long: []string{"build", "clear", "target", "source", "generate-config-file"}, short: "bc"},
		// mikefarah's yq: -s (--split-exp) writes each result into a
		// file its expression names (outside the working directory with
		// --security-allow-write-any-path, anywhere with a yq older than
		// that check), and system(cmd; args) runs any program once
		// --security-enable-system-operator lets it (redteam133). -s is
		// python yq's --slurp too, which the analysis cannot tell apart.
		"yq": {long: []string{"inplace", "in-place", "split-exp", "split-exp-file", "security-allow-write-any-path",
			"security-enable-system-operator"}, short: "is"},
		"cp":  {long: []string{"symbolic-link", "link"}, short: "sl"},
		"ssh": {short: "oF"},
		// scp runs the program of -S, and ssh with the options of -o, -F
		// and -J (ProxyCommand …).
		"scp":  {short: "SoFJ"},
		"gzip": {long: []string{"suffix", "name"}, short: "SN"}, "gunzip": {long: []string{"suffix", "name"}, short: "SN"},
		"xz": {long: []string{"suffix", "files"}, short: "S"}, "unxz": {long: []string{"suffix", "files"}, short: "S"},
		"lzma": {long: []string{"suffix", "files"}, short: "S"}, "unlzma": {long: []string{"suffix", "files"}, short: "S"},
		"lzop": {long: []string{"suffix"}, short: "S"}, "brotli": {long: []string{"suffix"}, short: "S"},
		"pigz": {long: []string{"suffix", "name"}, short: "SN"}, "unpigz": {long: []string{"suffix", "name"}, short: "SN"},
	}
}}

// find returns the first dangerous option of args, or "".
func (d danger) find(name string, args []word) string {
	for i, a := range args {
		t := a.text
		if t == "--" {
			break
		}
		if i == 0 && d.oldStyle && !strings.HasPrefix(t, "-") && strings.ContainsAny(t, d.short) {
			return t
		}
		switch {
		case strings.HasPrefix(t, "--"):
			n := strings.TrimPrefix(t, "--")
			if j := strings.IndexByte(n, '='); j >= 0 {
				n = n[:j]
			}
			if n == "" {
				continue
			}
			for _, l := range d.long {
				if strings.HasPrefix(l, n) || strings.HasPrefix(n, l) {
					return t
				}
			}
		case strings.HasPrefix(t, "-") && len(t) > 1 && d.short != "":
			if strings.ContainsAny(t[1:], d.short) {
				return t
			}
		}
	}
	return ""
}

// makeLong are GNU make's long options that take a value, makeOptional
// those among them whose value is optional: given after '=' (--jobs=4),
// or, for --jobs and --load-average, as the next word only when it is a
// number (make -j -f x reads the makefile x).
var (
	makeLong = []string{"--file", "--makefile", "--directory", "--include-dir", "--jobs", "--load-average",
		"--max-load", "--what-if", "--new-file", "--assume-new", "--old-file", "--assume-old", "--eval", "--output-sync"}
	makeOptional = []string{"--jobs", "--load-average", "--max-load", "--output-sync"}
)

// makeOptions returns args with each option of makeOptional given
// without a value spelled NAME= (by its full name), so that eachOption
// takes no word after it as its value. The number make may take instead
// is then an operand, a target the analysis passes over.
func makeOptions(args []word) []word {
	var out []word
	for i, a := range args {
		if a.text == "--" {
			break
		}
		if a.dynamic || !strings.HasPrefix(a.text, "--") || strings.Contains(a.text, "=") {
			continue
		}
		if c := canonLong(a.text, makeLong); contains(makeOptional, c) {
			if out == nil {
				out = append([]word(nil), args...)
			}
			out[i].text = c + "="
		}
	}
	if out == nil {
		return args
	}
	return out
}

// make marks the line opaque when make runs makefile text the line gives
// it rather than a makefile of the project: --eval and -E, a makefile read
// from standard input or a device (-f -), and a variable defined on the
// command line that expands or runs text (x:=$(shell …), x!=cmd,
// CFLAGS='$(shell …)' which the project's makefile expands) or sets make's
// own flags (MAKEFLAGS=--eval=…). The operands are then recorded as those
// of any command the analysis does not model.
func (an *analyzer) make(name string, args []word) {
	// make reads its makefiles after the -C options took it to their
	// directory; the makefiles it includes may lie anywhere.
	dir := ""
	var files, includes []string
	// -j and -l take a value only attached or as a number (see
	// makeOptional): no word after them is theirs.
	eachOption(makeOptions(args), "CfIWoE", makeLong, true, func(opt string, val *word) {
		switch {
		case (opt == "-I" || opt == "--include-dir") && val != nil:
			if val.dynamic {
				an.opaque(name + " " + opt + " names a directory only known when it runs")
			}
			includes = append(includes, val.text)
		case opt == "-E" || strings.HasPrefix(opt, "--") && len(opt) >= 4 && strings.HasPrefix("--eval", opt):
			an.opaque(name + " " + opt + " evaluates makefile text given on the command line")
		case (opt == "-f" || opt == "--file" || opt == "--makefile") && val != nil:
			if v := val.text; val.dynamic || v == "-" || strings.HasPrefix(v, "/dev/") || strings.HasPrefix(v, "/proc/") {
				an.opaque(name + " " + opt + " reads a makefile from its standard input or a device")
			}
			files = append(files, val.text)
		case (opt == "-C" || opt == "--directory") && val != nil:
			if path.IsAbs(val.text) {
				dir = val.text
			} else {
				dir = path.Join(dir, val.text)
			}
		}
	})
	for _, f := range files {
		if !path.IsAbs(f) {
			f = path.Join(dir, f)
		}
		an.usesCode(name, f)
	}
	if len(files) > 0 {
		an.recipeTools(name, dir, files, false)
	} else {
		an.recipeTools(name, dir, []string{"GNUmakefile", "makefile", "Makefile"}, false)
	}
	if dir != "" && len(files) == 0 {
		// The makefile of the directory, for the files it includes
		// beside it (see bareName).
		an.usesCode(name, path.Join(dir, "Makefile"))
	}
	// An include directory holds makefile fragments under any name
	// (include common looks there too): every file below it is code.
	// A relative one is taken both from where make starts and from the
	// directory -C took it to.
	for _, d := range includes {
		an.usesDir(name, d)
		if dir != "" && !path.IsAbs(d) {
			an.usesDir(name, path.Join(dir, d))
		}
	}
	// Its built-in rules also make programs of shell scripts (m from
	// m.sh) and of the sources of yacc, lex, fortran and pascal.
	an.usesCode(name, "/", append([]string{"GNUmakefile", "makefile", "Makefile", "*.mk", "*.sh", "*.y", "*.l",
		"*.f", "*.F", "*.p", "*.r"}, an.includedNames(buildFiles)...)...)
	// Every word is looked at, values of options included: -j and -l take
	// a value only when it is a number, which eachOption cannot tell.
	for _, a := range args {
		lhs, def, ok := strings.Cut(a.text, "=")
		if a.dynamic {
			an.opaque(name + " gets an argument that is only known when it runs")
			return
		}
		if !ok || strings.HasPrefix(a.text, "-") {
			continue
		}
		// make takes the name without the blanks around it (' MAKEFILES=x'
		// defines MAKEFILES).
		v := strings.TrimLeft(strings.TrimRight(lhs, ":!?+ \t"), " \t")
		if strings.ContainsAny(def, "$`") || strings.HasSuffix(lhs, "!") || v == "MAKEFLAGS" || v == "MFLAGS" ||
			v == "GNUMAKEFLAGS" || v == "SHELL" || v == ".SHELLFLAGS" {
			an.opaque(name + " " + clipName(a.text) + " defines a variable that runs or expands text")
			return
		}
		if v == "MAKEFILES" {
			// make reads the files it names as makefiles first.
			an.opaque(name + " " + clipName(a.text) + " names makefiles to read before the project's")
			return
		}
		// The value is what the recipes run where they use the variable
		// (CC='sh -c …', CC=./y with built-in or project rules): it is
		// guessed as a command, as an option's value given to a command
		// the analysis does not model is, and a program the line wrote
		// and made executable named in it is code make runs.
		an.hand(def)
		if !an.guess && def != "" {
			an.guessInner([]word{{text: def}}, 0, 0)
		}
	}
}

// isCompiler reports whether name is a C or C++ compiler driver: gcc, cc,
// g++, c++, clang or clang++, with a target prefix or a version suffix
// (x86_64-linux-gnu-gcc-12, clang-16).
func isCompiler(name string) bool {
	if i := strings.LastIndexByte(name, '-'); i > 0 && strings.Trim(name[i+1:], "0123456789.") == "" {
		name = name[:i]
	}
	if i := strings.LastIndexByte(name, '-'); i >= 0 {
		name = name[i+1:]
	}
	switch name {
	case "gcc", "cc", "g++", "c++", "clang", "clang++":
		return true
	}
	return false
}

// compiler marks the line opaque when a compiler driver runs its passes
// under a program the line names (-wrapper prog,args) or reads options
// from a file the analysis does not see (@file).
func (an *analyzer) compiler(name string, args []word) {
	for _, a := range args {
		switch {
		case a.text == "-wrapper" || strings.HasPrefix(a.text, "-wrapper="):
			an.opaque(name + " -wrapper runs its passes under a program it names")
			return
		case strings.HasPrefix(a.text, "@") || a.dynamic:
			an.opaque(name + " reads options the analysis does not see")
			return
		case strings.HasPrefix(a.text, "-Wl,") && strings.Contains(a.text, ",@"):
			an.opaque(name + " passes the linker a file of options the analysis does not see")
			return
		}
	}
	// The program it builds, which the line may run (cc -o m m.c &&
	// ./m), is made of its sources, the files an option names (-include
	// x.h) and the headers they include. It runs its passes (cc1, as,
	// collect2) from the directories of -B, and loads -fplugin's code,
	// from the directory of -iplugindir for a plugin named without a
	// path.
	for i, a := range args {
		t := a.text
		switch {
		case t == "-B" && i+1 < len(args):
			an.usesCode(name, args[i+1].text, "*")
		case strings.HasPrefix(t, "-B"):
			an.usesCode(name, t[2:], "*")
		case strings.HasPrefix(t, "-iplugindir="):
			// -fplugin=NAME loads NAME.so from there.
			an.usesCode(name, strings.TrimPrefix(t, "-iplugindir="), "*")
		case strings.HasPrefix(t, "-fplugin=") || strings.HasPrefix(t, "-specs=") || strings.HasPrefix(t, "--specs="):
			_, v, _ := strings.Cut(t, "=")
			an.usesCode(name, v)
		case strings.HasPrefix(t, "-Wl,"):
			// The linker's options: -plugin loads code (-Wl,-plugin,x.so,
			// -Wl,--plugin=x.so), and any of its operands is an input.
			for _, f := range strings.Split(t[len("-Wl,"):], ",") {
				an.linkerWord(name, f)
			}
		case i > 0 && args[i-1].text == "-Xlinker":
			an.linkerWord(name, t)
		case strings.HasPrefix(t, "-T") && len(t) > 2:
			// -Tscript: the linker script, which names the file the
			// linker writes (OUTPUT) and the files it reads.
			an.usesCode(name, t[2:])
		case t == "-" && (i == 0 || args[i-1].text != "-o"):
			an.stdinOpaque(name + " compiles code from its standard input")
		case !strings.HasPrefix(t, "-"):
			an.usesCode(name, t)
		}
	}
	an.usesCode(name, "/", buildFiles...)
}

// linkerWord records what one word a compiler driver passes its linker
// (-Wl,… or -Xlinker …) names as code the program is built of or the
// linker loads: an operand, or an option's value after '='.
func (an *analyzer) linkerWord(name, w string) {
	if !strings.HasPrefix(w, "-") {
		if w != "" {
			an.usesCode(name, w)
		}
	} else if _, v, ok := strings.Cut(w, "="); ok && v != "" {
		an.usesCode(name, v)
	}
}

// buildFiles are the base names of the files a C compiler, or make by its
// built-in rules (make m builds m from m.c), builds programs of: sources
// and the headers they include.
var buildFiles = []string{"*.c", "*.cc", "*.cpp", "*.cxx", "*.C", "*.m", "*.s", "*.S", "*.h", "*.hh", "*.hpp",
	"*.hxx", "*.inc", "*.def"}

// rustc marks the line opaque when rustc (or rustdoc) is told which
// program to link with (-C linker=prog, --codegen=linker=prog): it runs
// that program with arguments the analysis does not model.
func (an *analyzer) rustc(name string, args []word) {
	// The program it builds (rustc m.rs && ./m) is made of its sources,
	// the modules they name and the crates and procedural macros (shared
	// objects it loads) of --extern.
	an.usesCode(name, "/", "*.rs", "*.rlib", "*.so")
	for _, a := range args {
		if !strings.HasPrefix(a.text, "-") {
			an.usesCode(name, a.text)
		} else if _, v, ok := strings.Cut(a.text, "="); ok {
			an.usesCode(name, v)
		}
	}
	for i, a := range args {
		if strings.HasPrefix(a.text, "@") {
			// rustc @path reads more arguments from path (-o, -C
			// linker=), which the line does not show.
			an.opaque(name + " reads arguments from a file named after '@'")
			return
		}
		var val word
		switch t := a.text; {
		case (t == "-C" || t == "--codegen") && i+1 < len(args):
			val = args[i+1]
		case strings.HasPrefix(t, "-C"):
			val = word{text: t[2:], dynamic: a.dynamic}
		case strings.HasPrefix(t, "--codegen="):
			val = word{text: t[len("--codegen="):], dynamic: a.dynamic}
		default:
			continue
		}
		if key, _, _ := strings.Cut(val.text, "="); val.dynamic || strings.TrimSpace(key) == "linker" {
			an.opaque(name + " -C linker runs a program the command line names")
			return
		}
		if strings.Contains(val.text, "@") {
			// -C link-arg=@file: the linker reads arguments from file.
			an.opaque(name + " -C passes the linker a file of arguments")
			return
		}
	}
}

// outsideCode reports whether the clean absolute directory p, as named or
// through the symbolic links that lead from it (a project's inc linked to
// ../evil), lies outside the project and the system's own directories
// (see systemCodeDir).
func (an *analyzer) outsideCode(p string) bool {
	if an.workdir == "" {
		return !systemCodeDir(p)
	}
	wd := path.Clean(an.workdir)
	if !systemCodeDir(p) && !within(p, wd) {
		return true
	}
	real := filepath.ToSlash(pathmatch.Resolve(filepath.FromSlash(p)))
	return real != p && !systemCodeDir(real) && !within(real, wd) && !within(real, filepath.ToSlash(pathmatch.Resolve(filepath.FromSlash(wd))))
}

// systemCodeDir reports whether the clean absolute path p lies in a
// directory of installed software (/usr, /lib, /opt, the Nix store),
// whose headers and libraries a build may search.
func systemCodeDir(p string) bool {
	for _, d := range []string{"/usr", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix/store"} {
		if within(p, d) {
			return true
		}
	}
	return false
}

// cargoRustc applies rustc's checks to the words cargo rustc and cargo
// rustdoc pass on to rustc after "--" (cargo rustc -- -C linker=prog).
func (an *analyzer) cargoRustc(name string, args []word) {
	for i, a := range args {
		if a.text == "--" {
			return
		}
		if a.text == "rustc" || a.text == "rustdoc" {
			for j := i + 1; j < len(args); j++ {
				if args[j].text == "--" {
					an.rustc(name+" "+a.text, args[j+1:])
					return
				}
			}
			return
		}
	}
}

// goCommand marks the line opaque when the go command runs a program the
// line names: -toolexec runs every tool through a command line, -exec runs
// the built binary through one, -vettool names the vet program, and
// -ldflags=-extld=… names the external linker; or builds code from files
// it does not name as sources (-overlay).
func (an *analyzer) goCommand(name string, args []word) {
	for i, a := range args {
		if !strings.HasPrefix(a.text, "-") {
			continue
		}
		flag, val, hasVal := strings.Cut(strings.TrimLeft(a.text, "-"), "=")
		switch flag {
		case "toolexec", "exec", "vettool":
			an.opaque(name + " -" + flag + " runs a program the command line names")
			return
		case "overlay":
			// Its JSON file maps sources to files whose contents replace
			// them (m.go → x.txt): code under names no check sees.
			an.opaque(name + " -overlay builds sources from files its JSON file names")
			return
		case "ldflags":
			if !hasVal && i+1 < len(args) {
				val = args[i+1].text
			}
			if strings.Contains(val, "extld") || strings.Contains(val, "extar") {
				an.opaque(name + " -ldflags names the external linker or archiver")
				return
			}
		}
	}
}

// jdkTools are the JDK's launchers, which take @argfiles and pass -J
// options to the JVM they run.
var jdkTools = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"java": true, "javac": true, "jshell": true, "jar": true, "javadoc": true, "jlink": true, "jpackage": true,
		"jdeps": true, "jmod": true, "javap": true, "jdb": true, "keytool": true, "jarsigner": true,
		"jexec": true, "serialver": true,
	}
}}

// jdkCodePaths are the JDK tools' options whose value is a path list of
// jars and class directories the JVM loads code from: java's class and
// module paths and -jar, javac's annotation processors (found on the
// class path too), javadoc's doclets and taglets, keytool's and
// jarsigner's security providers. A jar is code whatever its name: java
// -jar x.txt ran a jar the line wrote (redteam133).
var jdkCodePaths = []string{"-jar", "-cp", "-classpath", "--class-path", "-p", "--module-path",
	"--upgrade-module-path", "-processorpath", "--processor-path", "--processor-module-path", "-docletpath",
	"-tagletpath", "-providerpath", "-providerPath"}

// java marks the line opaque when a JDK launcher runs a command line
// (-XX:OnError, -XX:OnOutOfMemoryError, which the JVM runs through a
// shell) or reads options the analysis does not see (@argfile,
// -XX:Flags=, -XX:VMOptionsFile=).
func (an *analyzer) java(name string, args []word) {
	source := false
	for _, a := range args {
		t := a.text
		switch {
		case strings.Contains(t, "-XX:OnError") || strings.Contains(t, "-XX:OnOutOfMemoryError"):
			an.opaque(name + " -XX:OnError runs a command line")
			return
		case strings.HasPrefix(t, "@") || a.dynamic || strings.Contains(t, "-XX:Flags=") || strings.Contains(t, "-XX:VMOptionsFile"):
			an.opaque(name + " reads options the analysis does not see")
			return
		case t == "--source" || strings.HasPrefix(t, "--source="):
			source = true
		}
	}
	// The JVM loads a native agent before anything else (-agentpath:PATH,
	// through a JDK tool's -J too), and the constructors of the shared
	// object run as it loads.
	// So does a Java agent (-javaagent:JAR[=OPTIONS]), whatever the
	// jar's name: its premain runs before main, in the JVM of any JDK
	// tool given -J-javaagent:JAR (javac, keytool, javap), and a jar the
	// line wrote as x.txt ran so (redteam133). --patch-module's jars and
	// directories replace a module's classes, and -Xbootclasspath/a:'s
	// are the boot loader's.
	for i, a := range args {
		t := strings.TrimPrefix(a.text, "-J")
		for _, opt := range []string{"-agentpath:", "-javaagent:"} {
			if p, ok := strings.CutPrefix(t, opt); ok {
				p, _, _ = strings.Cut(p, "=")
				an.usesCode(name, p)
			}
		}
		var entries string
		switch {
		case strings.HasPrefix(t, "--patch-module="):
			_, entries, _ = strings.Cut(strings.TrimPrefix(t, "--patch-module="), "=")
		case t == "--patch-module" && i+1 < len(args):
			_, entries, _ = strings.Cut(strings.TrimPrefix(args[i+1].text, "-J"), "=")
		case strings.HasPrefix(t, "-Xbootclasspath/a:"):
			entries = strings.TrimPrefix(t, "-Xbootclasspath/a:")
		}
		for _, e := range strings.Split(entries, ":") {
			if e != "" {
				an.usesCode(name, e)
			}
		}
	}
	for i, a := range args {
		opt, v, eq := strings.Cut(a.text, "=")
		if !contains(jdkCodePaths, opt) || strings.HasPrefix(opt, "-") && !strings.HasPrefix(opt, "--") && eq {
			continue // -cp=x is no option java knows
		}
		if !eq {
			if i+1 >= len(args) {
				continue
			}
			v = args[i+1].text
			if args[i+1].dynamic {
				an.opaque(name + " " + opt + " loads code from a path only known when the line runs")
				return
			}
		}
		for _, e := range strings.Split(v, ":") {
			if e != "" && !strings.HasSuffix(e, "*") {
				// A jar the line writes, whatever its name; a directory
				// of classes holds *.class files, code already (see
				// below), and what javac writes there is built from the
				// sources its code use checks (javac -d out && java -cp
				// out X).
				an.usesCode(name, e)
			}
		}
	}
	if name == "jexec" {
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") {
				an.usesCode(name, a.text) // jexec JAR runs the jar
				break
			}
		}
	}
	switch name {
	case "java", "javac", "jshell":
		// java runs a source file (java X.java) or the classes and jars
		// of its class path, the working directory by default (javac
		// X.java && java X), and the native libraries they load
		// (System.loadLibrary); with --source, any file is a source.
		an.usesCode(name, "/", "*.java", "*.class", "*.jar", "*.so")
		for _, a := range args {
			if source && !strings.HasPrefix(a.text, "-") {
				an.usesCode(name, a.text)
			}
		}
	}
}

// searchesCwd reports whether name, a searcher of fileCommands, given
// args and no path reads the tree of its working directory: grep, egrep
// and fgrep given -r, -R, --recursive, --dereference-recursive or -d
// recurse (in any spelling getopt takes, which errs on the side of a
// read), rg, ag and ack always.
func searchesCwd(name string, args []word) bool {
	switch name {
	case "rg", "ag", "ack":
		return true
	case "grep", "egrep", "fgrep":
	default:
		return false
	}
	for i, a := range args {
		t := a.text
		switch {
		case a.dynamic || t == "--":
			return a.dynamic
		case strings.HasPrefix(t, "--rec") || strings.HasPrefix(t, "--der") || strings.HasPrefix(t, "--di"):
			return true
		case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--"):
			for j := 1; j < len(t); j++ {
				if t[j] == 'r' || t[j] == 'R' || t[j] == 'd' && (t[j+1:] == "recurse" || j+1 == len(t) && i+1 < len(args) && args[i+1].text == "recurse") {
					return true
				}
				if strings.IndexByte("efmABCDd", t[j]) >= 0 {
					break // the rest is the option's value
				}
			}
		}
	}
	return false
}

// intoItself reports whether the copy or move name args, whose
// destination dest is the directory it runs in (., ./, ./.; not sub/..,
// which is above where a link sub leads), writes nothing of that
// directory but what its sources become inside it: each source is named
// outright, not by a pattern, a variable or a name that ends in / or .
// (rsync -a kit/ . and cp -r kit/. . copy kit's contents, .git among
// them, into the directory), and no -T makes the destination the copy
// itself. mv kit/x . and cp -r kit . then write ./x and ./kit (see
// into), not every file below ., which holds .git.
func intoItself(name string, args []word, dest word, srcs []word) bool {
	if name != "cp" && name != "mv" && name != "rsync" && name != "scp" {
		return false
	}
	if dest.dynamic || dest.pattern || dest.special || strings.HasPrefix(dest.text, "/") {
		return false
	}
	for _, c := range strings.Split(dest.text, "/") {
		if c != "" && c != "." {
			// sub/.. is where sub's link leads, and above it.
			return false
		}
	}
	if anyShortFlag(args, "T") || hasPrefix(args, "--no-t") || rsyncListed(name, args) {
		return false
	}
	for _, s := range srcs {
		if s.dynamic || s.pattern || s.special || s.text == "" || strings.HasSuffix(s.text, "/") {
			return false
		}
		if b := path.Base(s.text); b == "." || b == ".." || b == "/" {
			return false
		}
	}
	return true
}

// rsyncListed reports whether rsync given args copies the paths a file
// lists (--files-from) or its filter rules choose (--filter's merge
// files) below the destination, rather than each source under its name:
// rsync -a --files-from=list kit . wrote the ./.git/config list named
// (review of round 126).
func rsyncListed(name string, args []word) bool {
	return name == "rsync" && hasPrefix(args, "--fil")
}

// compilerWritesText reports whether a compiler driver given args writes
// text rather than a program or an object: it preprocesses (-E, -M, -MM,
// the macros of -dM), writes assembly (-S), declarations (-aux-info) or
// dumps (-fdump-…). The dependency file of -MD and -MMD beside a program
// is recorded on its own (see compilerDepFiles), and -Wp,… and -Wa,…
// pass everyday options (-Wp,-D_FORTIFY_SOURCE=2): a file one of them
// names is a word given to the compiler, which counts when it names a
// program's code (see literalName).
func compilerWritesText(args []word) bool {
	for _, a := range args {
		t := a.text
		switch t {
		case "-E", "-S", "-M", "-MM", "-dM", "-dD", "-dN", "-dI", "-dU", "--preprocess", "--assemble", "-aux-info":
			return true
		}
		if strings.HasPrefix(t, "-fdump-") || strings.HasPrefix(t, "-aux-info") {
			return true
		}
	}
	return false
}

// compilerDepFiles records the dependency files a compiler driver
// writes, whose rules' targets are the text of -MT, a word of the line: a
// makefile commonly includes them (cc -MMD -MT 'all: ; cd && touch x' -c
// x.c && make ran that command when the Makefile included x.d). -MF FILE
// and -Wp,-MD,FILE name one; -MD and -MMD without them write the output's
// name with .d for its suffix (-o sub/x.o: sub/x.d), or, without -o, each
// operand's base name with .d in the working directory (cc -MMD -c x.c
// writes x.d).
func (an *analyzer) compilerDepFiles(name string, args []word) {
	deps, named := false, false
	var out string
	var operands []string
	record := func(p string) {
		if p != "" {
			an.addAccess(word{text: p}, modeWrite, name+" -MF", false)
		}
	}
	for i := 0; i < len(args); i++ {
		t := args[i].text
		next := ""
		if i+1 < len(args) {
			next = args[i+1].text
		}
		switch {
		case t == "-MD" || t == "-MMD":
			deps = true
		case strings.HasPrefix(t, "-Wp,") && (strings.Contains(t, ",-MD,") || strings.Contains(t, ",-MMD,")):
			// -Wp,-MD,FILE: the preprocessor's -MD takes FILE.
			fields := strings.Split(t, ",")
			for j, f := range fields {
				if (f == "-MD" || f == "-MMD") && j+1 < len(fields) {
					record(fields[j+1])
				}
			}
			named = true
		case t == "-MF":
			record(next)
			named = true
			i++
		case strings.HasPrefix(t, "-MF"):
			record(t[3:])
			named = true
		case t == "-o":
			out = next
			i++
		case strings.HasPrefix(t, "-o") && len(t) > 2:
			out = t[2:]
		case compilerValued(t):
			i++ // -MT TARGET, -I DIR, -x c: not an operand
		case !strings.HasPrefix(t, "-") && t != "":
			operands = append(operands, t)
		}
	}
	if !deps || named {
		return
	}
	dep := func(p string) string { return strings.TrimSuffix(p, path.Ext(p)) + ".d" }
	if out != "" {
		record(dep(out))
		return
	}
	for _, o := range operands {
		if b := path.Base(o); b != "." && b != ".." && b != "/" {
			record(dep(b))
		}
	}
}

// compilerValued reports whether t is an option of a compiler driver
// that takes the next word as its value.
func compilerValued(t string) bool {
	switch t {
	case "-MT", "-MQ", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter", "-iquote", "-iprefix",
		"-iwithprefix", "-iwithprefixbefore", "-isysroot", "-x", "-L", "-l", "-Xlinker", "-Xassembler", "-Xpreprocessor",
		"-T", "-B", "-aux-info", "-e", "-u", "-z", "--param", "-arch", "-target", "--sysroot", "-dumpbase", "-dumpdir":
		return true
	}
	return false
}

// writtenOperands returns the operands of a program the analysis does not
// model that it writes, as an output option's value is written (see
// outputValue): every operand of sponge, which writes its standard input
// there, and of those that rewrite files in place (dos2unix, unix2dos,
// recode, indent); every operand after the first of those whose second
// operand is their output (cpp IN OUT, ps2ascii, ps2pdf and the other
// ghostscript scripts, pdftotext, the rst2* tools of docutils). A program
// of the line that runs such a file as code then runs what the line
// wrote: sponge x.d <<< '…' && make, with a Makefile that includes *.d.
func writtenOperands(name string, args []word) map[string]bool {
	base := name
	if i := strings.LastIndexByte(base, '-'); i > 0 && strings.Trim(base[i+1:], "0123456789.") == "" {
		base = base[:i] // cpp-12
	}
	if i := strings.LastIndexByte(base, '-'); i >= 0 && strings.HasSuffix(base, "-cpp") {
		base = base[i+1:] // x86_64-linux-gnu-cpp
	}
	all := false
	switch {
	case base == "sponge" || base == "dos2unix" || base == "unix2dos" || base == "mac2unix" || base == "unix2mac" ||
		base == "recode" || base == "indent":
		all = true
	case base == "cpp" || base == "pdftotext" || base == "pdftohtml" || base == "eps2eps" || base == "pdf2dsc" ||
		strings.HasPrefix(base, "ps2") || strings.HasPrefix(base, "pdf2ps") || strings.HasPrefix(base, "rst2"):
	default:
		return nil
	}
	outs := map[string]bool{}
	first := true
	for _, a := range args {
		if a.dynamic || a.special || a.text == "" || a.text == "-" || strings.HasPrefix(a.text, "-") {
			continue
		}
		if all || !first {
			outs[a.text] = true
		}
		first = false
	}
	return outs
}
