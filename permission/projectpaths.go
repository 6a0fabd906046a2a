package permission

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// A cloned project's settings files may name where its tools write: tsc's
// tsconfig.json (outDir, declarationDir, tsBuildInfoFile, outFile, and
// the files it extends or references), hugo's publishDir, resourceDir and
// caches, pytest's cache_dir, log_file and addopts, mypy's cache_dir,
// reports and plugins, ruff's cache-dir and output-file, maven's
// .mvn/maven.config and .mvn/jvm.config (-Dmaven.repo.local, -l, -s, a
// -javaagent) and a settings.xml's localRepository. Real tsc, hugo,
// pytest, mypy and mvn wrote the home so at gate60 while the gate allowed
// their lines. The gate reads these files for each such tool the line
// runs (by its name, through a package manager or python -m, or a script
// of package.json, which may run tsc) and makes the line opaque when a
// value names a path outside the workdir (absolute, with .., ~ or a
// variable), inside .git, or a protected path, or the file cannot be read
// fully (an escape, a YAML alias or a value on the next line may hide
// one). A project whose tsconfig.json says outDir "dist" stays allowed.
//
// Round redteam123 found the same in more tools the gate allowed, each
// of which real runs showed writing ../home/… or running a command:
// doxygen's Doxyfile (doxyfile.go), mkdocs' mkdocs.yml (site_dir,
// docs_dir, INHERIT, hooks, a !!python tag), jekyll's _config.yml
// (destination, plugins_dir), rubocop's .rubocop.yml (CacheRootDirectory,
// require, inherit_from, and ERB, which rubocop runs before it reads the
// YAML), cspell's settings (cacheLocation, import) and cmake's
// CMakePresets.json (binaryDir, toolchainFile, installDir, include).
// Then jest's cacheDirectory (in package.json, also for a package
// manager's scripts, or jest.config.json), clang-tidy's ExtraArgs, bazel's
// .bazelrc (bazelrc.go) and golangci-lint's output paths. YAML lists on
// the lines below a key are read; a YAML anchor, alias or
// merge key, or a tag that makes Python objects, asks.

// A pathSettings is how a tool finds the settings files that name paths
// it writes or code it loads.
type pathSettings struct {
	// files are the base names it reads in its working directory (and,
	// with up, in each directory above it up to the workdir's root); a
	// name that ends in "/" is a directory whose every file it reads.
	files []string
	up    bool
	// keys are the lower-case keys whose values name paths; tokens
	// marks files that are command-line words (maven's jvm.config and
	// maven.config), judged by mavenConfigUnsound.
	keys   []string
	tokens bool
	// code are the lower-case keys whose every value is code the tool
	// loads (mkdocs' hooks): any value asks.
	code []string
	// doxyfile marks Doxyfiles (doxyfileUnsound), and operands a tool
	// whose words that name files are settings files too (doxygen's).
	doxyfile, operands bool
	// erb marks YAML that the tool runs through ERB first (rubocop's).
	erb bool
	// scripts marks a tool whose settings files may be JavaScript it
	// runs (cspell.config.js, .cjs, .mjs): one the project holds asks.
	scripts bool
	// bazelrc marks bazel's .bazelrc (bazelrcUnsound).
	bazelrc bool
	// runs are the programs, from its working directory (and, with up,
	// from each directory above it in the workdir), that it runs in its
	// own place when the project holds them: any asks (round redteam126:
	// bazel's launcher ran tools/bazel, which wrote ../home, for bazel
	// version).
	runs []string
	// modules are the settings files of a module of hugo's, from its
	// directory: those of each directory in the themes directory that
	// themesDir or --themesDir names, and of each module that
	// _vendor/modules.txt lists.
	modules []string
	// args are the lower-case keys whose values are a compiler's
	// arguments (clang-tidy's ExtraArgs, and compile_flags.txt's lines),
	// judged by compilerArgHarmless.
	args []string
	// operandDirs marks a tool that reads the settings files of each
	// file or directory its words name, in that file's directory (or
	// that directory) and those above it (clang-tidy's .clang-tidy,
	// pytest's and golangci-lint's settings); with operandsEnd, its words
	// after -- are not its operands (clang-tidy's compiler arguments).
	operandDirs, operandsEnd bool
	// atFiles marks a tool that reads more words from the file a word
	// @F names (LLVM's response files, pytest's since 8.2): any
	// asks (round redteam126: clang-tidy @rsp a.c, with rsp holding
	// --export-fixes=../home/x and --extra-arg=-include of the key, wrote
	// the home and printed the key).
	atFiles bool
	// tree are the settings files it reads in every directory below the
	// directories it inspects (its working directory, and those its words
	// name): rubocop reads the .rubocop.yml of each inspected file's
	// directory, whose ERB it runs (round redteam126: rubocop and rubocop
	// sub/a.rb ran sub/.rubocop.yml's ERB, which wrote ../home).
	tree []string
	// fromCwd marks a tool that resolves some relative paths of a
	// settings file from elsewhere than its directory (rubocop's
	// inherited CacheRootDirectory, cmake's included presets' binaryDir;
	// pytest's addopts and log_file, mypy's paths, jekyll's and hugo's
	// directories, from a settings file its words name elsewhere: round
	// redteam126): they are judged from the working directory too.
	fromCwd bool
	// follow are the keys whose values name another settings file it
	// reads as well (tsconfig's extends, ruff's extend).
	follow []string
	// values matches keys and their values (see settingsValue).
	values *regexp.Regexp
	// options are the tool's options whose value names a settings file
	// (or a directory holding one) to read besides its own.
	options []string
	// from are the options that name the directory it takes the
	// relative paths of its other options from, besides its working
	// directory (round redteam126: hugo -s site --config h.toml and
	// --configDir cfg read site/h.toml and site/cfg, which wrote ../home).
	from []string
	// when, if set, are the options without which the tool reads none
	// of its files (cmake reads its presets for --preset only).
	when []string
	// cargo marks cargo's .cargo/config.toml (cargoConfigUnsound).
	cargo bool
	// defaults are the paths, from its working directory (and, with up,
	// from each directory above it in the workdir), that the tool writes,
	// or reads and copies into its output, when its settings name none: a
	// link the project holds there may lead out of it (jekyll build
	// emptied and filled ~/.config through a _site link, mkdocs build
	// copied ~/.ssh/id_ed25519 into site/ through a docs link).
	defaults []string
}

