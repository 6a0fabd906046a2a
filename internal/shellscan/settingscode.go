package shellscan

import (
	"slices"
	"strings"
)

// settingsCode are, for programs the analysis does not model that
// projectFiles, rcCodeFiles and runnerCode do not list, the base names of
// the files they read where they run (or in a directory above it) that
// name commands they run, code they load, or directories outside the
// workdir they write: Doxygen's Doxyfile (INPUT_FILTER and FILTER_PATTERNS
// run a command for each input, OUTPUT_DIRECTORY), hugo's configuration
// (publishDir, cacheDir), autoconf's configure.ac and m4 files
// (m4_esyscmd runs a command as autoconf reads them), tsc's tsconfig.json
// (outDir, declarationDir, and extends, which may name any .json),
// mdbook's book.toml (the command of a preprocessor or renderer),
// release and task tools' hooks (goreleaser, air, release-it, tbump,
// cz), build descriptions in a language of their own (BUCK, BUILD.gn's
// exec_script, a qmake .pro's system(), premake's and xmake's Lua),
// hosting tools' build commands (cdk.json's app, wrangler.toml,
// netlify.toml, vercel.json, firebase.json), linters' plugins and
// bootstrap files (.rubocop.yml's require, phpunit.xml's bootstrap,
// .golangci.yml's plugins), and REPL start files (.ghci, .iex.exs). A line
// that writes one and then runs the program runs what it wrote, as
// printf … > Makefile && make does (see runsWrittenCode).
var settingsCode = lazy[map[string][]string]{build: func() map[string][]string {
	node := languageFiles.get()["node"]
	gofiles := []string{"*.go", "go.mod", "go.work", "*.s", "*.c", "*.h"}
	php := []string{"*.php", "composer.json", "vendor/"}
	autoconf := []string{"configure.ac", "configure.in", "aclocal.m4", "acinclude.m4", "*.m4", "Makefile.am", "*.am"}
	m := map[string][]string{
		"doxygen": {"Doxyfile", "doxyfile", "Doxyfile.in"},
		"hugo": {"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml",
			"config.json", "config/", "theme.toml", "go.mod"},
		"tsc":                     {"tsconfig.json", "tsconfig.*.json", "jsconfig.json", "*.json"},
		"mdbook":                  {"book.toml"},
		"jekyll":                  {"_config.yml", "_config.yaml", "_config.toml", "_plugins/", "*.rb", "Gemfile"},
		"goreleaser":              append([]string{".goreleaser.yml", ".goreleaser.yaml", "goreleaser.yml", "goreleaser.yaml"}, gofiles...),
		"air":                     append([]string{".air.toml", "air.toml", ".air.conf"}, gofiles...),
		"mage":                    append([]string{"magefiles/"}, gofiles...),
		"ko":                      append([]string{".ko.yaml", ".ko.yml"}, gofiles...),
		"golangci-lint":           {".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json", ".custom-gcl.yml", "*.so"},
		"buf":                     {"buf.yaml", "buf.gen.yaml", "buf.work.yaml", "buf.lock"},
		"sqlc":                    {"sqlc.yaml", "sqlc.yml", "sqlc.json"},
		"skaffold":                {"skaffold.yaml", "skaffold.yml", "*.yaml", "*.yml"},
		"buck2":                   {"BUCK", "TARGETS", "BUCK.v2", "TARGETS.v2", "PACKAGE", ".buckconfig", ".buckconfig.*", "*.bzl", "*.star"},
		"guard":                   {"Guardfile", ".guard.rb", "*.rb"},
		"premake5":                {"premake5.lua", "*.lua"},
		"xmake":                   {"xmake.lua", "*.lua"},
		"gn":                      {".gn", "BUILD.gn", "*.gn", "*.gni", "*.py"},
		"qmake":                   {"*.pro", "*.pri", "*.prf", ".qmake.conf", ".qmake.cache"},
		"pio":                     {"platformio.ini", "*.py"},
		"pulumi":                  append([]string{"Pulumi.yaml", "Pulumi.yml", "Pulumi.*.yaml", "*.py", "requirements.txt"}, node...),
		"cdk":                     append([]string{"cdk.json", "cdk.context.json", "*.py"}, node...),
		"serverless":              append([]string{"serverless.yml", "serverless.yaml", "serverless.json", "serverless.ts"}, node...),
		"sam":                     {"template.yaml", "template.yml", "template.json", "samconfig.toml", "samconfig.yaml", "Makefile"},
		"helmfile":                {"helmfile.yaml", "helmfile.yaml.gotmpl", "helmfile.d/", "*.yaml", "*.yml", "*.gotmpl"},
		"devcontainer":            {"devcontainer.json", ".devcontainer.json", ".devcontainer/"},
		"lerna":                   append([]string{"lerna.json"}, node...),
		"rush":                    append([]string{"rush.json", "command-line.json"}, node...),
		"release-it":              append([]string{".release-it.json", ".release-it.js", ".release-it.cjs", ".release-it.yaml", ".release-it.yml", ".release-it.toml"}, node...),
		"standard-version":        append([]string{".versionrc", ".versionrc.json", ".versionrc.js"}, node...),
		"cz":                      {".cz.toml", "cz.toml", ".cz.json", "cz.json", ".cz.yaml", "cz.yaml", "pyproject.toml", "*.py"},
		"bumpversion":             {".bumpversion.cfg", ".bumpversion.toml", "setup.cfg", "pyproject.toml"},
		"tbump":                   {"tbump.toml", "pyproject.toml"},
		"plop":                    node,
		"projen":                  append([]string{".projenrc.py", ".projenrc.json", ".projenrc.java", "*.py"}, node...),
		"eleventy":                node,
		"docusaurus":              node,
		"wrangler":                append([]string{"wrangler.toml", "wrangler.json", "wrangler.jsonc"}, node...),
		"netlify":                 append([]string{"netlify.toml"}, node...),
		"vercel":                  append([]string{"vercel.json", ".vercel/"}, node...),
		"firebase":                append([]string{"firebase.json", ".firebaserc"}, node...),
		"quarto":                  {"_quarto.yml", "_quarto.yaml", "_quarto-*.yml", "_quarto-*.yaml", "_metadata.yml", "*.py", "*.R", "*.lua", "*.ts"},
		"latexmk":                 {".latexmkrc", "latexmkrc", "*.pl"},
		"rubocop":                 {".rubocop.yml", ".rubocop_todo.yml", ".rubocop*.yml", ".rubocop", "*.rb", "Gemfile"},
		"phpunit":                 append([]string{"phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml"}, php...),
		"phpstan":                 append([]string{"phpstan.neon", "phpstan.neon.dist", "phpstan.dist.neon", "*.neon"}, php...),
		"psalm":                   append([]string{"psalm.xml", "psalm.xml.dist"}, php...),
		"php-cs-fixer":            append([]string{".php-cs-fixer.php", ".php-cs-fixer.dist.php", ".php_cs", ".php_cs.dist"}, php...),
		"rector":                  php,
		"phpcs":                   append([]string{".phpcs.xml", "phpcs.xml", ".phpcs.xml.dist", "phpcs.xml.dist"}, php...),
		"busted":                  {".busted", "*.lua"},
		"iex":                     {".iex.exs", "*.exs", "*.ex"},
		"haskell-language-server": {"hie.yaml", "*.cabal", "cabal.project", "stack.yaml", "Setup.hs", "*.hs"},
		"dprint":                  {"dprint.json", ".dprint.json", "dprint.jsonc", ".dprint.jsonc"},
		"pants":                   {"pants.toml", ".pants.toml", "BUILD", "BUILD.pants", "*.py"},
		"plz":                     {".plzconfig", ".plzconfig.*", "BUILD", "BUILD.plz", "*.build_defs", "*.build_def"},
		"moon":                    {"moon.yml", ".moon/"},
		"bsb":                     {"bsconfig.json", "rescript.json", "package.json"},
		// Hook managers run by hand run the commands of their
		// configuration, as git runs them for a commit.
		"lefthook":   {"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml", "lefthook-local.yml", "lefthook-local.yaml", ".lefthook-local.yml", ".lefthook/"},
		"overcommit": {".overcommit.yml", "*.rb"},
		"prek":       {".pre-commit-config.yaml", ".pre-commit-config.yml", ".pre-commit-hooks.yaml", "prek.toml"},
		"lint-staged": append([]string{".lintstagedrc", ".lintstagedrc.json", ".lintstagedrc.yaml", ".lintstagedrc.yml",
			".lintstagedrc.mjs", ".lintstagedrc.cjs", ".lintstagedrc.js", "lint-staged.config.*"}, node...),
		// The command nodemon runs (exec), the scripts tap runs before
		// its tests, the directories c8 and nyc write (temp-dir,
		// report-dir), the plugins of JavaScript tools' JSON and YAML
		// settings (a path to a module), and build hooks (tauri's
		// beforeBuildCommand, electron-builder's afterPack, Trunk's
		// hooks, semantic-release's exec plugin, cog's pre_bump_hooks).
		"nodemon":                append([]string{"nodemon.json"}, node...),
		"tap":                    append([]string{".taprc", ".taprc.yml", ".taprc.yaml"}, node...),
		"c8":                     append([]string{".c8rc", ".c8rc.json", ".c8rc.yml", ".c8rc.yaml"}, node...),
		"nyc":                    append([]string{".nycrc", ".nycrc.json", ".nycrc.yml", ".nycrc.yaml"}, node...),
		"stylelint":              append([]string{".stylelintrc.json", ".stylelintrc.yml", ".stylelintrc.yaml"}, node...),
		"postcss":                append([]string{".postcssrc.json", ".postcssrc.yml", ".postcssrc.yaml"}, node...),
		"babel":                  append([]string{".babelrc.json", "babel.config.json"}, node...),
		"svgo":                   append([]string{".svgo.yml", ".svgo.yaml"}, node...),
		"semantic-release":       append([]string{".releaserc", ".releaserc.json", ".releaserc.yaml", ".releaserc.yml", "releaserc.toml", "pyproject.toml"}, node...),
		"jsdoc":                  append([]string{"conf.json", "jsdoc.json", ".jsdoc.json", "*.json"}, node...),
		"tslint":                 append([]string{"tslint.json", "tslint.yaml", "*.json"}, node...),
		"swc":                    {".swcrc", "*.wasm"},
		"electron-builder":       append([]string{"electron-builder.yml", "electron-builder.yaml", "electron-builder.json", "electron-builder.toml"}, node...),
		"tauri":                  append([]string{"tauri.conf.json", "tauri.*.conf.json", "Tauri.toml", "tauri.conf.json5", "*.rs", "Cargo.toml"}, node...),
		"trunk":                  {"Trunk.toml", ".trunk.toml", "index.html", "*.rs", "Cargo.toml"},
		"cog":                    {"cog.toml"},
		"commit-and-tag-version": append([]string{".versionrc", ".versionrc.json", ".versionrc.js"}, node...),
		"zola":                   {"config.toml", "zola.toml"},
		// Python's tools: ruff's cache-dir may lie anywhere, pytest-cov
		// writes the data_file of .coveragerc, a PyInstaller .spec is
		// Python, towncrier writes the file its settings name and
		// deletes the fragments of its directory, python-semantic-release
		// runs build_command, pip-compile builds the projects its
		// requirements name.
		"ruff":        {"ruff.toml", ".ruff.toml", "pyproject.toml"},
		"pytest":      {".coveragerc"},
		"pyinstaller": {"*.spec", "*.py", "*.pth", "*.so"},
		"towncrier":   {"towncrier.toml", "pyproject.toml"},
		"pip-compile": {"requirements*.in", "requirements*.txt", "*.in", "pyproject.toml", "setup.cfg", "setup.py"},
		// clang-tidy gives the compiler the arguments of .clang-tidy's
		// ExtraArgs and of the compilation database (-MF, -include).
		"clang-tidy": {".clang-tidy", "compile_commands.json", "compile_flags.txt"},
	}
	// The files they read beside those of their own programs.
	m["cabal"], m["stack"] = []string{".ghci"}, []string{".ghci"}
	m["cargo-make"], m["makers"] = cargoSubcommandFiles("make"), cargoSubcommandFiles("make")
	m["sbt"] = []string{".jvmopts", ".sbtopts", "project/"}
	for _, n := range autoconfTools() {
		m[n] = autoconf
	}
	for alias, of := range map[string]string{"vue-tsc": "tsc", "buck": "buck2", "premake4": "premake5",
		"platformio": "pio", "sls": "serverless", "bump-my-version": "bumpversion", "bump2version": "bumpversion",
		"rescript": "bsb", "run-clang-tidy": "clang-tidy", "qmake6": "qmake", "qmake-qt5": "qmake", "hls": "haskell-language-server"} {
		m[alias] = m[of]
	}
	addRT60SettingsCode(m)
	return m
}}

