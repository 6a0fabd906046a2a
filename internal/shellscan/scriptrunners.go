package shellscan

import "strings"

// scriptRunners are the interpreters the interpreters table does not hold
// that run a script given as an operand, whatever its name (groovy t.txt,
// sbcl --script t.txt, dart run t.txt, nim e t.txt), with the files they
// may load beside it as code: the modules a script imports, the manifest
// that tells where they are. A nil list is a runner that loads nothing
// else the analysis knows of.
var scriptRunners = lazy[map[string][]string]{build: func() map[string][]string {
	js := []string{"*.js", "*.mjs", "*.cjs", "*.ts", "*.mts", "*.cts", "*.jsx", "*.tsx", "package.json", "tsconfig.json", "node_modules/"}
	lisp := []string{"*.lisp", "*.lsp", "*.cl", "*.fasl", "*.asd"}
	scheme := []string{"*.scm", "*.ss", "*.sls", "*.sld"}
	return map[string][]string{
		"groovy": {"*.groovy"}, "kotlin": {"*.kt", "*.kts"}, "kotlinc": {"*.kt", "*.kts"}, "scala": {"*.scala", "*.sc"},
		"guile": scheme, "racket": {"*.rkt"}, "sbcl": lisp, "clisp": lisp, "ecl": lisp,
		"scheme": scheme, "mit-scheme": scheme, "chez": scheme, "petite": scheme, "csi": scheme, "gosh": scheme,
		"runghc": {"*.hs", "*.lhs"}, "runhaskell": {"*.hs", "*.lhs"},
		"elixir": {"*.ex", "*.exs"}, "iex": {"*.ex", "*.exs"}, "escript": {"*.erl", "*.hrl"},
		"swift": {"*.swift", "Package.swift"}, "crystal": {"*.cr", "shard.yml"}, "nim": {"*.nim", "*.nims", "nim.cfg", "config.nims"},
		"dart": {"*.dart", "pubspec.yaml", ".dart_tool/"}, "ocaml": {"*.ml", "*.cmo", "*.cma", ".ocamlinit"},
		"clojure": {"*.clj", "*.cljc", "deps.edn"}, "clj": {"*.clj", "*.cljc", "deps.edn"}, "bb": {"*.clj", "*.cljc", "bb.edn"},
		"zx": js, "tsx": js, "ts-node": js, "babel-node": append(js, ".babelrc", "babel.config.js"), "coffee": append(js, "*.coffee"),
		"gjs": {"*.js"}, "qjs": {"*.js", "*.mjs"}, "rhino": {"*.js"},
		"jruby": {"*.rb"}, "truffleruby": {"*.rb"}, "rdmd": {"*.d"}, "swipl": {"*.pl", "*.pro"}, "gforth": {"*.fs", "*.fth"},
		// nix evaluates the expression of its file operand, or of
		// default.nix or shell.nix in the working directory with none,
		// and nix-shell runs its shellHook.
		"nix-instantiate": {"*.nix"}, "nix-build": {"*.nix"}, "nix-shell": {"*.nix"},
	}
}}

// scriptRunner records, for a script runner (see scriptRunners), that it
// runs the code of each of its operands, any of which may be its script,
// and of the files of its language beside them: code the line writes and
// then runs this way makes the line opaque (see runsWrittenCode), as it
// does for python t.txt.
func (an *analyzer) scriptRunner(name string, args []word) {
	names, ok := scriptRunners.get()[name]
	if !ok || onlyVersion(args) {
		return
	}
	if len(names) > 0 {
		an.usesCode(name, "/", names...)
	}
	for _, a := range args {
		t := a.text
		if a.dynamic {
			an.opaque(name + " gets arguments that are only known when it runs")
			return
		}
		if v, ok := strings.CutPrefix(t, "--"); ok {
			if _, val, ok := strings.Cut(v, "="); ok {
				an.usesCode(name, val) // sbcl --script=t.txt
			}
			continue
		}
		if !strings.HasPrefix(t, "-") {
			an.usesCode(name, t)
		}
	}
}