// projectPathTools are the tools of pathSettings by program name.
var projectPathTools = sync.OnceValue(func() map[string][]pathSettings {
	tsc := pathSettings{files: []string{"tsconfig.json", "jsconfig.json"}, up: true,
		keys:    []string{"outdir", "declarationdir", "tsbuildinfofile", "outfile", "out", "extends", "path"},
		follow:  []string{"extends", "path"},
		options: []string{"-p", "--project"}}
	pytest := pathSettings{files: []string{"pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg", ".coveragerc"},
		up: true, operandDirs: true, fromCwd: true,
		keys:    []string{"cache_dir", "log_file", "addopts", "junit_xml", "data_file", "directory", "output", "rootdir", "basetemp"},
		options: []string{"-c", "--config-file", "--cov-config", "--rootdir"}, atFiles: true}
	// mypy checks the files its settings name, and with pretty prints
	// their lines (round redteam125: files = ../home/.ssh/id_ed25519
	// printed the key).
	mypy := pathSettings{files: []string{"mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg"}, up: true, fromCwd: true,
		keys: []string{"cache_dir", "junit_xml", "plugins", "files", "html_report", "txt_report", "xml_report",
			"linecount_report", "linecoverage_report", "lineprecision_report", "any_exprs_report",
			"cobertura_xml_report", "memory_xml_report", "xslt_html_report", "xslt_txt_report"},
		options: []string{"--config-file"}}
	ruff := pathSettings{files: []string{"ruff.toml", ".ruff.toml", "pyproject.toml"}, up: true,
		keys: []string{"cache-dir", "cache_dir", "extend", "output-file"}, follow: []string{"extend"},
		options: []string{"--config"}}
	// hugo copies into public what its source directories and module
	// mounts hold (round redteam125: staticDir, contentDir and a mount's
	// source of ../home/.ssh put id_ed25519 in public).
	// It reads its themes' settings too, whose mounts copied the key as
	// the project's did: in themes/, in the directory themesDir or
	// --themesDir names, and the modules _vendor/modules.txt lists in
	// _vendor/ (round redteam126: a theme in mythemes/ and a module in
	// _vendor/ each copied ~/.ssh/id_ed25519 into public by its mounts).
	hugoModule := []string{"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml",
		"config.json", "config/", "_vendor/modules.txt"}
	hugo := pathSettings{files: slices.Concat(hugoModule, prefixed("themes/*/", hugoModule)), modules: hugoModule,
		keys: []string{"publishdir", "resourcedir", "cachedir", "dir", "workingdir", "destination", "contentdir", "staticdir",
			"staticdir0", "staticdir1", "staticdir2", "staticdir3", "staticdir4", "staticdir5", "staticdir6", "staticdir7",
			"staticdir8", "staticdir9", "staticdir10", "layoutdir", "datadir", "assetdir", "i18ndir", "archetypedir",
			"themesdir", "source"},
		options: []string{"--config", "--configDir", "-s", "--source", "--themesDir"}, from: []string{"-s", "--source"},
		defaults: []string{"public", "resources"},
		fromCwd:  true}
	mvn := pathSettings{files: []string{".mvn/maven.config", ".mvn/jvm.config"}, up: true, tokens: true,
		options: []string{"-s", "--settings", "-gs", "--global-settings", "-f", "--file"}}
	// mvnd reads its own settings besides (mavenconfig.go).
	mvnd := mvn
	mvnd.files = append(append([]string(nil), mvn.files...), ".mvn/mvnd.properties")
	doxygen := pathSettings{files: []string{"Doxyfile", "doxyfile"}, doxyfile: true, operands: true,
		defaults: []string{"html", "latex", "xml", "man", "rtf", "docbook"}}
	mkdocs := pathSettings{files: []string{"mkdocs.yml", "mkdocs.yaml"},
		keys: []string{"site_dir", "docs_dir", "custom_dir", "inherit", "cache_dir", "hooks"}, follow: []string{"inherit"},
		code: []string{"hooks"}, options: []string{"-f", "--config-file"}, defaults: []string{"site", "docs"}}
	jekyll := pathSettings{files: []string{"_config.yml", "_config.yaml", "_config.toml"},
		keys: []string{"destination", "source", "plugins_dir", "layouts_dir", "includes_dir", "data_dir",
			"collections_dir", "cache_dir", "sass_dir", "load_paths"},
		fromCwd: true, options: []string{"--config", "-s", "--source"}, defaults: []string{"_site", ".jekyll-cache", ".jekyll-metadata",
			"_includes", "_layouts", "_data", "_posts", "_drafts", "_sass", "_plugins", "assets"}}
	// rubocop takes the words of .rubocop (argsfiles.go) before its own.
	rubocop := pathSettings{files: []string{".rubocop.yml", ".rubocop.yaml", ".rubocop"}, up: true,
		keys:   []string{"cacherootdirectory", "require", "plugins", "inherit_from"},
		follow: []string{"inherit_from"}, options: []string{"-c", "--config"}, erb: true, fromCwd: true,
		operandDirs: true, tree: []string{".rubocop.yml", ".rubocop.yaml"}}
	// cspell's search places (cspell-lib's configLocations.js): round
	// redteam125 found .cspell.yml and cspell.jsonc, which the gate did
	// not read, and cspell.config.js and the modules of reporters, which
	// cspell runs.
	cspell := pathSettings{files: []string{"package.json", ".cspell.json", "cspell.json", ".cSpell.json", "cSpell.json",
		".cspell.jsonc", "cspell.jsonc", ".vscode/cspell.json", ".vscode/cSpell.json", ".vscode/.cspell.json",
		".cspell.yaml", ".cspell.yml", "cspell.yaml", "cspell.yml", ".config/.cspell.json", ".config/cspell.json",
		".config/.cSpell.json", ".config/cSpell.json", ".config/.cspell.jsonc", ".config/cspell.jsonc", ".config/cspell.yaml",
		".config/cspell.yml"}, up: true, scripts: true,
		keys: []string{"cachelocation", "import", "path", "reporters", "files", "globroot"}, code: []string{"reporters"},
		follow: []string{"import"},
		// cspell --root DIR looks for its settings in DIR too (round
		// redteam126: sub/cspell.json's files printed the key).
		options: []string{"-c", "--config", "-r", "--root"}, defaults: []string{".cspellcache"}}
	for _, dir := range []string{"", ".config/"} {
		for _, name := range []string{"cspell.config", ".cspell.config"} {
			for _, ext := range []string{".json", ".jsonc", ".yaml", ".yml", ".mjs", ".cjs", ".js"} {
				cspell.files = append(cspell.files, dir+name+ext)
			}
		}
	}
	cmake := pathSettings{files: []string{"CMakePresets.json", "CMakeUserPresets.json"},
		keys:    []string{"binarydir", "installdir", "toolchainfile", "include", "cmakeexecutable"},
		follow:  []string{"include"},
		fromCwd: true, options: []string{"-S"}, when: []string{"--preset", "--workflow", "--list-presets"}}
	jest := pathSettings{files: []string{"package.json", "jest.config.json"}, up: true,
		keys: []string{"cachedirectory", "coveragedirectory", "rootdir", "roots", "preset", "projects", "modulepaths",
			"globalsetup", "globalteardown", "setupfiles", "setupfilesafterenv", "testresultsprocessor", "snapshotresolver"},
		options: []string{"-c", "--config", "--rootDir"}}
	golangci := pathSettings{files: []string{".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"}, up: true,
		operandDirs: true,
		keys:        []string{"path", "template-path", "cache-dir"}, options: []string{"-c", "--config"}}
	// bazel --bazelrc=ci.rc reads ci.rc too (its --output_user_root=../home/…
	// went unread).
	bazel := pathSettings{files: []string{".bazelrc"}, up: true, bazelrc: true, options: []string{"--bazelrc"},
		runs: []string{"tools/bazel"}}
	// clang-tidy takes the compile command of compile_commands.json
	// too, there or in the directory -p names (compileCommandsUnsound);
	// --vfsoverlay's file maps the paths the compiler reads to others
	// (external-contents: ~/.ssh/id_ed25519 for a.c printed the key).
	clangTidy := pathSettings{files: []string{".clang-tidy", "compile_flags.txt", "compile_commands.json"}, up: true,
		operandDirs: true, operandsEnd: true, keys: []string{"extraargs", "extraargsbefore", "external-contents"},
		args: []string{"extraargs", "extraargsbefore"}, options: []string{"--config-file", "-p", "--p", "--vfsoverlay"},
		atFiles: true}
	// cargo reads the .cargo/config.toml of its working directory and of
	// each one above it, whose build.target-dir and build.build-dir name
	// where it builds, relative to the directory that holds .cargo, and
	// whose rustc flags and aliases may too (cargoConfigUnsound; round
	// redteam133: target-dir = "../home/tgt" made cargo build write the
	// home).
	cargo := pathSettings{files: []string{".cargo/config.toml", ".cargo/config"}, up: true, cargo: true}
	// coverage.py writes its reports where [html] directory, [xml],
	// [json] and [lcov] output say, its data where [run] data_file and
	// debug_file say, and copies [html] extra_css into the report (round
	// redteam133: coverage html wrote ../home/covhtml, and with extra_css
	// = ../home/.ssh/id_ed25519 put the key in htmlcov).
	coverage := pathSettings{files: []string{".coveragerc", "setup.cfg", "tox.ini", "pyproject.toml"}, fromCwd: true,
		keys:    []string{"directory", "output", "data_file", "debug_file", "extra_css"},
		options: []string{"--rcfile"}}
	// pylint runs the Python of init-hook before it checks anything
	// (round redteam133: pylint x.py wrote ../home/pwned so), from the
	// settings of its working directory and those above it.
	pylint := pathSettings{files: []string{"pylintrc", ".pylintrc", "pylintrc.toml", ".pylintrc.toml", "pyproject.toml",
		"setup.cfg", "tox.ini"}, up: true, fromCwd: true,
		keys: []string{"init-hook", "init_hook", "output"}, code: []string{"init-hook", "init_hook"},
		options: []string{"--rcfile"}}
	for _, ps := range []*pathSettings{&tsc, &pytest, &mypy, &ruff, &hugo, &mkdocs, &jekyll, &rubocop, &cspell, &cmake, &jest,
		&clangTidy, &golangci, &coverage, &pylint} {
		ps.values = settingsValue(ps.keys)
	}
	return map[string][]pathSettings{
		"tsc": {tsc}, "vue-tsc": {tsc},
		// A package manager's scripts commonly run tsc and jest.
		"npm": {tsc, jest}, "pnpm": {tsc, jest}, "yarn": {tsc, jest}, "yarnpkg": {tsc, jest}, "bun": {tsc, jest},
		"npx": {tsc, jest}, "pnpx": {tsc, jest}, "bunx": {tsc, jest}, "jest": {jest},
		"bazel": {bazel}, "bazelisk": {bazel}, "golangci-lint": {golangci}, "clang-tidy": {clangTidy}, "run-clang-tidy": {clangTidy},
		"pytest": {pytest}, "py.test": {pytest}, "mypy": {mypy}, "dmypy": {mypy}, "ruff": {ruff}, "hugo": {hugo},
		"mvn": {mvn}, "mvnw": {mvn}, "mvnd": {mvnd},
		"doxygen": {doxygen}, "mkdocs": {mkdocs}, "jekyll": {jekyll}, "rubocop": {rubocop}, "cspell": {cspell},
		"cspell-esm": {cspell}, "cmake": {cmake}, "ctest": {cmake}, "cpack": {cmake}, "cargo": {cargo},
		"coverage": {coverage}, "coverage3": {coverage}, "python3-coverage": {coverage}, "pylint": {pylint},
	}
})