// pythonModuleProgram returns the program of settingsCode that python -m
// module args runs, with its arguments (python -m piptools compile is
// pip-compile, python -m PyInstaller is pyinstaller), or "" for another
// module.
func pythonModuleProgram(module string, args []word) (string, []word) {
	switch module {
	case "pytest", "ruff", "towncrier", "bumpversion", "docutils", "dotenv":
		return module, args
	case "cfnlint":
		return "cfn-lint", args
	case "PyInstaller":
		return "pyinstaller", args
	case "commitizen":
		return "cz", args
	case "semantic_release":
		return "semantic-release", args
	case "piptools":
		if len(args) > 0 && (args[0].text == "compile" || args[0].text == "sync") {
			return "pip-" + args[0].text, args[1:]
		}
	}
	return "", nil
}

// autoconfTools returns the programs of autoconf and automake, which
// read configure.ac and the m4 files it includes with m4, whose esyscmd
// and syscmd run commands.
func autoconfTools() []string {
	return []string{"autoconf", "autoreconf", "autoheader", "autom4te", "autoscan", "autoupdate", "aclocal",
		"automake", "ifnames"}
}

// settingsOption is an option whose value names a settings file: short
// is its letter ("" for none), long its long form.
type settingsOption struct{ short, long string }

// settingsOptions are, for the programs of settingsCode, the options
// whose value names a settings file they read (hugo --config a.toml,b.toml,
// tsc -p FILE, pandoc -d FILE). pandoc is here alone: its defaults file
// names filters it runs and the file it writes.
var settingsOptions = lazy[map[string][]settingsOption]{build: func() map[string][]settingsOption {
	c := func(short, long string) []settingsOption { return []settingsOption{{short, long}} }
	m := map[string][]settingsOption{
		"hugo":          c("", "--config"),
		"tsc":           c("p", "--project"),
		"jekyll":        c("", "--config"),
		"goreleaser":    c("f", "--config"),
		"air":           c("c", "--config"),
		"golangci-lint": c("c", "--config"),
		"buf":           {{"", "--template"}, {"", "--config"}},
		"sqlc":          c("f", "--file"),
		"skaffold":      c("f", "--filename"),
		"helmfile":      c("f", "--file"),
		"latexmk":       c("r", "--r"),
		"pandoc":        c("d", "--defaults"),
		"rubocop":       c("c", "--config"),
		"phpunit":       {{"c", "--configuration"}, {"", "--bootstrap"}},
		"phpstan":       {{"c", "--configuration"}, {"a", "--autoload-file"}},
		"psalm":         c("c", "--config"),
		"php-cs-fixer":  c("", "--config"),
		"rector":        c("c", "--config"),
		"dprint":        c("c", "--config"),
		"release-it":    c("c", "--config"),
		"bumpversion":   c("", "--config-file"),
		"pytest":        {{"c", "--config-file"}, {"", "--cov-config"}},
		"ruff":          c("", "--config"),
		"towncrier":     c("", "--config"),
	}
	m["vue-tsc"], m["bump-my-version"], m["bump2version"] = m["tsc"], m["bumpversion"], m["bumpversion"]
	addRT60SettingsOptions(m)
	return m
}}

