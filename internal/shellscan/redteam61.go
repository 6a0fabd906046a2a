package shellscan

import (
	"path"
	"slices"
	"strings"
)

// This file holds what round redteam61 found the analysis did not model:
// settings and code that everyday tools read under names the tables did
// not list (bun's .env.test and .env.local, flask's .flaskenv, pandoc's
// defaults without their .yaml and its data directory, the other cgo
// sources go builds, the tests maven compiles and runs), code given in a
// word the analysis took for a name (flask's --app module:factory('…'),
// pandoc's Lua filter of any name), code read from the standard input
// (flask shell, Django's shell, python -m pickle -), and doctests (pytest's
// test*.txt, the README.md cargo test runs as a crate's documentation).

// rt61EnvFiles are the files bun loads into its environment where it
// runs, besides .env: .env.local and the .env.NODE_ENV of its mode
// (.env.test for bun test, .env.development, .env.production, or any name
// NODE_ENV gives). A variable there (NODE_OPTIONS, GIT_CONFIG_*, LD_PRELOAD)
// reaches every child the project's code starts.
var rt61EnvFiles = []string{".env", ".env.*"}

// rt61AppCallers reports whether name is one of the Python servers whose application is named
// module:attr and may be called there with arguments (flask --app
// "m:create('x')", gunicorn "m:create('x')"): the call may be any function
// of any module (subprocess:getoutput('…')), so a word holding a '(' runs
// code the analysis does not see.
func rt61AppCallers(name string) bool {
	switch name {
	case "flask", "gunicorn", "hypercorn", "granian", "uvicorn", "daphne", "waitress-serve":
		return true
	}
	return false
}

