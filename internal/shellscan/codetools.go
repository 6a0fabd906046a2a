package shellscan

import "strings"

// workdirCode records the code and settings the programs below load from
// the working directory, or from the files their options name, whatever
// their other words: what the line writes there before them is code of its
// own (see runsWrittenCode). dmypy is mypy's daemon (the plugins
// mypy.ini names); stubgen and stubtest import the modules they are
// given; prove runs the t/*.t scripts and its operands, with the options
// of .proverc; universal ctags (etags too) reads the options of
// .ctags.d/*.ctags, .ctags, ctags.cnf and --options=FILE, which may
// send its output anywhere (-o ~/.bashrc); pgbench runs the \shell and
// \setshell lines of its -f scripts as commands, and a script from its
// standard input (-f -) is not seen at all; doit, paver, waf and jake run
// their task files (dodo.py, pavement.py, wscript, Jakefile).
func (an *analyzer) workdirCode(name string, args []word) {
	switch name {
	case "dmypy", "stubgen", "stubtest":
		an.usesCode(name, ".", dirCodeFiles...)
	case "prove":
		an.usesCode(name, ".", "*.t", "*.pl", "*.pm", "*.PL", "*.so", ".proverc")
		an.optionCode(name, args, "", "--rc")
	case "ctags", "etags", "ctags-universal", "universal-ctags", "uctags", "ctags-exuberant", "exuberant-ctags":
		an.usesCode(name, ".", "*.ctags", ".ctags", "ctags.cnf")
		an.optionCode(name, args, "", "--options")
	case "pgbench":
		an.optionCode(name, args, "f", "--file")
	case "doit", "paver", "waf", "jake":
		// Task runners whose task file is code, as invoke's tasks.py
		// and fab's fabfile.py are (see projectFiles).
		an.usesCode(name, ".", "dodo.py", "pavement.py", "wscript", "Jakefile", "Jakefile.js", "*.py", "*.js")
	}
}

// optionCode records as code name runs the file each of its options
// short (a one-letter option, with its value attached or next) and long
// (with its value after '=' or next) names, without a pgbench weight
// (@5); a value only known when the line runs, or "-" (its standard
// input), makes the line opaque.
func (an *analyzer) optionCode(name string, args []word, short, long string) {
	for i, a := range args {
		t := a.text
		var v *word
		switch {
		case t == long:
			if i+1 < len(args) {
				v = &args[i+1]
			}
		case strings.HasPrefix(t, long+"="):
			v = &word{text: t[len(long)+1:], dynamic: a.dynamic}
		case ShortForm(t, short) != "":
			if rest := ShortForm(t, short); rest != "-" {
				v = &word{text: rest[1:], dynamic: a.dynamic}
			} else if i+1 < len(args) {
				v = &args[i+1]
			}
		case LongForm(t, long):
			if _, val, ok := strings.Cut(t, "="); ok {
				v = &word{text: val, dynamic: a.dynamic}
			} else if i+1 < len(args) {
				v = &args[i+1]
			}
		case a.dynamic && strings.HasPrefix(t, "-"):
			an.opaque(name + " is given an option only known when the line runs, which may name a file of code")
			return
		}
		if v == nil {
			continue
		}
		file := v.text
		if name == "pgbench" {
			if j := strings.LastIndexByte(file, '@'); j > 0 {
				file = file[:j]
			}
		}
		if v.dynamic || file == "-" || file == "" {
			an.opaque(name + " runs a file of code named by a word only known when the line runs, or its standard input")
			return
		}
		an.usesCode(name, file)
	}
}

// LongForm reports whether the word t gives the long option long (with
// its value after '=' or next) in a form a tool's parser may take: long
// and long=V; -name, as LLVM's tools take it (clang-tidy
// -config-file=F); or a prefix of --name of three letters or more, as
// Python's argparse and Ruby's OptionParser take it (mypy --conf F,
// rubocop --conf F). A form the tool does not take only makes a caller
// count one file more.
func LongForm(t, long string) bool {
	name, ok := strings.CutPrefix(long, "--")
	if !ok || name == "" {
		return false
	}
	for _, dashes := range []string{"--", "-"} {
		rest, ok := strings.CutPrefix(t, dashes)
		if !ok || strings.HasPrefix(rest, "-") {
			continue
		}
		key, _, _ := strings.Cut(rest, "=")
		if key == name || dashes == "--" && len(key) >= 3 && strings.HasPrefix(name, key) {
			return true
		}
	}
	return false
}

// ShortForm returns the part of the word t from the one-letter option
// short on ("-" alone when its value is the next word), or "" when t
// does not give it: -x, -xV, and -abx or -abxV, where flags a and b come
// before it in a cluster, as getopt, argparse, Ruby's OptionParser and
// pflag take them (pytest -qc F, rubocop -Dc F and golangci-lint run -vc F
// read F at round 124). A cluster a tool does not take only makes a
// caller count one file more.
func ShortForm(t, short string) string {
	if len(short) != 1 || len(t) < 2 || t[0] != '-' || t[1] == '-' {
		return ""
	}
	for k := 1; k < len(t); k++ {
		c := t[k]
		if c == short[0] {
			return "-" + t[k+1:]
		}
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return ""
		}
	}
	return ""
}