// settingsDirOptions returns, for a program of settingsCode, the long
// options whose value names a directory of settings files: hugo reads
// each file of --configDir's _default and of its environment's
// directory, and a theme's configuration below --themesDir.
func settingsDirOptions(name string) []string {
	if name == "hugo" {
		return []string{"--configDir", "--themesDir"}
	}
	return nil
}

// autoconfValued reports whether t is an option of autoconfTools that
// takes the next word as its value, which is not an input file (autom4te
// -l autoconf).
func autoconfValued(t string) bool {
	switch t {
	case "-l", "--language", "-o", "--output", "-t", "--trace", "-W", "--warnings", "-B", "--prepend-include",
		"-I", "--include", "-C", "--cache", "-m", "--mode":
		return true
	}
	return false
}

// settingsOperands are the programs of settingsCode whose operands are
// settings files (doxygen FILE, autoconf FILE, autoreconf DIR), "-" their
// standard input; autom4te with none reads its standard input.
func settingsOperands(name string) bool {
	return name == "doxygen" || slices.Contains(autoconfTools(), name)
}

// texEngines are the TeX engines: with --shell-escape a document's
// \write18 runs any command, and the Lua engines run the Lua of
// \directlua, whose io and os libraries reach any file.
var texEngines = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`tex etex pdftex xetex luatex luahbtex luajittex latex pdflatex xelatex lualatex
		luahblatex lualatex-dev pdflatex-dev xelatex-dev dvilualatex dvilualatex-dev context optex`) {
		m[n] = true
	}
	return m
}}