// rt61FactoryCall reports whether w calls an application factory of
// the project with no arguments (module.path:create_app()): the project's
// own code, which the server imports anyway. A call with arguments, or of
// any other function (pip's main() reads the server's other words as its
// own), may do anything. The names are those Flask's and gunicorn's
// documentation give an application factory.
func rt61FactoryCall(w string) bool {
	mod, call, ok := strings.Cut(w, ":")
	fn, ok2 := strings.CutSuffix(call, "()")
	if !ok || !ok2 || mod == "" || !slices.Contains([]string{"create_app", "make_app", "get_app", "build_app", "app_factory"}, fn) {
		return false
	}
	for _, r := range mod {
		if r != '.' && r != '_' && !('a' <= r && r <= 'z') && !('A' <= r && r <= 'Z') && !('0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// rt61DjangoShells reports whether sub is one of the subcommands of Django's manage.py and
// django-admin that run code from their standard input or their -c (shell)
// or hand it to a database client that runs commands (dbshell).
func rt61DjangoShells(sub string) bool {
	switch sub {
	case "shell", "dbshell", "shell_plus":
		return true
	}
	return false
}

// addRT61ProjectFiles adds to m (projectFiles) the files maven builds and
// runs besides its settings (the sources of src/main and src/test, whose
// tests mvn test, package and verify run), and the pip.conf (pip.ini) of
// a virtual environment, whose log, src, target … every pip command
// follows (.venv/bin/pip list writes the log= file).
func addRT61ProjectFiles(m map[string][]string) {
	m["mvn"] = append(m["mvn"][:len(m["mvn"]):len(m["mvn"])], "*.java", "*.kt", "*.groovy", "*.scala")
	m["pip"] = append(m["pip"][:len(m["pip"]):len(m["pip"])], rt61PipSettings...)
}

// rt61PipSettings are pip's settings files, in a virtual environment.
var rt61PipSettings = []string{"pip.conf", "pip.ini"}

// rt61OptionValues returns the values args give the one-letter option
// short ("" for none) or the long option long, which GNU getopt and
// Haskell's GetOpt also take abbreviated down to min (--lua-f for
// --lua-filter): attached (-Lx, --long=x) or the next word, up to "--".
func rt61OptionValues(args []word, short, long, min string) []word {
	var out []word
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		if t == "--" && !a.dynamic {
			break
		}
		name, v, eq := strings.Cut(t, "=")
		switch {
		case strings.HasPrefix(t, "--") && len(name) >= len(min) && strings.HasPrefix(long, name):
			if eq {
				out = append(out, word{text: v, dynamic: a.dynamic})
			} else if i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
		case short != "" && t == "-"+short:
			if i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
		case short != "" && strings.HasPrefix(t, "-"+short) && !strings.HasPrefix(t, "--"):
			out = append(out, word{text: t[2:], dynamic: a.dynamic})
		}
	}
	return out
}

// rt61ToolCode records the code of round redteam61's programs the
// analysis does not model (see toolCode): flask's dotenv files and its
// --env-file, the standard input of flask shell and django-admin shell,
// a call in a server's application word, and pandoc's Lua filters,
// defaults and data directory.
func (an *analyzer) rt61ToolCode(name string, args []word) {
	if onlyVersion(args) {
		return
	}
	if rt61AppCallers(name) {
		for _, a := range args {
			if a.dynamic || strings.Contains(a.text, "(") && !rt61FactoryCall(a.text) {
				an.opaque(name + " calls the function its application word names, with the arguments given there")
				return
			}
		}
	}
	if rt61Linkers(name) {
		an.rt61Linker(name, args)
		return
	}
	switch name {
	case "flask":
		// python-dotenv, when installed, loads .flaskenv and .env (and
		// the file of --env-file): FLASK_APP there may call anything.
		an.usesCode(name, "/", ".flaskenv", ".env")
		for _, v := range rt61OptionValues(args, "e", "--env-file", "--env-file") {
			an.rt61CodeFile(name, v)
		}
		for _, a := range args {
			if a.text == "shell" {
				an.stdinOpaque("flask shell runs the Python of its standard input")
			}
		}
	case "django-admin":
		if len(args) > 0 && rt61DjangoShells(args[0].text) {
			an.opaque("django-admin " + args[0].text + " runs code given on the command line or its standard input")
		}
	case "pandoc":
		// A Lua filter is Lua whatever its name; -d x reads x.yaml
		// when x has no extension; the data directory holds defaults,
		// filters, init.lua and templates pandoc loads by name.
		for _, v := range rt61OptionValues(args, "L", "--lua-filter", "--lu") {
			an.rt61CodeFile(name, v)
		}
		// A filter is a program pandoc runs, looked for first at the
		// path given, bare names included (--filter f runs ./f).
		for _, v := range rt61OptionValues(args, "F", "--filter", "--filt") {
			if !v.dynamic && v.text != "" {
				an.usesCode(name, v.text)
			}
		}
		for _, v := range rt61OptionValues(args, "d", "--defaults", "--defaults") {
			if !v.dynamic && v.text != "" && path.Ext(v.text) == "" {
				an.usesCode(name, v.text+".yaml")
			}
		}
		for _, v := range rt61OptionValues(args, "", "--data-dir", "--da") {
			if v.dynamic || v.text == "" {
				an.opaque("pandoc --data-dir names a directory only known when the line runs")
				return
			}
			an.usesDir(name, v.text)
		}
	}
}

// rt61CodeFile records the file v names as code prog runs; a word only
// known when the line runs, or "-" (the standard input), makes the line
// opaque.
func (an *analyzer) rt61CodeFile(prog string, v word) {
	if v.dynamic || v.text == "" || v.text == "-" {
		an.opaque(prog + " runs a file of code named by a word only known when the line runs, or its standard input")
		return
	}
	an.usesCode(prog, v.text)
}

// rt61Bun records the .env files bun loads where it runs (see
// rt61EnvFiles).
func (an *analyzer) rt61Bun(args []word) {
	if !onlyVersion(args) {
		an.usesCode("bun", "/", rt61EnvFiles...)
	}
}

// rt61PythonModule returns why python -m mod args runs code the analysis
// does not see, or "": pickle loads each operand, "-" its standard input,
// and unpickling calls whatever function the pickle names. It also
// records the code python -m coverage and python -m flask load, as
// coverage's and flask's (see rt61ToolCode).
func (an *analyzer) rt61PythonModule(mod string, args []word) string {
	switch mod {
	case "pickle":
		for _, a := range args {
			if a.dynamic || a.text == "-" {
				return "python -m pickle - unpickles its standard input, which calls any function the pickle names"
			}
		}
	case "coverage":
		an.usesCode("coverage", "/", rcCodeFiles.get()["coverage"]...)
	case "flask":
		an.usesCode("flask", "/", runnerCode.get()["flask"]...)
		an.rt61ToolCode("flask", args)
	case "pytest":
		an.rt61Pytest(args)
	case "pip":
		an.usesCode("pip", "/", rt61PipSettings...)
	}
	return ""
}

// rt61PythonScript returns why python runs script with the words after
// it in a way that runs code the analysis does not see, or "": Django's
// manage.py shell runs the code of its standard input and of -c, dbshell
// hands its standard input to the database's client.
func rt61PythonScript(script string, after []word) string {
	if path.Base(script) == "manage.py" && len(after) > 0 && (after[0].dynamic || rt61DjangoShells(after[0].text)) {
		return "manage.py " + clipName(after[0].text) + " runs code given on the command line or its standard input"
	}
	return ""
}

// rt61Pytest records the files whose doctests pytest runs: test*.txt by
// default, and those the patterns of --doctest-glob match (README.md,
// *.rst), wherever it collects. A pattern only known when the line runs
// makes the line opaque.
func (an *analyzer) rt61Pytest(args []word) {
	an.usesCode("pytest", "/", "test*.txt")
	for _, v := range rt61OptionValues(args, "", "--doctest-glob", "--doctest-g") {
		if v.dynamic || v.text == "" {
			an.opaque("pytest --doctest-glob matches files only known when the line runs")
			return
		}
		an.usesCode("pytest", "/", path.Base(v.text))
	}
}

// rt61Cargo records, for cargo test, the Markdown files whose doctests
// it runs: a crate's documentation often includes its README.md
// (#![doc = include_str!("../README.md")]), whose rust blocks cargo test
// builds and runs.
func (an *analyzer) rt61Cargo(args []word) {
	for _, a := range args {
		if a.dynamic || a.text == "test" || a.text == "t" {
			an.usesCode("cargo", "/", "*.md", "*.markdown")
			return
		}
	}
}

// rt61Linkers reports whether name is a linker run by name. A linker script, given by -T,
// --script, -dT, --default-script or -c (an MRI script), or as an input
// file that is no object, names the file the linker writes (OUTPUT) and
// the files it reads and includes.
func rt61Linkers(name string) bool {
	switch name {
	case "ld", "ld.bfd", "ld.gold", "gold", "ld.lld", "lld", "ld.mold", "mold":
		return true
	}
	return false
}

// rt61Linker records each word a linker is given, an operand or an
// option's value (attached, after '=', or the next word, which is then an
// operand), as a script it may read: one the line wrote may send the
// output anywhere.
func (an *analyzer) rt61Linker(name string, args []word) {
	for _, a := range args {
		t := a.text
		switch {
		case a.dynamic:
			an.opaque(name + " is given a word only known when the line runs, which may name a linker script")
			return
		case !strings.HasPrefix(t, "-"):
			an.usesCode(name, t)
		case strings.Contains(t, "="):
			_, v, _ := strings.Cut(t, "=")
			an.usesCode(name, v)
		case strings.HasPrefix(t, "-dT") && len(t) > 3:
			an.usesCode(name, t[3:])
		case strings.HasPrefix(t, "-T") && len(t) > 2:
			an.usesCode(name, t[2:])
		}
	}
}