// projectPathTool returns the name in projectPathTools of the program
// name: bazel's versioned binaries (bazel-7, Debian's bazel-4, which
// /usr/bin/bazel starts) and bazel-real are bazel (review of round 126:
// bazel-4 version with a .bazelrc's --output_user_root=../home/x wrote
// the home while allowed).
func projectPathTool(name string) string {
	if v, ok := strings.CutPrefix(name, "bazel-"); ok && (v == "real" || v != "" && strings.Trim(v, "0123456789.") == "") {
		return "bazel"
	}
	return name
}

// projectPathRunners are the programs that start another one a word
// names (pnpm tsc, python3 -m pytest, uv run ruff): each word of theirs
// that names a tool of projectPathTools counts as that tool.
func projectPathRunner(name string) bool {
	switch name {
	case "npm", "pnpm", "yarn", "yarnpkg", "bun", "bunx", "npx", "pnpx", "uv", "uvx", "poetry", "pdm", "hatch",
		"pipenv", "rye", "pixi", "tox", "nox", "pipx", "corepack":
		return true
	}
	return strings.HasPrefix(name, "python") || name == "py" || name == "pypy3"
}

// projectPathsUnsound says why a tool the line runs may write outside
// the workdir by its project's settings (see pathSettings), or "".
func (g *Gate) projectPathsUnsound(a *shellscan.Analysis) string {
	var writes []lineWrite
	for _, acc := range a.Accesses {
		if acc.Mode != shellscan.Write && acc.Mode != shellscan.Delete {
			continue
		}
		for _, dir := range a.Dirs {
			if p := g.absTarget(dir, acc.Path); p != "" {
				writes = append(writes, lineWrite{path: filepath.Clean(p), tree: acc.Tree, pattern: acc.Pattern})
			}
		}
	}
	for _, c := range a.Commands {
		name := projectPathTool(strings.ToLower(filepath.Base(c.Name)))
		tools := map[string][]string{name: c.Args}
		if projectPathRunner(name) {
			for i, w := range c.Args {
				if _, ok := projectPathTools()[strings.ToLower(w)]; ok {
					tools[strings.ToLower(w)] = c.Args[i+1:]
				}
			}
		}
		for tool, args := range tools {
			for _, ps := range projectPathTools()[tool] {
				for _, dir := range a.Dirs {
					cwd := g.absTarget(dir, ".")
					if cwd == "" {
						return tool + " runs in an unknown directory, whose settings files the gate cannot read"
					}
					if why := g.pathSettingsUnsound(tool, ps, filepath.Clean(cwd), args, writes); why != "" {
						return why
					}
				}
			}
		}
	}
	return ""
}