// settingsCodeUses records, for a program the analysis does not model,
// the settings files of settingsCode it reads where it runs and those its
// options name (settingsOptions) as code it runs, so that a line that
// writes one before it is opaque (see runsWrittenCode); a word that is
// only known when the line runs may name any file. latexmk -e runs its
// value as Perl, and a TeX engine with --shell-escape, or a Lua one, runs
// what any file it reads says.
func (an *analyzer) settingsCodeUses(name string, args []word) {
	if onlyVersion(args) {
		return
	}
	if name == "latexmk" {
		for _, a := range args {
			if t := a.text; a.dynamic || t == "-e" || strings.HasPrefix(t, "-e=") || latexmkCommand(t) {
				an.opaque("latexmk runs the Perl code or command of " + clipName(t))
				return
			}
		}
	}
	if name == "pip-sync" && !pipSyncDry(args) {
		an.opaque("pip-sync installs and uninstalls packages in the environment it runs in, which may lie outside the workdir")
		return
	}
	if names, ok := settingsCode.get()[name]; ok {
		an.usesCode(name, "/", names...)
	}
	if texEngines.get()[name] && (strings.HasPrefix(name, "lua") || name == "dvilualatex" || name == "context" ||
		name == "optex" || shellEscape(args)) {
		an.usesCode(name, "/", "*")
	}
	for _, o := range settingsOptions.get()[name] {
		// The value splits at commas (hugo --config a.toml,b.toml).
		an.optionCode(name, commaSplit(args), o.short, o.long)
	}
	for _, long := range settingsDirOptions(name) {
		for i, a := range args {
			v, dyn, hit := "", false, false
			if a.text == long {
				hit = true
				if i+1 < len(args) {
					v, dyn = args[i+1].text, args[i+1].dynamic
				}
			} else if after, ok := strings.CutPrefix(a.text, long+"="); ok {
				v, dyn, hit = after, a.dynamic, true
			}
			switch {
			case hit && dyn:
				an.opaque(name + " " + long + " names settings only known when the line runs")
				return
			case hit && v != "":
				an.usesDir(name, v)
			}
		}
	}
	if !settingsOperands(name) {
		return
	}
	operands := 0
	for i, a := range args {
		switch {
		case a.dynamic || a.text == "-":
			an.stdinOpaque(name + " reads settings from its standard input or a file only known when the line runs")
			return
		case a.text != "" && !strings.HasPrefix(a.text, "-"):
			an.usesDir(name, a.text)
			if i == 0 || !autoconfValued(args[i-1].text) {
				operands++
			}
		}
	}
	if operands == 0 && name == "autom4te" {
		an.stdinOpaque(name + " reads m4 from its standard input")
	}
}

