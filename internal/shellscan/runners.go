package shellscan

import (
	"path"
	"strings"
)

// runnerCode are, for programs the analysis does not model that run code
// they find by a name rather than a path (gunicorn app:app imports app.py,
// cabal run builds and runs the package of the working directory, jupyter
// loads jupyter_*_config.py there), the base names of the files they find
// in the working directory or above it and run: a line that writes one and
// then runs the program runs code of its own, as runsWrittenCode says of
// make and a Makefile.
var runnerCode = lazy[map[string][]string]{build: func() map[string][]string {
	python := []string{"*.py", "*.pyc", "*.so", "*.pth", "pyproject.toml", "setup.cfg"}
	node := languageFiles.get()["node"]
	m := map[string][]string{
		"cabal":   {"*.cabal", "cabal.project", "cabal.project.*", "Setup.hs", "*.hs", "*.lhs", "*.hsc"},
		"stack":   {"stack.yaml", "package.yaml", "*.cabal", "Setup.hs", "*.hs", "*.lhs", "*.hsc"},
		"dotnet":  {"*.cs", "*.fs", "*.vb", "*.csx", "*.fsx", "*.dll", "Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props"},
		"devbox":  {"devbox.json", "devbox.lock", "*.nix"},
		"devenv":  {"devenv.nix", "devenv.yaml", "devenv.lock", "*.nix"},
		"dune":    {"dune", "dune-project", "dune-workspace", "*.ml", "*.mli", "*.opam"},
		"swift":   {"Package.swift", "*.swift"},
		"zig":     {"build.zig", "build.zig.zon", "*.zig"},
		"dart":    {"pubspec.yaml", "*.dart"},
		"gleam":   {"gleam.toml", "*.gleam", "*.erl", "*.mjs"},
		"nimble":  {"*.nimble", "config.nims", "*.nims", "*.nim"},
		"nim":     {"config.nims", "*.nims", "*.nim", "nim.cfg"},
		"dub":     {"dub.json", "dub.sdl", "*.d"},
		"rebar3":  {"rebar.config", "rebar.config.script", "*.erl", "*.hrl", "*.app.src"},
		"lake":    {"lakefile.lean", "lakefile.toml", "*.lean"},
		"mill":    {"build.sc", "build.mill", "*.sc", "*.scala", "*.mill"},
		"clojure": {"deps.edn", "*.clj", "*.cljc", "*.edn"},
		"bb":      {"bb.edn", "*.clj", "*.cljc", "*.bb", "*.edn"},
		"crystal": {"shard.yml", "*.cr"},
		"shards":  {"shard.yml", "*.cr"},
		"v":       {"v.mod", "*.v", "*.vsh"},
		"kedro":   append([]string{"conf/"}, python...),
		"mlflow":  append([]string{"MLproject", "conda.yaml", "python_env.yaml"}, python...),
	}
	for _, n := range []string{"gunicorn", "uvicorn", "hypercorn", "daphne", "granian", "waitress-serve", "flask",
		"fastapi", "sanic", "celery", "rq", "dramatiq", "huey_consumer", "taskiq", "faust", "streamlit", "locust",
		"gradio", "marimo", "panel", "bokeh", "manim", "kernprof", "scalene", "memray", "pyinstrument", "jupyter",
		"jupyter-nbconvert", "jupyter-execute", "jupyter-lab", "jupyter-notebook", "papermill", "ipykernel",
		"hy", "django-admin", "prefect", "dagster", "airflow", "luigi", "watchmedo", "ptw", "pytest-watch",
		"pyinfra", "dask", "ray", "nameko", "textual", "ploomber", "voila"} {
		m[n] = python
	}
	for _, n := range []string{"vite-node", "ts-node-dev", "tsnd", "nodemon", "esno", "esr", "jiti", "node-dev",
		"sucrase-node", "swc-node", "electron", "nw", "tsm", "esbuild-register", "ava", "tap", "uvu", "zx"} {
		m[n] = node
	}
	m["flutter"], m["clj"], m["crystal-run"] = m["dart"], m["clojure"], m["crystal"]
	m["scala-cli"], m["scala"], m["amm"] = []string{"*.scala", "*.sc", "project.scala"}, []string{"*.scala", "*.sc"}, []string{"*.sc", "*.scala"}
	return m
}}