// A lineWrite is a path the line writes or deletes: a directory tree
// below it with tree, the paths a glob matches with pattern.
type lineWrite struct {
	path          string
	tree, pattern bool
}

// writesSettings reports whether a write of writes may make or change the
// file p, or, for a p that ends in "/", a file below it.
func writesSettings(writes []lineWrite, p string) bool {
	dir := strings.HasSuffix(p, "/")
	p = filepath.Clean(p)
	for _, w := range writes {
		switch {
		case w.pattern:
			if ok, err := filepath.Match(w.path, p); ok || err != nil || dir {
				return true
			}
		case w.path == p, w.tree && pathmatch.Within(p, w.path), dir && pathmatch.Within(w.path, p):
			return true
		}
	}
	return false
}

// pathSettingsUnsound checks the settings files of tool (see
// pathSettings) that it reads in cwd with args; one the line writes
// (writes) is read before the line runs, so it asks: mkdocs build -f F,
// mypy --config-file F, clang-tidy --config-file=F, cspell lint -c F and
// jest -c F after a write of F wrote the home at round 124.
func (g *Gate) pathSettingsUnsound(tool string, ps pathSettings, cwd string, args []string, writes []lineWrite) string {
	if len(ps.when) > 0 && !slices.ContainsFunc(args, func(w string) bool {
		return slices.ContainsFunc(ps.when, func(o string) bool { return w == o || strings.HasPrefix(w, o+"=") })
	}) {
		return ""
	}
	if i := slices.IndexFunc(args, func(w string) bool { return strings.HasPrefix(w, "@") }); ps.atFiles && i >= 0 {
		return tool + " reads more words from " + clip(args[i]) + ", a file of arguments the gate does not read"
	}
	for d := cwd; len(ps.runs) > 0; d = filepath.Dir(d) {
		for _, f := range ps.runs {
			p := filepath.Join(d, f)
			if writesSettings(writes, p) {
				return "the line writes " + clip(p) + ", which " + tool + " runs in its own place"
			}
			if _, err := os.Lstat(p); err == nil {
				return tool + " runs " + clip(p) + ", a program of the project's, in its own place"
			}
		}
		if !ps.up || d == filepath.Dir(d) || !pathmatch.Within(filepath.Dir(d), g.workdir) {
			break
		}
	}
	for d := cwd; len(ps.defaults) > 0; d = filepath.Dir(d) {
		for _, f := range ps.defaults {
			if why := g.settingsPathUnsound(d, f); why != "" {
				return tool + " uses " + clip(filepath.Join(d, f)) + " unless its settings say otherwise: " + why
			}
		}
		if !ps.up || d == filepath.Dir(d) || !pathmatch.Within(filepath.Dir(d), g.workdir) {
			break
		}
	}
	var files []string
	inTree := 0
	if ps.operandDirs {
		// clang-tidy src/a.c: src's .clang-tidy, and those above;
		// pytest sub, golangci-lint run ./sub/...: sub's, and those
		// above (round redteam125: real pytest and golangci-lint read
		// sub/tox.ini and sub/.golangci.yml and wrote ../home by them).
		for _, w := range args {
			if w == "--" && ps.operandsEnd {
				break
			}
			if w == "" || strings.HasPrefix(w, "-") {
				continue
			}
			w = strings.TrimSuffix(w, "/...")
			if i := strings.Index(w, "::"); i >= 0 {
				w = w[:i] // pytest a_test.py::test_x
			}
			if !filepath.IsAbs(w) {
				w = filepath.Join(cwd, w)
			}
			start := filepath.Dir(filepath.Clean(w))
			if fi, err := os.Stat(w); err == nil && fi.IsDir() {
				start = filepath.Clean(w)
			}
			for d := start; pathmatch.Within(d, g.workdir); d = filepath.Dir(d) {
				files = append(files, settingsFilesIn(d, ps.files)...)
				if d == filepath.Dir(d) {
					break
				}
			}
		}
	}
	if len(ps.tree) > 0 {
		roots := []string{cwd}
		for _, w := range args {
			if !strings.HasPrefix(w, "-") && w != "" {
				if !filepath.IsAbs(w) {
					w = filepath.Join(cwd, w)
				}
				roots = append(roots, filepath.Clean(w))
			}
		}
		more, complete := g.settingsTree(roots, ps.tree)
		if !complete || len(more) > maxSettingsTreeFiles {
			return tool + " reads the settings files of every directory it inspects, more than the gate walks"
		}
		files = append(files, more...)
		// Gems installed in vendor/bundle bring their own: they do not
		// count toward maxPathSettingsFiles.
		inTree = len(more)
	}
	if ps.operands {
		// doxygen Doxyfile.in, doxygen - (from standard input).
		for _, w := range args {
			if w == "-" {
				return tool + " reads its settings from standard input"
			}
			if w != "" && !strings.HasPrefix(w, "-") {
				if !filepath.IsAbs(w) {
					w = filepath.Join(cwd, w)
				}
				files = append(files, filepath.Clean(w))
			}
		}
	}
	for d := cwd; ; d = filepath.Dir(d) {
		files = append(files, settingsFilesIn(d, ps.files)...)
		if !ps.up || d == filepath.Dir(d) || !pathmatch.Within(filepath.Dir(d), g.workdir) {
			break
		}
	}
	// The directories its options' relative paths are taken from: the
	// working directory, and those of ps.from (hugo -s DIR).
	bases := []string{cwd}
	for _, d := range optionValues(args, ps.from...) {
		if !filepath.IsAbs(d) {
			d = filepath.Join(cwd, d)
		}
		bases = append(bases, filepath.Clean(d))
	}
	for i := range args {
		for _, o := range ps.options {
			v, ok := optionValue(o, args, i)
			if !ok || v == "" {
				continue
			}
			for _, raw := range strings.Split(v, ",") {
				for _, base := range bases {
					if base != cwd && slices.Contains(ps.from, o) {
						continue // -s DIR itself is from the working directory
					}
					files = append(files, g.optionSettingsFiles(ps, o, base, raw)...)
				}
			}
		}
	}
	seen := map[string]bool{}
	read := 0
	for len(files) > 0 {
		p := files[0]
		files = files[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		if writesSettings(writes, p) {
			// Before the existence check: the line may make it.
			return "the line writes " + clip(p) + ", which " + tool + " reads as its settings"
		}
		if _, err := os.Lstat(strings.TrimSuffix(p, "/")); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if read++; read > maxPathSettingsFiles+inTree {
			return tool + " reads more settings files than the gate checks"
		}
		if ps.scripts && (strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".cjs") || strings.HasSuffix(p, ".mjs")) {
			return tool + " runs " + clip(p) + ", JavaScript of the project's, to read its settings"
		}
		if strings.HasSuffix(p, "/") {
			entries, err := os.ReadDir(p)
			if err != nil {
				continue
			}
			for _, e := range entries {
				q := filepath.Join(p, e.Name())
				if e.IsDir() {
					q += "/"
				}
				files = append(files, q)
			}
			continue
		}
		var more []string
		limit := int64(maxConfigFileSize)
		if ps.doxyfile {
			limit = maxDoxyfileSize
		}
		why := configFileUnsoundLimit(p, limit, func(text string) string {
			var w string
			w, more = g.settingsTextUnsound(ps, cwd, filepath.Dir(p), filepath.Base(p), text)
			return w
		})
		if why != "" {
			return tool + " reads its settings from " + clip(p) + ", which " + why
		}
		files = append(files, more...)
	}
	return ""
}

