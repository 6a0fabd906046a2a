package shellscan

import (
	"path"
	"slices"
	"strings"
)

// cmakeCodeVariables are the cache variables whose value names a file
// cmake runs as CMake code, a program it runs, or flags the compiler
// takes paths of code from, by the end of their name.
var cmakeCodeVariables = []string{"_FILE", "_INCLUDE", "_INCLUDE_BEFORE", "_OVERRIDE", "_COMPILER",
	"_LAUNCHER", "_FLAGS", "_FLAGS_INIT", "_MODULE_PATH", "_PREFIX_PATH", "_LINKER", "_AR", "_RANLIB", "_DIR",
	"_ROOT", "_SYSROOT", "_PROGRAM", "_EXECUTABLE", "_COMMAND"}

// cmakePaths checks the words of cmake configuring a project (not its
// -E, --build, --install or --workflow modes, whose words are left as
// they are): the source directory (-S dir, or an operand, cmake .. from a
// build directory) holds the CMakeLists.txt it runs, -C a script that
// fills its cache, -P a script it runs, and -D variables (see
// cmakeCodeVariables) a toolchain file, an included file, a compiler or
// launcher and flags. One of them outside the project and the system's
// own directories makes the line opaque, as a compiler's -I does. The
// source directory, -S's, or an operand that is the project's root from
// the command's directory, is only read: it is left out of the words it
// returns, which are checked as paths cmake may write ("." named the
// whole project, which holds protected paths: cmake -S . -B build asked).
func (an *analyzer) cmakePaths(name string, args []word) []word {
	for _, a := range args {
		switch a.text {
		case "-E", "--build", "--install", "--open", "--workflow", "--find-package":
			return args
		}
	}
	c := compilerCheck{an: an, name: name}
	rest := make([]word, 0, len(args))
	value := func(i int, opt string) (word, int, bool) {
		a := args[i]
		if a.text == opt {
			if i+1 == len(args) {
				return word{}, i, false
			}
			return args[i+1], i + 1, true
		}
		v := a
		v.text = strings.TrimPrefix(a.text[len(opt):], "=")
		return v, i, true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a.text, "-S"):
			v, j, ok := value(i, "-S")
			if !ok {
				return rest
			}
			an.pathArg(v, modeRead, name)
			c.judge("-S", v, v.text, "the CMakeLists.txt it runs")
			i = j
		case strings.HasPrefix(a.text, "-C"), strings.HasPrefix(a.text, "-P") && !strings.HasPrefix(a.text, "-Wdev"):
			opt := a.text[:2]
			v, j, ok := value(i, opt)
			if !ok {
				return rest
			}
			an.pathArg(v, modeRead, name)
			c.judge(opt, v, v.text, "a CMake script it runs")
			rest = append(rest, v)
			i = j
		case strings.HasPrefix(a.text, "-B"):
			// The build directory, which it writes.
			v, j, ok := value(i, "-B")
			if !ok {
				return rest
			}
			rest = append(rest, v)
			i = j
		case strings.HasPrefix(a.text, "-D"):
			v, j, ok := value(i, "-D")
			if !ok {
				return rest
			}
			lhs, val, found := strings.Cut(v.text, "=")
			variable, _, _ := strings.Cut(lhs, ":")
			code := false
			for _, s := range cmakeCodeVariables {
				code = code || strings.HasSuffix(variable, s)
			}
			if !found || !code {
				// Other values may name where a later build writes
				// (CMAKE_RUNTIME_OUTPUT_DIRECTORY): they stay among the
				// paths checked as writes.
				rest = append(rest, a)
				if j > i {
					rest = append(rest, v)
				}
				i = j
				continue
			}
			i = j
			// A list (a;b), flags (-I../x -O2) or a program with its
			// arguments: each field, and an option's attached value, is
			// judged as a path.
			for _, f := range strings.FieldsFunc(val, func(r rune) bool { return r == ';' || r == ' ' || r == '\t' }) {
				if strings.HasPrefix(f, "-") {
					an.compilerDirs(name+" -D"+variable, []word{{text: f, dynamic: v.dynamic}})
					continue
				}
				c.judge("-D"+variable, word{text: f, dynamic: v.dynamic}, f, "code it runs or builds")
			}
		case !strings.HasPrefix(a.text, "-") && !a.dynamic && !a.pattern && a.alts == nil:
			// The source directory, or a build directory it configures
			// again, which it writes.
			c.judge("the source directory", a, a.text, "the CMakeLists.txt it runs")
			root := true
			for _, cwd := range an.commandCwds() {
				root = root && an.resolve(cwd, a.text) == path.Clean(an.workdir)
			}
			if root && an.workdir != "" {
				an.pathArg(a, modeRead, name)
				continue
			}
			rest = append(rest, a)
		default:
			rest = append(rest, a)
		}
	}
	return an.fromCommandCwd(rest)
}

// cmakeScriptVariables are the cache variables whose value names a file
// cmake includes as CMake code, by the end of their name
// (CMAKE_TOOLCHAIN_FILE, CMAKE_PROJECT_INCLUDE, CMAKE_PROJECT_x_INCLUDE,
// CMAKE_USER_MAKE_RULES_OVERRIDE, CMAKE_PROJECT_TOP_LEVEL_INCLUDES).
var cmakeScriptVariables = []string{"_FILE", "_INCLUDE", "_INCLUDE_BEFORE", "_OVERRIDE", "_INCLUDES"}