// commaSplit returns args with each word that holds a list of files
// split at its commas, one option word per file: --config=a.toml,b.toml
// is --config=a.toml --config=b.toml, --config a.toml,b.toml is
// --config a.toml --config b.toml.
func commaSplit(args []word) []word {
	var out []word
	for i, a := range args {
		if a.dynamic || !strings.Contains(a.text, ",") {
			out = append(out, a)
			continue
		}
		opt, list, ok := strings.Cut(a.text, "=")
		if ok && strings.HasPrefix(opt, "-") {
			for _, p := range strings.Split(list, ",") {
				out = append(out, word{text: opt + "=" + p})
			}
			continue
		}
		for j, p := range strings.Split(a.text, ",") {
			if j > 0 && i > 0 && strings.HasPrefix(args[i-1].text, "-") {
				out = append(out, args[i-1])
			}
			out = append(out, word{text: p})
		}
	}
	return out
}

// cargoSubcommandFiles returns, for a cargo subcommand cargo runs from
// PATH (cargo make is cargo-make), the files of the working directory it
// reads that name commands it runs: the tasks of cargo-make's
// Makefile.toml (and the files it extends), nextest's setup scripts,
// cargo-release's hooks, tauri's beforeBuildCommand, dist's build
// commands.
func cargoSubcommandFiles(sub string) []string {
	switch sub {
	case "make":
		return []string{"Makefile.toml", "makefile.toml", "*.toml"}
	case "nextest":
		return []string{"nextest.toml", ".config/"}
	case "release":
		return []string{"release.toml", ".release.toml"}
	case "tauri":
		return []string{"tauri.conf.json", "tauri.*.conf.json", "Tauri.toml", "tauri.conf.json5", "package.json"}
	case "dist":
		return []string{"dist-workspace.toml", "dist.toml"}
	}
	return nil
}