// optionValue returns the value args[i] gives the option o (with the
// argument after it), in each form the tools' parsers take: --name=V and
// --name V; -name for --name, as LLVM's tools take it (clang-tidy
// -config-file=F); any prefix of --name of three letters or more, as
// Python's argparse and Ruby's OptionParser take it (mypy --conf F,
// rubocop --conf F, jekyll build --conf F: each read F at round 124); and
// -xV and clusters for -x (pytest -cF, pytest -qc F; see
// shellscan.ShortForm). A form a tool does not take only makes the gate
// read a file more.
func optionValue(o string, args []string, i int) (string, bool) {
	w := args[i]
	next := func() (string, bool) {
		if i+1 < len(args) {
			return args[i+1], true
		}
		return "", false
	}
	if strings.HasPrefix(o, "--") {
		if !shellscan.LongForm(w, o) {
			return "", false
		}
		if _, v, ok := strings.Cut(w, "="); ok {
			return v, true
		}
		return next()
	}
	switch rest := shellscan.ShortForm(w, strings.TrimPrefix(o, "-")); {
	case w == o:
		return next()
	case strings.HasPrefix(w, o+"="):
		return w[len(o)+1:], true
	case rest == "-":
		return next()
	case rest != "":
		return rest[1:], true
	}
	return "", false
}

// optionSettingsFiles returns the settings files that the value raw of
// the option o names, taken from the directory base: the file itself, or
// a directory's settings files (tsc -p DIR, pytest --rootdir DIR, hugo
// -s DIR, mvn -f DIR, and, for a tool that looks up, those above it in
// the workdir: cspell --root DIR), hugo's --configDir and the themes of
// --themesDir.
func (g *Gate) optionSettingsFiles(ps pathSettings, o, base, raw string) []string {
	p := raw
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	p = filepath.Clean(p)
	fi, err := os.Stat(p)
	if ps.tokens && (o == "-f" || o == "--file") && (err != nil || !fi.IsDir()) {
		// mvn -f dir/pom.xml: the project of that directory.
		p, fi, err = filepath.Dir(p), nil, nil
	}
	switch {
	case o == "--themesDir":
		return settingsFilesIn(p, prefixed("*/", ps.modules))
	case err == nil && fi != nil && fi.IsDir() && o == "--configDir":
		return []string{p + "/"}
	case err == nil && (fi == nil || fi.IsDir()):
		var files []string
		for d := p; ; d = filepath.Dir(d) {
			files = append(files, settingsFilesIn(d, ps.files)...)
			if !ps.up || d == filepath.Dir(d) || !pathmatch.Within(filepath.Dir(d), g.workdir) {
				break
			}
		}
		return files
	}
	return []string{p}
}