// cmakeScripts records the files cmake, ctest and cpack run as CMake code
// whatever their names: cmake -P (a script), -C (a script that fills the
// cache), --toolchain and the files of cmakeScriptVariables; ctest -S
// and -SP (--script, --script-new-process, a dashboard script, whose
// ",options" may follow); cpack --config. CMake code runs any program
// (execute_process) and writes any file (file(WRITE)): written by the
// line, such a file is its own code (printf 'file(WRITE ../home/p x)' >
// t.txt && cmake -P t.txt wrote into the home and was allowed, round
// redteam132, which took only *.cmake and CMakeLists.txt for code).
func (an *analyzer) cmakeScripts(name string, args []word) {
	var files []word
	switch name {
	case "cmake":
		files = append(files, rt61OptionValues(args, "P", "", "")...)
		files = append(files, rt61OptionValues(args, "C", "", "")...)
		files = append(files, rt61OptionValues(args, "", "--toolchain", "--toolchain")...)
		for _, v := range rt61OptionValues(args, "D", "", "") {
			lhs, val, ok := strings.Cut(v.text, "=")
			variable, _, _ := strings.Cut(lhs, ":")
			if !ok && !v.dynamic {
				continue
			}
			for _, suffix := range cmakeScriptVariables {
				if v.dynamic || strings.HasSuffix(variable, suffix) {
					for _, f := range strings.Split(val, ";") {
						files = append(files, word{text: f, dynamic: v.dynamic})
					}
					break
				}
			}
		}
	case "ctest":
		for i, a := range args {
			switch a.text {
			case "-S", "-SP", "--script", "--script-new-process":
				if i+1 < len(args) {
					v := args[i+1]
					v.text, _, _ = strings.Cut(v.text, ",")
					files = append(files, v)
				}
			}
		}
	case "cpack":
		files = append(files, rt61OptionValues(args, "", "--config", "--config")...)
	default:
		return
	}
	for _, f := range files {
		if f.dynamic {
			an.opaque(name + " runs a CMake script named by a word only known when the line runs")
			return
		}
		if f.text != "" {
			an.usesCode(name, f.text)
		}
	}
}

// A buildFileOption is an option of a build tool or task runner whose
// value names the file of rules, tasks or build code it runs, whatever
// its name: the one-letter option (short, "" for none) and the long one
// (long, taken abbreviated down to min).
type buildFileOption struct{ short, long, min string }

// buildFileOptionsOf are, by program, the options of buildFileOption
// (ninja -f, just --justfile, mvn -f, gradle --init-script …): the files
// of projectFiles are recognized by their names only.
var buildFileOptionsOf = lazy[map[string][]buildFileOption]{build: func() map[string][]buildFileOption {
	return map[string][]buildFileOption{
		"ninja":      {{"f", "", ""}},
		"samu":       {{"f", "", ""}},
		"just":       {{"f", "--justfile", "--justfile"}},
		"task":       {{"t", "--taskfile", "--taskfile"}},
		"go-task":    {{"t", "--taskfile", "--taskfile"}},
		"mvn":        {{"f", "--file", "--file"}},
		"mvnw":       {{"f", "--file", "--file"}},
		"gradle":     {{"b", "--build-file", "--build-file"}, {"c", "--settings-file", "--settings-file"}, {"I", "--init-script", "--init-script"}},
		"gradlew":    {{"b", "--build-file", "--build-file"}, {"c", "--settings-file", "--settings-file"}, {"I", "--init-script", "--init-script"}},
		"tox":        {{"c", "--conf", "--conf"}},
		"rake":       {{"f", "--rakefile", "--rakefile"}},
		"scons":      {{"f", "--sconstruct", "--sconstruct"}, {"", "--file", "--file"}},
		"bmake":      {{"f", "", ""}},
		"pre-commit": {{"c", "--config", "--config"}},
		"snakemake":  {{"s", "--snakefile", "--snakefile"}},
		"gulp":       {{"f", "--gulpfile", "--gulpfile"}},
		"grunt":      {{"", "--gruntfile", "--gruntfile"}},
		"fab":        {{"f", "--fabfile", "--fabfile"}},
		// bundle check, lock and the others take the Gemfile of
		// --gemfile, Ruby code whatever its name (redteam133).
		"bundle":  {{"", "--gemfile", "--gemfile"}},
		"bundler": {{"", "--gemfile", "--gemfile"}},
	}
}}

// buildFileOptions records the file each option of buildFileOptionsOf
// names as code the program runs, and ant's -f, -file and -buildfile: a
// file of rules the line wrote under another name is its own code
// (printf 'rule r\n  command = touch ../home/pwn\nbuild x: r\n' > t.txt
// && ninja -f t.txt wrote into the home and was allowed, round
// redteam132, which took only build.ninja and *.ninja for ninja's code).
func (an *analyzer) buildFileOptions(name string, args []word) {
	var files []word
	if name == "ant" {
		for i, a := range args {
			if (a.text == "-f" || a.text == "-file" || a.text == "-buildfile") && i+1 < len(args) {
				files = append(files, args[i+1])
			}
		}
	}
	for _, o := range buildFileOptionsOf.get()[name] {
		files = append(files, rt61OptionValues(args, o.short, o.long, o.min)...)
	}
	if name == "ninja" || name == "samu" {
		// ninja -C DIR takes -f's file from DIR.
		for _, d := range rt61OptionValues(args, "C", "", "") {
			for _, f := range slices.Clone(files) {
				if !f.dynamic && !path.IsAbs(f.text) {
					files = append(files, word{text: path.Join(d.text, f.text), dynamic: d.dynamic})
				}
			}
		}
	}
	for _, f := range files {
		if f.dynamic {
			an.opaque(name + " runs a file of build code named by a word only known when the line runs")
			return
		}
		if f.text != "" {
			an.usesCode(name, f.text)
		}
	}
}
