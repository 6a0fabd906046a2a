package shellscan

import (
	"strings"
)

// inlineFlags are, for interpreters the interpreters table does not
// hold, the options (or first words) that give them code on the line:
// ts-node -e, clojure -e, sbcl --eval, crystal eval, dotnet fsi. A
// one-letter option also matches with its value attached (-e'…'), a long
// one with "=value".
var inlineFlags = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"ts-node": {"-e", "--eval", "-p", "--print", "-i", "--interactive"}, "tsx": {"-e", "--eval", "-p", "--print"},
		"babel-node": {"-e", "--eval", "-p", "--print"}, "coffee": {"-e", "--eval", "-i", "--interactive"},
		"jruby": {"-e"}, "truffleruby": {"-e"}, "ghc": {"-e", "--interactive"}, "clojure": {"-e", "--eval"},
		"clj": {"-e", "--eval"}, "bb": {"-e", "--eval"}, "racket": {"-e", "--eval", "-i", "--repl"},
		"guile": {"-c", "-e"}, "sbcl": {"--eval"}, "clisp": {"-x"}, "ecl": {"-eval"}, "kotlin": {"-e"},
		"kotlinc": {"-e", "-expression"}, "scala": {"-e"}, "groovy": {"-e"}, "elixir": {"-e", "--eval"},
		"erl": {"-eval", "-s", "-run", "-S"}, "iex": {"-e", "--eval"}, "crystal": {"eval", "i", "play"},
		"rdmd": {"--eval", "--loop"}, "gjs": {"-c", "--command"}, "qjs": {"-e", "--eval", "-i"}, "rhino": {"-e"},
		"matlab": {"-r", "-batch"}, "mix": {"-e", "--eval"}, "dotnet": {"fsi"}, "lein": {"repl"}, "nix": {"repl"},
		"swipl": {"-g", "-t"}, "gforth": {"-e", "--evaluate"}, "csi": {"-e", "-p"}, "gosh": {"-e"}, "utop": {"-e"},
	}
}}

// replNames are the interpreters that, given no operand, read code from
// their standard input.
var replNames = []string{"ts-node", "tsx", "babel-node", "coffee", "clojure", "clj", "bb", "racket", "guile",
	"sbcl", "clisp", "ecl", "ocaml", "kotlinc", "scala", "groovysh", "erl", "iex", "psysh", "gp", "jruby",
	"qjs", "rhino", "gjs", "utop", "swipl", "gforth", "csi", "gosh", "scheme", "mit-scheme", "chez", "petite"}

// inlineCode returns why the command name args runs code given on the
// line or read from its standard input (a REPL), or fetches code from the
// network and runs it (bun x, deno run https://…), or "".
func inlineCode(name string, args []word) string {
	if onlyVersion(args) {
		return ""
	}
	first := firstOperand(args)
	switch name {
	case "deno":
		if first == "" || first == "repl" {
			return "deno repl reads code from its standard input"
		}
		for _, a := range args {
			for _, p := range []string{"http://", "https://", "npm:", "jsr:"} {
				if strings.HasPrefix(a.text, p) {
					return "deno runs code it fetches from the network (" + clipName(a.text) + ")"
				}
			}
		}
	case "bun":
		if first == "repl" {
			return "bun repl reads code from its standard input"
		}
		if first == "x" {
			return "bun x fetches a package from the registry and runs it, as bunx does"
		}
	}
	for _, f := range inlineFlags.get()[name] {
		for _, a := range args {
			t := a.text
			if t == "--" {
				break
			}
			if !strings.HasPrefix(f, "-") {
				if t == first && t == f {
					return name + " " + f + " runs code given on the line or its standard input"
				}
				continue
			}
			if t == f || strings.HasPrefix(t, f+"=") || len(f) == 2 && strings.HasPrefix(t, f) {
				return name + " " + f + " runs code given on the line"
			}
		}
	}
	if first == "" && contains(replNames, name) {
		return name + " reads code from its standard input"
	}
	return ""
}