// hugoReplacements says why the module replacements of a hugo settings
// file in dir (module.replacements: "PATH -> DIR, …", DIR relative to the
// themes directory) may name a module outside the workdir, or "", and
// returns the settings files (names) of the modules they name, which hugo
// reads as a theme's (round redteam126: a replacement by mods/t, whose
// mounts took ../home/.ssh, copied the key into public).
func (g *Gate) hugoReplacements(cwd, dir string, entries []settingsEntry, names []string) (string, []string) {
	themes := []string{"themes"}
	for _, e := range entries {
		if strings.EqualFold(e.key, "themesdir") {
			themes = append(themes, e.values...)
		}
	}
	var more []string
	for _, e := range entries {
		if !strings.EqualFold(e.key, "replacements") {
			continue
		}
		for _, v := range e.values {
			for _, part := range strings.Split(v, ",") {
				_, to, ok := strings.Cut(part, "->")
				if to = strings.TrimSpace(to); !ok || to == "" {
					return "sets replacements to " + clip(v) + ", which the gate does not read", nil
				}
				for _, t := range themes {
					for _, from := range []string{dir, cwd} {
						p, base := to, t
						if !filepath.IsAbs(base) {
							base = filepath.Join(from, base)
						}
						if !filepath.IsAbs(p) {
							p = filepath.Join(base, p)
						}
						if why := g.settingsPathUnsound(from, p); why != "" {
							return "sets replacements to " + clip(v) + ": " + why, nil
						}
						more = append(more, settingsFilesIn(p, names)...)
					}
				}
			}
		}
	}
	return "", more
}

// optionValues returns the values args give the options opts (see
// optionValue).
func optionValues(args []string, opts ...string) []string {
	var out []string
	for i := range args {
		for _, o := range opts {
			if v, ok := optionValue(o, args, i); ok && v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// settingsFilesIn returns the paths of the settings files names in dir:
// a name that ends in "/" is a directory (its path ends in "/" too), and
// one with a * is a pattern (hugo's themes/*/hugo.toml) whose matches
// count.
func settingsFilesIn(dir string, names []string) []string {
	var out []string
	for _, f := range names {
		p := filepath.Join(dir, f)
		matches := []string{p}
		if strings.Contains(f, "*") {
			matches, _ = filepath.Glob(p)
		}
		for _, m := range matches {
			if strings.HasSuffix(f, "/") {
				m += "/"
			}
			out = append(out, m)
		}
	}
	return out
}

// settingsTree returns the paths of the settings files names in the
// directories below roots (those that exist; not below .git, not through
// links), and whether the walk saw every entry within maxLinkWalk.
func (g *Gate) settingsTree(roots, names []string) ([]string, bool) {
	var out []string
	budget := maxLinkWalk
	seen := map[string]bool{}
	for len(roots) > 0 {
		d := roots[0]
		roots = roots[1:]
		if seen[d] || !pathmatch.Within(d, g.workdir) {
			continue
		}
		seen[d] = true
		entries, err := g.lookups().ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if budget--; budget < 0 {
				return nil, false
			}
			switch {
			case e.IsDir() && e.Name() != ".git":
				roots = append(roots, filepath.Join(d, e.Name()))
			case slices.Contains(names, e.Name()):
				out = append(out, filepath.Join(d, e.Name()))
			}
		}
	}
	return out, true
}

// prefixed returns names, each with prefix before it.
func prefixed(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

// hugoVendored says why the _vendor/modules.txt text in dir, which lists
// the modules hugo takes from dir instead of fetching them ("# PATH
// VERSION"), may name a module the gate cannot read, or "", and returns
// the settings files (names) of the modules it lists.
func hugoVendored(dir, text string, names []string) (string, []string) {
	var more []string
	for _, line := range configLines(text) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(line, "# "))
		if !strings.HasPrefix(line, "# ") || len(f) == 0 || !filepath.IsLocal(f[0]) {
			return "lists a module the gate does not read: " + clip(line), nil
		}
		more = append(more, settingsFilesIn(filepath.Join(dir, f[0]), names)...)
	}
	return "", more
}

// settingsValue matches a key of keys (bare, quoted, or the last part of
// a dotted key) and its value: a quoted string, an array on any number of
// lines, or the rest of the line.
func settingsValue(keys []string) *regexp.Regexp {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = regexp.QuoteMeta(k)
	}
	return regexp.MustCompile(`(?i)(?:^|[\s{,.])["']?(` + strings.Join(q, "|") + `)["']?[ \t]*[:=]\s*("[^"\n]*"|'[^'\n]*'|\[[^\]]*\]|[^\n]*)`)
}

// localRepository matches the local repository a maven settings.xml
// names, and the maven.repo.local property.
var localRepository = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)<(localRepository|maven\.repo\.local)>([^<]*)<`)
})

// maxDoxyfileSize bounds the size of a Doxyfile the gate reads: doxygen's
// own template, with its comments, is 110 KiB.
const maxDoxyfileSize = 1 << 20

// maxPathSettingsFiles bounds the settings files read for one tool (those
// that exist); a tool that reads more makes the line opaque.
const maxPathSettingsFiles = 64

// maxSettingsTreeFiles bounds the settings files of pathSettings.tree
// found below the directories a tool inspects (rubocop's .rubocop.yml of
// each directory, gems in vendor/bundle among them).
const maxSettingsTreeFiles = 4096

// settingsString matches a quoted string of an array.
var settingsString = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"([^"]*)"|'([^']*)'`) })