// cargoMake records, for a cargo subcommand of cargoSubcommandFiles, those
// files as code cargo runs. cargo's own options may come before the
// subcommand.
func (an *analyzer) cargoMake(args []word) {
	for i, a := range args {
		t := a.text
		if a.dynamic || strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
			continue
		}
		if i > 0 {
			switch args[i-1].text {
			case "--color", "-Z", "-C", "--config", "--manifest-path":
				continue
			}
		}
		if names := cargoSubcommandFiles(t); names != nil && !onlyVersion(args[i+1:]) {
			an.usesCode("cargo "+t, "/", names...)
		}
		return
	}
}

// latexmkCommand reports whether the latexmk option t sets the command it
// runs for a step (-pdflatex="CMD", -latex=…, -bibtex=…, -e's kin): the
// value is a command line of its own.
func latexmkCommand(t string) bool {
	o, _, ok := strings.Cut(strings.TrimLeft(t, "-"), "=")
	if !ok {
		return false
	}
	switch o {
	case "latex", "pdflatex", "xelatex", "lualatex", "dvipdf", "dvips", "ps2pdf", "makeindex", "bibtex",
		"biber", "pdf_previewer", "ps_previewer", "dvi_previewer", "print_type", "view", "pdflua", "pdfxe":
		return true
	}
	return false
}

// shellEscape reports whether a TeX engine's args turn \write18 on for any
// command: --shell-escape, -enable-write18 (MiKTeX), in either dash form.
func shellEscape(args []word) bool {
	for _, a := range args {
		switch strings.TrimLeft(a.text, "-") {
		case "shell-escape", "enable-write18":
			return true
		}
		if a.dynamic {
			return true
		}
	}
	return false
}

// goWorkSync makes the line opaque for go work sync, which writes the
// go.mod of each module the go.work file it finds (in the working
// directory or any above it) uses: a module may lie outside the workdir
// (use ../other), and the file may be one the line wrote.
func (an *analyzer) goWorkSync(name string, args []word) {
	i := goSubcommandAt(args)
	if i+1 < len(args) && args[i].text == "work" && (args[i+1].text == "sync" || args[i+1].dynamic) {
		an.opaque(name + " work sync writes the go.mod of each module go.work uses, which may lie outside the workdir")
	}
}

// goSubcommandAt returns the index in the go command's args of its
// subcommand, after the -C DIR (or -C=DIR) options that may come first.
func goSubcommandAt(args []word) int {
	i := 0
	for i < len(args) && (args[i].text == "-C" || args[i].text == "--C") {
		i += 2
	}
	for i < len(args) && (strings.HasPrefix(args[i].text, "-C=") || strings.HasPrefix(args[i].text, "--C=")) {
		i++
	}
	return i
}

// pipSyncDry reports whether pip-sync args only shows what it would do
// (--dry-run, -n).
func pipSyncDry(args []word) bool {
	for _, a := range args {
		if a.text == "--dry-run" || a.text == "-n" {
			return true
		}
	}
	return false
}