// codeExtensions are the extensions (lower case, with the dot) of files
// that hold code a language's interpreter runs, or a program a runtime
// loads (.dll, .jar, .wasm): an unmodelled program given such a file may
// run it (sbcl --script x.lisp, racket x.rkt, tcc -run x.c, papermill
// x.ipynb, dotnet x.dll).
var codeExtensions = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields(`.py .pyw .pyc .pyz .ipynb .js .mjs .cjs .ts .mts .cts .jsx .tsx .coffee .rb .pl .pm
		.php .lua .moon .fnl .scm .ss .sls .sld .rkt .lisp .lsp .cl .el .clj .cljs .cljc .bb .exs .ex .erl .escript
		.scala .sc .kts .kt .groovy .gvy .java .dart .swift .hs .lhs .ml .cr .zig .go .c .cc .cpp .cxx .v .vsh
		.cs .csx .fsx .vb .jl .r .tcl .nim .nims .raku .rakumod .p6 .pl6 .hy .xsh .fs .fth .4th .pike .st .io
		.d .janet .wren .gleam .roc .mojo .odin .hx .sh .bash .zsh .ksh .fish .ps1 .psm1 .awk .m .sql .wasm
		.wat .jar .class .dll .exe .so .elc .lean .idr .agda .purs .elm .re .res .ml4 .mll .mly .vim .applescript
		.scpt .jsh .bat .cmd .nu .rs .jsonnet .libsonnet .star .bzl .cue .dhall .nix .ijs .apl .bqn .k .q`) {
		m[e] = true
	}
	return m
}}

// codeReaders are programs the analysis does not model that read code
// files without running them or anything they name: formatters, linters
// without plugins, checksums, viewers. A code file the line wrote may be
// given to them.
var codeReaders = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`gofmt goimports gofumpt black isort autopep8 yapf ruff shellcheck shfmt
		clang-format rustfmt stylua taplo yamllint dos2unix unix2dos iconv xxd od hexdump strings file stat
		md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum jq yq bat highlight pygmentize
		enscript a2ps cloc tokei scc wc diff diff3 sdiff cmp colordiff delta difft git-diff ctags etags
		uncrustify astyle indent csplit fold fmt nl pr rev tac truncate touch chmod chown cp mv ln install
		cat head tail less more sort uniq tr cut paste join column comm grep egrep fgrep rg ag ack sed awk
		gzip bzip2 xz zstd base64 basenc uuencode aspell hunspell codespell typos vale cspell`) {
		m[n] = true
	}
	return m
}}

// runAsOthers are programs that run a command as another user, which the
// workdir does not contain (gosu root …, su-exec root …): opaque as sudo
// is.
var runAsOthers = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"gosu": true, "su-exec": true, "suexec": true, "setuser": true, "chroot-user": true}
}}

// runnerCodeUses records, for a program the analysis does not model, the
// code it may run from files the line writes before it: the files
// runnerCode names for it, and each operand (or an option's value after
// =) whose extension is one of codeExtensions, unless the program only
// reads code (codeReaders) or is a compiler (whose output a later
// command's code use checks). A program that runs its command as
// another user makes the line opaque.
func (an *analyzer) runnerCodeUses(name string, args []word) {
	if runAsOthers.get()[name] {
		an.opaque(name + " runs a command as another user, which the workdir does not contain")
		return
	}
	if names, ok := runnerCode.get()[name]; ok {
		an.usesCode(name, "/", names...)
	}
	if codeReaders.get()[name] || isCompiler(name) || onlyVersion(args) {
		return
	}
	for _, a := range args {
		if a.dynamic || a.text == "" {
			continue
		}
		v := a.text
		if strings.HasPrefix(v, "-") {
			_, after, ok := strings.Cut(v, "=")
			if !ok {
				continue
			}
			v = after
		}
		if codeExtensions.get()[strings.ToLower(path.Ext(v))] {
			an.usesCode(name, v)
		}
	}
}