// settingsTextUnsound says why the text of the settings file base in dir,
// read by a tool that runs in cwd, may name a path outside the workdir
// (see pathSettings; maven's options files, see mavenConfigUnsound), or
// "", and returns the settings files it names that ps follows.
func (g *Gate) settingsTextUnsound(ps pathSettings, cwd, dir, base, text string) (string, []string) {
	if why := settingsTextForm(text); why != "" {
		return why, nil
	}
	if ps.doxyfile {
		return g.doxyfileUnsound(cwd, text)
	}
	if ps.bazelrc {
		return g.bazelrcUnsound(cwd, dir, text)
	}
	if ps.cargo {
		return g.cargoConfigUnsound(dir, text), nil
	}
	if base == "modules.txt" && len(ps.modules) > 0 {
		return hugoVendored(dir, text, ps.modules)
	}
	if base == ".rubocop" {
		return g.rubocopArgsUnsound(dir, text), nil
	}
	if base == "compile_commands.json" {
		return g.compileCommandsUnsound(dir, text), nil
	}
	if base == "compile_flags.txt" {
		// clang's arguments, one a line (clang-tidy a.c printed the
		// key of -include and ../home/.ssh/id_ed25519 there).
		for _, v := range configLines(text) {
			if v = strings.TrimSpace(v); v == "" {
				continue
			}
			if !compilerArgHarmless(v) {
				return "gives the compiler " + clip(v) + ", an argument the gate does not know to be harmless", nil
			}
			if why := g.settingsPathUnsound(dir, v); why != "" {
				return "gives the compiler " + clip(v) + ": " + why, nil
			}
		}
		return "", nil
	}
	ini := strings.HasSuffix(base, ".ini") || strings.HasSuffix(base, ".cfg") || base == ".coveragerc" ||
		base == "pylintrc" || base == ".pylintrc"
	if ini {
		if why := iniUnread(text); why != "" {
			return why, nil
		}
	}
	yaml := strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml") || base == ".clang-tidy"
	if yaml {
		if why := yamlUnread(text); why != "" {
			return why, nil
		}
		if ps.erb && strings.Contains(text, "<%") {
			return "has ERB, Ruby code that rubocop runs before it reads the settings", nil
		}
	}
	if strings.Contains(text, `\u`) || strings.Contains(text, `\U`) || strings.Contains(text, `\x`) || strings.Contains(text, `\/`) {
		// JSON's "..\/home" is ../home.
		return "has an escape, which may hide a key the gate checks", nil
	}
	if strings.HasSuffix(base, ".xml") {
		for _, m := range localRepository().FindAllStringSubmatch(text, -1) {
			v := strings.TrimSpace(m[2])
			if home := g.home; home != "" && strings.ReplaceAll(v, "${user.home}", home) == filepath.Join(home, ".m2", "repository") {
				continue // maven's own cache, its default
			}
			if why := g.settingsPathUnsound(dir, v); why != "" {
				return "sets " + m[1] + " to " + clip(v) + ": " + why, nil
			}
		}
		return "", nil
	}
	if ps.tokens {
		return g.mavenConfigUnsound(cwd, filepath.Join(dir, base), text)
	}
	var more []string
	if entries, why, ok := settingsParsed(base, text, yaml); ok {
		if why != "" {
			return why, nil
		}
		if len(ps.modules) > 0 {
			why, named := g.hugoReplacements(cwd, dir, entries, ps.modules)
			if why != "" {
				return why, nil
			}
			more = append(more, named...)
		}
		for _, e := range entries {
			key := strings.ToLower(e.key)
			if !slices.Contains(ps.keys, key) {
				continue
			}
			if e.tagged {
				return "sets " + clip(e.key) + " through a tag of its own, which the gate does not read", nil
			}
			if slices.Contains(ps.code, key) && slices.ContainsFunc(e.values, func(v string) bool { return strings.TrimSpace(v) != "" }) {
				return "sets " + clip(e.key) + ", which names code the tool loads", nil
			}
			var values []string
			for _, v := range e.values {
				// Each word too, as for the pattern's unquoted values
				// (addopts: --basetemp=/x -p no:cacheprovider).
				values = append(values, v)
				if words := strings.Fields(v); len(words) > 1 {
					values = append(values, words...)
				}
			}
			why, named := g.settingsKeyUnsound(ps, cwd, dir, key, e.key, values)
			if why != "" {
				return why, nil
			}
			more = append(more, named...)
		}
	}
	for _, ix := range ps.values.FindAllStringSubmatchIndex(text, -1) {
		m := []string{text[ix[0]:ix[1]], text[ix[2]:ix[3]], text[ix[4]:ix[5]]}
		key, raw := strings.ToLower(m[1]), strings.TrimSpace(m[2])
		if (yaml || ini) && strings.Contains(text[ix[3]:ix[4]], "\n") {
			// The value is on the next line: a YAML list, an INI
			// file's continuation lines.
			raw = ""
		}
		var values []string
		if ini {
			// pytest.ini's addopts = -ra, then one option a line.
			raw = strings.TrimSpace(strings.Join(append([]string{raw}, iniContinuation(text, ix[3])...), " "))
			if raw == "" {
				continue
			}
		}
		if v := text[ix[4]:]; strings.HasPrefix(v, `"""`) || strings.HasPrefix(v, "'''") {
			return "sets " + clip(m[1]) + " to a multi-line string, which the gate does not read", nil
		}
		if raw == "" && yaml {
			// A YAML list on the lines below the key.
			var ok bool
			if values, ok = yamlBlockList(text, ix[2]); !ok {
				return "sets " + clip(m[1]) + " in a form the gate does not read (a value on the next line)", nil
			}
			raw = "[]"
		}
		if slices.Contains(ps.code, key) && (len(values) > 0 || strings.Trim(raw, "[]{} \t\n,\"'") != "") {
			return "sets " + clip(m[1]) + ", which names code the tool loads", nil
		}
		switch {
		case raw == "[]" && yaml:
		case raw == "" || raw == "|" || raw == ">" || strings.HasPrefix(raw, "*") || strings.HasPrefix(raw, "!") ||
			strings.HasPrefix(raw, "&") || strings.HasPrefix(raw, "|") || strings.HasPrefix(raw, ">"):
			return "sets " + clip(m[1]) + " in a form the gate does not read (a value on the next line, an alias, a tag)", nil
		case strings.HasPrefix(raw, "["):
			for _, s := range settingsString().FindAllStringSubmatch(raw, -1) {
				values = append(values, s[1]+s[2])
			}
			if !strings.HasSuffix(raw, "]") {
				return "sets " + clip(m[1]) + " to an array the gate does not read", nil
			}
			if len(values) == 0 && strings.Trim(raw, "[] \t\n,") != "" {
				return "sets " + clip(m[1]) + " to an array the gate does not read", nil
			}
		case strings.HasPrefix(raw, `"`) || strings.HasPrefix(raw, "'"):
			values = []string{strings.Trim(raw, `"'`)}
		case strings.HasPrefix(raw, "{"):
			// An object: its own keys are matched by the pattern.
			continue
		default:
			// Unquoted: the rest of the line, and each word of it
			// (addopts = --basetemp=/x -p no:cacheprovider).
			values = append([]string{strings.TrimRight(raw, ", ")}, strings.Fields(raw)...)
		}
		why, named := g.settingsKeyUnsound(ps, cwd, dir, key, m[1], values)
		if why != "" {
			return why, nil
		}
		more = append(more, named...)
	}
	return "", more
}

// firstUnsound returns the first reason judge gives against the settings
// word v taken from each of dirs, or "": a tool may take a relative path
// from the settings file's directory or from its working directory
// (round redteam126), so a word must be sound from each of them that the
// tool uses (only the file's directory for a file it follows).
func firstUnsound(judge func(dir, v string) string, v string, dirs ...string) string {
	for _, d := range dirs {
		if why := judge(d, v); why != "" {
			return why
		}
	}
	return ""
}

// settingsKeyUnsound judges the values that a settings file in dir, read
// by tool running in cwd, gives key (lower-case; name is the key as the
// file spells it): a path outside the workdir, a compiler argument not
// known harmless, an option of addopts that leaves the workdir. It
// returns the settings files the values name that ps follows.
func (g *Gate) settingsKeyUnsound(ps pathSettings, cwd, dir, key, name string, values []string) (string, []string) {
	var more []string
	// The tool takes a relative path from its working directory, or
	// from the settings file's; a file it follows is found from the
	// file's directory.
	tokenDirs, pathDirs := []string{dir}, []string{dir}
	if ps.fromCwd {
		tokenDirs = append(tokenDirs, cwd)
		if !slices.Contains(ps.follow, key) {
			pathDirs = tokenDirs
		}
	}
	for _, v := range values {
		if why := firstUnsound(g.settingsPathUnsound, v, pathDirs...); why != "" {
			return "sets " + clip(name) + " to " + clip(v) + ": " + why, nil
		}
		if slices.Contains(ps.args, key) && !compilerArgHarmless(v) {
			return "gives the compiler " + clip(v) + ", an argument the gate does not know to be harmless", nil
		}
		if key == "addopts" {
			why := ""
			if slices.ContainsFunc(strings.Fields(v), func(w string) bool { return strings.HasPrefix(w, "@") }) {
				// pytest 8.2 and later read more words from @FILE,
				// also in addopts.
				why = "pytest reads more options from the file an @ word names"
			}
			if why == "" {
				why = firstUnsound(g.tokenUnsound, v, tokenDirs...)
			}
			if why != "" {
				return "sets addopts to " + clip(v) + ": " + why, nil
			}
		}
	}
	if key == "themesdir" && len(ps.modules) > 0 {
		// hugo's themes in the directory themesDir names.
		for _, v := range values {
			for _, from := range []string{dir, cwd} {
				more = append(more, settingsFilesIn(filepath.Join(from, v), prefixed("*/", ps.modules))...)
			}
		}
	}
	for _, f := range ps.follow {
		if key != f {
			continue
		}
		for _, v := range values {
			if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
				// rubocop's inherit_from of a URL: settings the
				// gate cannot read.
				return "sets " + clip(name) + " to " + clip(v) + ", settings the tool fetches", nil
			}
			candidates := []string{filepath.Join(dir, v)}
			if !strings.HasPrefix(v, ".") && !filepath.IsAbs(v) {
				// A package's settings (@tsconfig/node20/tsconfig.json).
				candidates = append(candidates, filepath.Join(dir, "node_modules", v))
			}
			for _, p := range candidates {
				for _, q := range []string{p, p + ".json", filepath.Join(p, "tsconfig.json")} {
					if fi, err := os.Stat(q); err == nil && !fi.IsDir() {
						more = append(more, q)
					}
				}
			}
		}
	}
	return "", more
}

// tokenUnsound judges a command-line word of a settings file: each part
// of it after '=' or ':' that looks like a path (absolute, from the home,
// with a variable or ..) must lie in the workdir, and so must any other
// part where the project's links lead (round redteam126: addopts =
// --junitxml=lnk/j.xml, with lnk a link to ../home, made pytest write
// there).
func (g *Gate) tokenUnsound(dir, tok string) string {
	for _, part := range strings.FieldsFunc(tok, func(r rune) bool { return r == '=' || r == ':' || r == ',' }) {
		if strings.HasPrefix(part, "/") || strings.HasPrefix(part, "~") || strings.Contains(part, "$") ||
			strings.Contains(part, "..") {
			if why := g.settingsPathUnsound(dir, part); why != "" {
				return why
			}
			continue
		}
		p := filepath.Join(dir, part)
		if !pathmatch.Within(g.lookups().Resolve(p), g.lookups().Resolve(g.workdir)) {
			return "a link of the project's leads it outside the workdir: " + clip(p)
		}
		if g.hitsProtected(p, false) {
			return "a protected path"
		}
	}
	return ""
}

// settingsPathUnsound says why the path v, relative to dir, that a
// settings file names may lie outside the workdir, inside .git or on a
// protected path, or "". A URL names no path; hugo's :cacheDir and
// :resourceDir and tsc's ${configDir} stand for the directories they
// name.
func (g *Gate) settingsPathUnsound(dir, v string) string {
	v = strings.TrimSpace(v)
	if v == "" || strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
		return ""
	}
	if rest, ok := strings.CutPrefix(v, "${configDir}"); ok {
		v = "./" + rest
	}
	if v == "${cwd}" || v == "${cwd}/" {
		v = "." // cspell's globRoot: the working directory, in the workdir
	}
	v = cmakePresetMacros().Replace(v)
	if rest, ok := strings.CutPrefix(v, "<rootDir>"); ok {
		v = "./" + rest // jest's
	}
	if strings.HasPrefix(v, ":") && !strings.Contains(v, "..") {
		return ""
	}
	if strings.HasPrefix(v, "~") || strings.Contains(v, "$") || strings.Contains(v, "%") {
		return "a path only known when the tool expands it"
	}
	p := v
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	if why := g.outsideOrdinary(p, shellscan.Write); why != "" {
		return why
	}
	if g.hitsProtected(p, true) {
		return "a protected path"
	}
	return ""
}

// cmakePresetMacros replaces the macros of a CMake preset that name the
// source directory (the presets file's directory) or a plain word.
var cmakePresetMacros = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer("${sourceDir}", ".", "${fileDir}", ".", "${sourceParentDir}", "..",
		"${presetName}", "preset", "${sourceDirName}", "source", "${generator}", "generator",
		"${hostSystemName}", "host")
})
