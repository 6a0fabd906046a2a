package shellscan

import (
	"path"
	"slices"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// maxGuessed bounds the operands of one line that look like a command
// (see guessInner) and are analyzed as one, maxGuessWords the words of
// each; a line with more is opaque.
const (
	maxGuessed    = 64
	maxGuessWords = 256
)

// guessInner looks for a command among the words of a command the
// analysis does not model, which may run its operands as a command (as
// logsave FILE CMD ARGS…, gprofng collect app CMD ARGS…, make-first-
// existing-target -c CMD do) or a command string given as an operand or
// an option's value (-c 'CMD; CMD', -XX:OnError=CMD). Each operand that
// names a program the analysis models starts a guessed command: the
// words from it to the end; each operand or option value holding a
// command string whose first word names such a program (or that holds
// shell operators) is parsed as a script. A guessed command is analyzed
// as a command of its own (see guessCommand): deny rules see it, and what
// would make it opaque on its own (a shell, inline code, find -delete,
// git -c …) makes the line opaque.
func (an *analyzer) guessInner(args []word, depth, chain int) {
	for i, a := range args {
		if a.dynamic || a.special || a.text == "" || i > 0 && messageOptions.get()[args[i-1].text] {
			continue
		}
		t := a.text
		if name, _, ok := strings.Cut(t, "="); ok && messageOptions.get()[name] {
			continue
		}
		if isAssignment(t) && dangerousEnv(t[:strings.IndexByte(t, '=')]) {
			// A runner that takes NAME=value operands (as env and sudo
			// do) sets the environment of the command it runs.
			an.opaque("a command the analysis does not model is given " + clipName(t) + ", which may set the environment of a command it runs")
			continue
		}
		if t[0] != '-' && !strings.ContainsAny(t, " \t\n") && !strings.ContainsAny(t, shellSyntax) && !splitsByIFS(t) && !joinedExpansion(t) {
			if envSubcommand(an.guessOf, args[:i], t) || i > 0 && namingOption(args[i-1].text) && t != "printenv" && envPrinterName(t) {
				continue // poetry export, conda env export, helm env
			}
			if envPrinterName(t) {
				// A runner that hands its operand to sh (hyperfine
				// --show-output set) runs set or export given nothing,
				// which print the environment; env and printenv may be a
				// command of their own whatever words follow (hyperfine
				// -p env true prepares with env) (round 99).
				an.envPrinter(t, nil)
			} else {
				// hyperfine --show-output '${x:-env}', 'e$@nv': the
				// shell the runner hands it to makes env of it (round
				// 100).
				for _, n := range spelledEnvPrinter(t) {
					an.envPrinter(n, nil)
				}
			}
			if guessable(t) {
				an.guessCommand(args[i:], depth, chain)
			} else if strings.Contains(t, "/") {
				an.guessedPaths = append(an.guessedPaths, t)
			}
			continue
		}
		// A command string: the operand itself, the value after an
		// option's '=', or the value a cluster of one-letter options
		// carries attached (-c'rm -f c').
		var strs []string
		if t[0] != '-' {
			strs = append(strs, t)
		} else if _, v, ok := strings.Cut(t, "="); ok {
			strs = append(strs, v)
		}
		strs = attachedValues(t, strs)
		strs = assignedValues(strs)
		for _, s := range strs {
			if commandString(s) {
				an.guessScript(s, depth)
			}
			if valueEnvPrinter(t, s) {
				// mytool --exec=env, -cenv (round 99); a value the
				// shell makes env of, which the string reader finds no
				// command in (--prepare='${x:-env}', round 100).
				ns := spelledEnvPrinter(s)
				if ns == nil {
					ns = []string{s}
				}
				for _, n := range ns {
					an.envPrinter(n, nil)
				}
			}
		}
	}
}

// guessable reports whether the word w, taken as a program, names one the
// analysis models: a shell, an interpreter, a wrapper, a command that runs
// code, or one whose files or options it knows.
func guessable(w string) bool {
	base := foldCase(path.Base(w))
	name := programName(base)
	if name != base && !versionLike(strings.TrimPrefix(strings.TrimPrefix(base, name), "-")) {
		// Digits after a program's name that are no version: a key type
		// (ed25519) or a digest name, not ed or sh. As the command run,
		// such a name is still taken for the program (programName).
		return false
	}
	if builtinOnly.get()[name] || guessDataWords.get()[name] {
		return false
	}
	if _, ok := opaqueCommands.get()[name]; ok {
		return true
	}
	if _, ok := interpreters.get()[name]; ok || isPython(name) {
		return true
	}
	if _, ok := fileCommands.get()[name]; ok {
		return true
	}
	if _, ok := optionDanger.get()[name]; ok {
		return true
	}
	if _, ok := runners.get()[name]; ok {
		return true
	}
	if _, ok := configWriters.get()[name]; ok {
		return true
	}
	if homeStateName(name) || runningName(name) || outsideName(name) {
		return true
	}
	return modelledNames.get()[name] || strings.HasPrefix(name, "git-") || isCompiler(name) || name == "printenv" || name == "ps" ||
		name == "go" || strings.HasPrefix(name, "go1.")
}

// versionLike reports whether s is a version as programs' names carry
// it (3, 3.12, 5.36.0, 14): numbers joined by dots, the first of at most
// two digits and the others of at most three.
func versionLike(s string) bool {
	if s == "" {
		return false
	}
	for i, n := range strings.Split(s, ".") {
		if n == "" || len(n) > 2+min(i, 1) || strings.Trim(n, "0123456789") != "" {
			return false
		}
	}
	return true
}

// modelledNames are the other programs wrapped and fileCommand look
// inside.
var modelledNames = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"sh", "bash", "rbash", "dash", "ash", "zsh", "ksh", "mksh", "yash", "fish", "csh",
		"tcsh", "pwsh", "powershell", "nu", "elvish", "xonsh", "time", "nice", "caffeinate", "nohup", "setsid", "timeout",
		"env", "sudo", "doas", "su", "runuser", "find", "git", "make", "gmake", "rustc", "rustdoc", "awk",
		"gawk", "mawk", "nawk", "busybox-awk", "sed", "gsed", "tar", "bsdtar", "unzip", "7z", "cpio", "dd",
		"xxd", "curl", "wget", "gzip", "gunzip", "uncompress", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "zstdmt",
		"lz4", "lzma", "unlzma", "lzip", "pigz", "unpigz", "pbzip2", "plzip", "lzop", "brotli"} {
		m[n] = true
	}
	return m
}}

// builtinOnly are the opaque commands that are shell builtins with no
// program of that name: a program cannot run them.
var builtinOnly = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"eval": true, "source": true, ".": true, "trap": true, "hash": true, "enable": true, "builtin": true,
		"exec": true, "set": true, "shopt": true, "alias": true, "unalias": true, "unset": true, "read": true,
		"mapfile": true, "readarray": true, "getopts": true, "let": true, "declare": true, "typeset": true,
		"local": true, "export": true, "readonly": true, "fc": true, "history": true, "bind": true,
		"complete": true, "compgen": true, "coproc": true, "select": true, "ulimit": true, "jobs": true,
		"cd": true, "pushd": true, "popd": true, "wait": true, "command": true,
	}
}}

// guessDataWords are names of opaque commands that are common words among
// the operands of other programs (npm install, gh pr view, make man, pip
// download --platform x86_64), and whose danger as a command is in the
// paths they are given, which the caller checks as paths the command may
// write.
var guessDataWords = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"install": true, "link": true, "ln": true, "split": true, "csplit": true, "view": true, "man": true,
		"more": true, "less": true, "rename": true, "mktemp": true, "service": true, "not": true, "ar": true,
		"mail": true, "mailx": true, "pager": true, "editor": true, "sem": true, "dpkg": true, "apt": true,
		"apt-get": true, "time-wrapper": true, "chronic": true, "pee": true, "ifne": true, "infocmp": true,
		"fallocate": true, "mknod": true, "jar": true, "corepack": true, "ftp": true, "i386": true, "i486": true,
		"i586": true, "i686": true, "x86_64": true, "aarch64": true, "armv7l": true, "armv8l": true, "ppc": true,
		"ppc32": true, "ppc64": true, "ppc64le": true, "s390": true, "s390x": true,
		// A colour (ppmmake red 16 16, convert -fill red): red, the
		// restricted ed, runs no command and writes only files of the
		// working directory named without a slash (gate65).
		"red": true,
	}
}}

// commandString reports whether s, an operand or an option's value,
// looks like a command line: several words of which the first names a
// program the analysis models, or shell operators.
func commandString(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	if guessable(f[0]) || guessable(withoutExpansions(f[0])) || guessable(withoutExpansions(withValues(f[0]))) ||
		builtinOnly.get()[f[0]] || f[0] == "!" || f[0] == "{" || f[0] == "(" {
		return len(f) > 1 || strings.ContainsAny(s, ";&|")
	}
	return strings.ContainsAny(s, shellSyntax) || strings.Contains(s, "$(") || dollarContinued(s) || splitsByIFS(s) ||
		joinedExpansion(f[0])
}

// joinedExpansion reports whether the word w holds an expansion ($x,
// ${…}) joined to other text or to another expansion: sh splits its value
// at blanks, and a value may hold one (PS4 is "+ "), so the word may be
// several and its first a program of its own ('cat${PS4#+}sub/s/id_ed25519'
// runs cat on sub/s/id_ed25519, round 103). One expansion alone ($PAGER,
// ${x:-env}) is not: its words are its value's (see spelledEnvPrinter).
func joinedExpansion(w string) bool {
	i := strings.IndexByte(w, '$')
	switch {
	case i < 0:
		return false
	case i > 0:
		return true
	}
	end := 1
	switch {
	case strings.HasPrefix(w, "${"):
		depth := 0
		for end = 1; end < len(w); end++ {
			if w[end] == '{' {
				depth++
			} else if w[end] == '}' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		end++
	case len(w) > 1 && (w[1] == '_' || isAlnum(w[1]) && !isDigits(w[1:2])):
		for end < len(w) && isNameByte(w[end]) {
			end++
		}
	default:
		end = 2 // $1, $@, $#
	}
	return end < len(w)
}

// splitsByIFS reports whether s expands IFS, which sh splits into words
// even in a word without blanks (cat${IFS}~/.ssh/id_ed25519, round 102),
// or expands a variable indirectly (${!x}), which may name IFS.
func splitsByIFS(s string) bool {
	return strings.Contains(s, "$IFS") || strings.Contains(s, "${IFS") || strings.Contains(s, "${!")
}

// shellSyntax are the characters that make a word, even one without
// blanks, a command line to a runner that hands it to sh: operators,
// redirections, a subshell, quotes and escapes around a program's name
// (hyperfine --show-output 'set|cat', 'cat<~/.ssh/id_ed25519', '\env'
// printed the secret, round 99).
const shellSyntax = ";&|`<>()\\'\""

// withValues returns w with each ${NAME…} that carries a word of its own
// (${x:-rm}, ${x-rm}, ${x:=rm}, ${x:+rm}) replaced by that word, its own
// expansions so replaced, and the others kept: the program a default or
// an alternative value names (trap "${x:-rm} -f c" EXIT removed the
// canary, round 100).
func withValues(w string) string {
	if !strings.Contains(w, "${") {
		return w
	}
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		if w[i] != '$' || i+1 >= len(w) || w[i+1] != '{' {
			b.WriteByte(w[i])
			continue
		}
		depth, end := 0, -1
		for j := i + 1; j < len(w) && end < 0; j++ {
			switch w[j] {
			case '{':
				depth++
			case '}':
				if depth--; depth == 0 {
					end = j
				}
			}
		}
		if end < 0 {
			b.WriteString(w[i:])
			break
		}
		inner := w[i+2 : end]
		k := 0
		for k < len(inner) && (isNameByte(inner[k]) || k == 0 && strings.IndexByte("@*#?$!-", inner[k]) >= 0) {
			k++
		}
		rest := strings.TrimPrefix(inner[k:], ":")
		if k > 0 && rest != "" && strings.IndexByte("-=+", rest[0]) >= 0 {
			b.WriteString(withValues(rest[1:]))
		} else {
			b.WriteString(w[i : end+1])
		}
		i = end
	}
	return b.String()
}

// DefaultValues returns w, a word as the analysis keeps it (its unknown
// expansions as source text), with each ${NAME…} that carries a word of
// its own (a default, an alternative, an assigned default) replaced by
// that word: a value the word may take when it runs (cat
// ${x:-sub/s/id_ed25519} read the key in a command string, round 105).
func DefaultValues(w string) string { return withValues(w) }

// withoutExpansions returns w, a word as written, without its parameter
// expansions ($x, ${x…}, $1, $@ …) and quotes: the program an unset
// variable leaves (g${x}h is gh).
func withoutExpansions(w string) string {
	if !strings.Contains(w, "$") {
		return w
	}
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c == '"' || c == '\'':
		case c == '$' && i+1 < len(w) && w[i+1] == '{':
			j := strings.IndexByte(w[i:], '}')
			if j < 0 {
				return w
			}
			i += j
		case c == '$' && i+1 < len(w) && strings.IndexByte("@*#?!$-0123456789", w[i+1]) >= 0:
			i++
		case c == '$' && i+1 < len(w) && (isAlnum(w[i+1]) || w[i+1] == '_'):
			for i+1 < len(w) && (isAlnum(w[i+1]) || w[i+1] == '_') {
				i++
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// guessScript parses s, a command string an unmodelled command was given,
// and analyzes each simple command in it with the analyzer's own model of
// commands (see command), as the line's: its units only restrict, its
// paths are relocated to where its cd went (see scopeCwds), and what the
// analyzer cannot follow makes the line opaque. The builtins the string
// reader followed before (eval, command -p, set -P, read, trap) and chmod
// keep their own handling here. A string that does not parse is not a
// command line.
func (an *analyzer) guessScript(s string, depth int) {
	if depth >= maxNesting || len(s) > maxCommandLen {
		an.opaque("a command string nests too deeply to check")
		return
	}
	if dollarContinued(s) {
		an.opaque("a command string given to a command the analysis does not model continues a line after a $")
		return
	}
	an.a.scripts++
	// Its commands restrict only, as a wrapper's do: the line's rules
	// allowed the program that runs the string.
	defer func(from int) {
		for i := from; i < len(an.a.units); i++ {
			an.a.units[i].wrapper = true
		}
	}(len(an.a.units))
	// The string runs in a shell of its own, at a time the line does not
	// tell and maybe many times: where its cd goes is where its own
	// paths are taken from, not the line's (see scopeCwds).
	defer an.scopeCwds(an.cwdMarks())
	// Its set -P holds for its own cd commands (see setsPhysical).
	defer func(physical bool) { an.physical = physical }(an.physical)
	// sh runs each complete statement before a syntax error on a later
	// line ($'cd; echo x >> .bashrc\n)'): those are analyzed.
	f, _ := parsedStmts(s)
	fed := stringFed(f)
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ForClause:
			// The loop's variable holds its words, as the analyzer binds
			// it (for f in *; do wc -l "$f"; done); like the analyzer's,
			// the binding holds for the whole line, so only a name no
			// program reads from its environment is bound (see loopVar).
			if it, ok := n.Loop.(*syntax.WordIter); ok && it.Name != nil && loopVar(it.Name.Value) {
				an.loopValues(it, s)
			}
			return true
		case *syntax.CmdSubst, *syntax.ProcSubst:
			an.opaque("a command string given to a command the analysis does not model runs a command substitution")
			return true
		case *syntax.ParamExp:
			an.stringParam(n, s)
			return true
		case *syntax.BinaryCmd:
			// As on the line (see pipeInput): names xargs takes from a
			// text the string spells out through a filter.
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				if _, ok := an.printed(n.X, s); !ok && an.filtersSpelled(n.X, s) && readsNames(n.Y) {
					an.opaque("a command reads names from a text the line spells out through a filter the analysis does not follow")
				}
				if an.readsNamedFiles(n.Y, s) && an.rewritesNames(n.X, s) {
					an.opaque(rewrittenReason)
				}
			}
			return true
		case *syntax.DeclClause:
			// export -p, declare -x, typeset: the parser's declarations,
			// which print the environment given no name (round 99).
			an.envPrinter(n.Variant.Value, an.declWords(n, s))
			return true
		case *syntax.Redirect:
			// The shell that runs the string opens its redirection
			// targets as the line's are (-XX:OnError='echo x
			// >~/.bashrc'): a file it writes and then runs by path
			// (printf … > s; chmod +x s; ./s) is one the line runs and
			// writes (see runsWritten).
			an.redirect(n, s)
			return true
		case *syntax.CallExpr:
		default:
			return true
		}
		c := n.(*syntax.CallExpr)
		for _, a := range c.Assigns {
			// A value may name a file the command or a later one
			// writes (f=~/.bashrc; echo x >> $f), as the line's words
			// do.
			if a.Value != nil {
				an.unknownArgs([]word{an.word(a.Value, s)})
			}
		}
		if len(c.Args) == 0 {
			// Assignments only: a shell variable holds its value, as the
			// analyzer binds it (x=README; wc -l $x).
			for _, a := range c.Assigns {
				if shellVar(a) {
					an.assignValue(a, s)
				}
			}
			return true
		}
		if plainRead(c) {
			for _, w := range c.Args[1:] {
				if t := w.Lit(); loopVar(t) {
					an.bind(t) // bound to the data read, as on the line
				}
			}
		}
		ws := make([]word, len(c.Args))
		for i, w := range c.Args {
			ws[i] = an.word(w, s)
		}
		if braced, ok := an.bracesExpanded(ws); ok {
			// bash (hyperfine -S bash) makes words of a brace
			// expansion: {r,}m -f c runs rm m -f c, as on the line.
			ws = braced
		} else if braced != nil {
			return true
		}
		for _, emptied := range an.emptiedVariants(c.Args, ws, s) {
			// The program its name makes when the expansions the
			// analysis does not know are empty (s${x}h -c …, a
			// credential printer g${x}h auth token, command
			// kub${x}ectl config view --raw).
			ecw := emptied
			for len(ecw) > 1 && !ecw[0].dynamic && prefixBuiltins.get()[ecw[0].text] {
				ecw = prefixOperands(ecw[0].text, ecw[1:])
			}
			if len(ecw) > 0 && !ecw[0].dynamic {
				an.credentialPrinter(path.Base(ecw[0].text), ecw[1:])
				an.envPrinter(path.Base(ecw[0].text), ecw[1:])
			}
			if ws[0].dynamic && guessable(emptied[0].text) {
				an.guessCommand(emptied, depth+1, 0)
			}
		}
		// A command the string feeds (printf … | sh, sh < s) reads its
		// input from the string, whatever the line feeds (review67g: sh
		// with no operand was taken as given nothing).
		if fed[c] && !an.stdinFed {
			an.stdinFed = true
			defer func() { an.stdinFed = false }()
		}
		if ws[0].dynamic {
			if splitsProgram(c.Args[0]) {
				// sh splits an unquoted expansion beside other text into
				// words: 'cat${IFS}sub/s/id_ed25519' runs cat on the key,
				// 'nice${IFS}env' prints the environment (round 102).
				an.opaque("a command string's program is spelled with an expansion that may split it into several words")
				return true
			}
			// A program only known when the string runs: its words may
			// name files it writes, as the line's unknown words do. Its
			// expansions may make a printer of the environment of it
			// (--prepare='${x:-env}', round 100).
			if src := s[c.Args[0].Pos().Offset():c.Args[0].End().Offset()]; !strings.ContainsAny(src, " \t\n") {
				// Given words, each name is asked whether it prints
				// (${x:-printenv} GITHUB_TOKEN does, $PAGER README
				// does not).
				for _, n := range spelledEnvPrinter(src) {
					an.envPrinter(n, ws[1:])
				}
			}
			an.unknownArgs(ws)
			return true
		}
		// The analyzer's own model of the command, as on the line: its
		// cd moves the string's directories (see scopeCwds), readers
		// read, credential printers print, what it cannot follow
		// (eval, exec, a word only known when it runs) is opaque for
		// the whole line, and a command it does not model has its
		// words checked and guessed at (see fileCommand).
		// command, builtin and exec run the command after their options
		// (command -p ls), eval its words joined as a string of its own
		// (eval "cd ~"); set -P and set -o physical make the string's cd
		// commands after them resolve links first (see setsPhysical).
		cw, evaluated := ws, false
		for len(cw) > 1 && !cw[0].dynamic && prefixBuiltins.get()[cw[0].text] {
			evaluated = evaluated || cw[0].text == "eval"
			cw = prefixOperands(cw[0].text, cw[1:])
		}
		if joined, _ := joinWords(cw); evaluated && shellText(joined) {
			an.guessScript(joined, depth+1)
			return true
		}
		if len(cw) == 0 || cw[0].dynamic {
			an.unknownArgs(cw)
			return true
		}
		if cw[0].text == "set" && setsPhysical(cw[1:]) {
			an.physical = true
		}
		if b := cw[0].text; builtinOnly.get()[b] && b != "cd" && b != "pushd" && b != "popd" {
			// read, trap, hash, set …: what they bind the walk above
			// follows, and what they run is guessed at among their words
			// (trap 'cmd' EXIT), as among an unmodelled command's; set
			// given nothing prints the environment (round 99).
			an.envPrinter(b, cw[1:])
			an.guessInner(cw[1:], depth+1, 0)
			if len(cw) == len(ws) {
				// Its strings with their defaults and alternatives
				// taken (trap "${HOME:+rm} -f c" EXIT, round 100).
				for _, e := range an.emptiedVariants(c.Args, ws, s) {
					an.guessInner(e[1:], depth+1, 0)
				}
			}
			return true
		}
		ws = cw
		if ws[0].text == "chmod" {
			// As before the analyzer read strings: chmod +x bin/ls &&
			// bin/ls in a string runs the project's own program, which
			// the line's rule for programs it makes executable (see
			// runsWritten) would refuse; its words stay paths it may
			// write.
			an.guessCommand(ws, depth+1, 0)
			an.unknownArgs(ws[1:])
			return true
		}
		if isShell(path.Base(ws[0].text)) {
			// A shell in a string a program the analysis does not
			// model runs: as among such a program's words (see
			// wrapped), what it runs is not followed.
			an.opaque(path.Base(ws[0].text) + " is a shell in a command string given to a command the analysis does not model")
		}
		an.command(ws, depth+1, 0)
		return true
	})
}

// stringParam checks a parameter expansion of a command string (see
// guessScript). A default, an alternative or an error message of a
// variable keeps its value or is a word the string spells, which the
// gate takes as the word's value too (${PAGER:-cat} README, sleep
// ${N:-0}); an assigned default (: ${x:=sub}) binds the variable to it,
// as x=sub would. Any other operator (${x#xx}, ${PWD%/}, ${x,,}, ${x:2},
// ${x/a/b}, ${!x}, ${x@P}, an index) makes of a value a text the analysis
// does not compute, from one the line binds or the gate knows as well:
// the line is opaque, as on the line itself (hyperfine 'x=xxsub/s/id_ed25519;
// cat ${x#xx}' and 'cat ${PWD%/}/sub/s/id_ed25519' printed the key,
// round 105). Its length (${#x}) is a number.
func (an *analyzer) stringParam(p *syntax.ParamExp, src string) {
	if plainParam(p) || p.Length && p.Param != nil && p.Index == nil && !p.Excl {
		return
	}
	if p.Exp == nil || p.Param == nil || p.Excl || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 ||
		len(p.Modifiers) > 0 || p.Flags != nil || p.NestedParam != nil || p.Width || p.IsSet {
		an.opaque("a parameter expansion with an operator in a command string makes a text the analysis does not compute")
		return
	}
	switch p.Exp.Op {
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull, syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
	case syntax.AssignUnset, syntax.AssignUnsetOrNull:
		if p.Exp.Word != nil && loopVar(p.Param.Value) {
			an.bind(p.Param.Value, an.word(p.Exp.Word, src).text)
		}
	default:
		an.opaque("a parameter expansion with an operator in a command string makes a text the analysis does not compute")
	}
}

// isShell reports whether name is a shell's program.
func isShell(name string) bool {
	switch name {
	case "sh", "bash", "rbash", "dash", "ash", "zsh", "ksh", "mksh", "yash":
		return true
	}
	return false
}

// withoutScripts returns args without the operands of the unmodelled
// command name that guessScript reads as command strings whole (hyperfine
// 'cd sub && cd .. && wc -l README'): the words of each command such a
// string runs, its redirections' targets and its assignments' values
// (and through them its loops' variables) are the paths it may write (see guessScript), taken from
// the directories its cd goes to (see scopeCwds), while its fields as
// such (a cd's "..") are not. Each word left out is recorded whole as a
// path the command may write.
func (an *analyzer) withoutScripts(name string, args []word) []word {
	if runsNoCommand(name, args) || isCompiler(name) || strings.HasPrefix(name, "go1.") {
		return args
	}
	var out []word
	for i, a := range args {
		t := a.text
		if !a.dynamic && !a.special && t != "" && t[0] != '-' && strings.ContainsAny(t, " \t\n") &&
			!(i > 0 && messageOptions.get()[args[i-1].text]) && wholeScript(t) {
			if out == nil {
				out = slices.Clone(args[:i])
			}
			// The word as a whole may still be a file the command
			// writes (hyperfine --export-json 'cat x/.bashrc' true
			// wrote the home's .bashrc through a link named "cat x",
			// round 92): it is one path, not split at its blanks.
			if len(an.a.accesses) >= maxAccessPaths {
				an.opaque("the command touches too many paths to check")
				continue
			}
			an.a.accesses = append(an.a.accesses, access{mode: modeRead, path: t, unknown: true})
			continue
		}
		if out != nil {
			out = append(out, a)
		}
	}
	if out == nil {
		return args
	}
	return out
}

// wholeScript reports whether guessScript reads s, a command string, to
// its end: it looks like a command line and parses.
func wholeScript(s string) bool {
	if !commandString(s) || dollarContinued(s) || len(s) > maxCommandLen {
		return false
	}
	_, err := parsedStmts(s)
	return err == nil
}

// emptiedWords returns the words ws of the arguments args (of the script
// src) with each expansion the analysis does not know taken as empty, or
// as its default (${x:-r}), and true, when there is one and the program's
// word is then one the analysis knows and not empty: unset, the shell
// expands r${x}m to rm. Each other word that stays only known when it
// runs keeps its text.
func (an *analyzer) emptiedWords(args []*syntax.Word, ws []word, src string, alt bool) ([]word, bool) {
	if len(ws) == 0 || len(args) != len(ws) || !slices.ContainsFunc(ws, func(w word) bool { return w.dynamic }) {
		return nil, false
	}
	out := slices.Clone(ws)
	emptiedAny := false
	for i, w := range ws {
		if !w.dynamic {
			continue
		}
		parts, changed := an.emptiedParts(args[i].Parts, alt)
		if !changed {
			continue
		}
		emptiedAny = true
		if len(parts) == 0 {
			out[i] = word{}
			continue
		}
		if e := an.word(&syntax.Word{Parts: parts}, src); !e.dynamic {
			out[i] = e
		}
	}
	if !emptiedAny || out[0].dynamic || out[0].special || out[0].text == "" {
		return nil, false
	}
	return out, true
}

// emptiedVariants returns the words emptiedWords makes of ws with the
// alternatives of ${x:+r} dropped and taken (a set variable, as HOME is:
// hyperfine '${HOME:+rm} -f c' removed the canary, round 100), each that
// names a program once.
func (an *analyzer) emptiedVariants(args []*syntax.Word, ws []word, src string) [][]word {
	var vs [][]word
	for _, alt := range []bool{false, true} {
		if e, ok := an.emptiedWords(args, ws, src, alt); ok && !slices.ContainsFunc(vs, func(v []word) bool {
			return slices.EqualFunc(v, e, func(a, b word) bool { return a.text == b.text && a.dynamic == b.dynamic })
		}) {
			vs = append(vs, e)
		}
	}
	return vs
}

// emptiedParts returns parts with each parameter expansion the analysis
// does not know replaced by its default word (${x-r}, ${x:-r}, ${x=r},
// ${x:=r}), with alt by its alternative word too (${x:+r}, ${x+r}: the
// variable set, as HOME is), or dropped, inside double quotes too; and
// whether it changed any.
func (an *analyzer) emptiedParts(parts []syntax.WordPart, alt bool) ([]syntax.WordPart, bool) {
	var out []syntax.WordPart
	changed := false
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.ParamExp:
			if _, ok := an.param(p); ok {
				out = append(out, p)
				continue
			}
			changed = true
			if p.Exp != nil && p.Exp.Word != nil {
				switch p.Exp.Op {
				case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
					inner, _ := an.emptiedParts(p.Exp.Word.Parts, alt)
					out = append(out, inner...)
				case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
					if alt {
						inner, _ := an.emptiedParts(p.Exp.Word.Parts, alt)
						out = append(out, inner...)
					}
				}
			}
		case *syntax.DblQuoted:
			inner, ch := an.emptiedParts(p.Parts, alt)
			if !ch {
				out = append(out, p)
				continue
			}
			changed = true
			q := *p
			q.Parts = inner
			out = append(out, &q)
		default:
			out = append(out, p)
		}
	}
	return out, changed
}

// bracesExpanded returns ws with each word that holds a brace expansion
// replaced by the words bash makes of it, and true, when one does; nil and
// false when none does; the words and false, with the line opaque, when
// one makes too many to check.
func (an *analyzer) bracesExpanded(ws []word) ([]word, bool) {
	if !slices.ContainsFunc(ws, func(w word) bool { return w.alts != nil || w.tooMany }) {
		return nil, false
	}
	out := make([]word, 0, len(ws))
	for _, w := range ws {
		if w.tooMany {
			an.opaque("a command string makes more words of a brace expansion than the analysis checks")
			return ws, false
		}
		if w.alts == nil {
			out = append(out, w)
			continue
		}
		out = append(out, w.alts...)
	}
	if len(out) > maxGuessWords {
		an.opaque("a command string makes more words of a brace expansion than the analysis checks")
		return ws, false
	}
	return out, true
}

// setsPhysical reports whether set, given args, may turn on the physical
// option (-P, alone or in a cluster, or -o physical), with a word only
// known when it runs taken as doing so.
func setsPhysical(args []word) bool {
	for i, a := range args {
		t := a.text
		switch {
		case a.dynamic:
			return true
		case t == "--" || t == "-":
			return false
		case (t == "-o" || t == "+o") && i+1 < len(args):
			if args[i+1].dynamic || args[i+1].text == "physical" {
				return true
			}
		case len(t) > 1 && (t[0] == '-' || t[0] == '+') && strings.ContainsRune(t[1:], 'P'):
			return true
		}
	}
	return false
}

// cwdMarks records where a command string's walk starts: the line's
// candidate working directories and the lengths of the lists of paths
// that scopeCwds relocates.
type cwdMarks struct {
	cwds                                           []string
	accesses, uses, writes, handed, unnamed, paths int
	patterns, readPatterns                         int
}

func (an *analyzer) cwdMarks() cwdMarks {
	return cwdMarks{slices.Clone(an.a.cwds), len(an.a.accesses), len(an.codeUses), len(an.guessWrites),
		len(an.handed), len(an.unnamed), len(an.guessedPaths), len(an.a.patterns), len(an.a.readPatterns)}
}

// scopeCwds ends the walk of a command string that started at m: the
// candidate working directories its cd commands added are its own (bash
// runs the string in another process, and hyperfine 'cd sub && cd ..'
// leaves the line where it was), so the line's go back to m's, and each
// relative path the string named since m is recorded, besides as it
// was, as taken from each of the string's own directories (cd; echo x >>
// .bashrc writes the home's). A directory the string's cd cannot follow
// stays unknown for the whole line.
func (an *analyzer) scopeCwds(m cwdMarks) {
	var own []string
	for _, c := range an.a.cwds {
		if !contains(m.cwds, c) {
			own = append(own, c)
		}
	}
	an.a.cwds = m.cwds
	if len(own) == 0 {
		return
	}
	for _, c := range own {
		if !contains(an.a.scriptDirs, c) {
			an.a.scriptDirs = append(an.a.scriptDirs, c)
		}
	}
	relocated := func(p string) []string {
		if p == "" || path.IsAbs(p) {
			return nil
		}
		out := make([]string, 0, len(own))
		for _, c := range own {
			out = append(out, path.Join(c, p))
		}
		return out
	}
	relocateFrom(&an.a.accesses, m.accesses, func(x *access) *string { return &x.path }, relocated)
	relocateFrom(&an.codeUses, m.uses, func(x *codeUse) *string { return &x.path }, relocated)
	relocateFrom(&an.guessWrites, m.writes, func(x *guessWrite) *string { return &x.path }, relocated)
	relocateFrom(&an.handed, m.handed, func(x *codeUse) *string { return &x.path }, relocated)
	relocateFrom(&an.unnamed, m.unnamed, func(x *unnamedWrite) *string { return &x.dir }, relocated)
	for i, n := m.paths, len(an.guessedPaths); i < n; i++ {
		an.guessedPaths = append(an.guessedPaths, relocated(an.guessedPaths[i])...)
	}
	// The glob words it read or handed a program are expanded where its
	// cd went, as its paths are: hyperfine --show-output 'cd ~; cat
	// .s*/id_ed25519' printed the key while .s*/id_ed25519 was looked
	// for in the workdir only (round 92).
	for i, n := m.patterns, len(an.a.patterns); i < n; i++ {
		for _, p := range relocated(an.a.patterns[i]) {
			if len(an.a.patterns) >= maxAccessPaths {
				an.opaque("the command is given too many patterns to check")
				return
			}
			an.a.patterns = append(an.a.patterns, p)
		}
	}
	for i, n := m.readPatterns, len(an.a.readPatterns); i < n; i++ {
		for _, p := range relocated(an.a.readPatterns[i]) {
			an.readPattern(p)
		}
	}
}

// relocateFrom appends to *xs, for each element from index from on, a
// copy whose path (the field at returns) is each of relocated(that path).
func relocateFrom[T any](xs *[]T, from int, at func(*T) *string, relocated func(string) []string) {
	for i, n := from, len(*xs); i < n; i++ {
		for _, p := range relocated(*at(&(*xs)[i])) {
			x := (*xs)[i]
			*at(&x) = p
			*xs = append(*xs, x)
		}
	}
}

// stringFed returns the simple commands of the command string f whose
// standard input the string itself gives them: those on the right of a
// pipe, and those of a statement with an input redirection (< f, <<<,
// a here-document).
func stringFed(f *syntax.File) map[*syntax.CallExpr]bool {
	fed, all := map[*syntax.CallExpr]bool{}, false
	mark := func(n syntax.Node) {
		if n == nil {
			return
		}
		syntax.Walk(n, func(m syntax.Node) bool {
			if c, ok := m.(*syntax.CallExpr); ok {
				fed[c] = true
			}
			return true
		})
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				mark(n.Y)
			}
		case *syntax.Stmt:
			for _, r := range n.Redirs {
				switch r.Op {
				case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
					if c, ok := n.Cmd.(*syntax.CallExpr); ok && len(c.Args) == 1 && c.Args[0].Lit() == "exec" {
						// exec < s gives every command after it s.
						all = true
					}
					if n.Cmd != nil {
						mark(n.Cmd)
					}
				}
			}
		}
		return true
	})
	if all {
		mark(f)
	}
	return fed
}

// parsedStmts returns, in a file, the statements of the bash script s
// that the parser reads before its first syntax error, and that error:
// sh runs each complete line of a command string before the one it
// cannot parse ("./y c\n)" runs ./y), so those are read as commands and
// the rest is not.
func parsedStmts(s string) (*syntax.File, error) {
	f := &syntax.File{}
	for st, err := range syntax.NewParser(syntax.Variant(syntax.LangBash)).StmtsSeq(strings.NewReader(s)) {
		if err != nil {
			return f, err
		}
		f.Stmts = append(f.Stmts, st)
	}
	return f, nil
}

// guessCommand analyzes ws, a command an unmodelled command may run, as a
// command of its own, in guess mode: its units are recorded for deny and
// ask rules only (as a wrapper's are), the paths it names are left to the
// caller's check of the outer command's words, and it makes the line
// opaque only for what makes a command opaque whatever its place (see
// [analyzer.guess]).
func (an *analyzer) guessCommand(ws []word, depth, chain int) {
	if an.guessed >= maxGuessed || len(ws) > maxGuessWords {
		an.opaque("the command has too many operands that look like commands to check")
		return
	}
	an.guessed++
	saved := *an
	units, accesses, cwds, unknown := len(an.a.units), len(an.a.accesses), len(an.a.cwds), an.a.pathsUnknown
	scripts := an.a.scripts
	an.guess = true
	an.command(ws, depth, chain+1)
	// A command string the guessed command was given (hyperfine
	// "hyperfine 'echo x >> ~/.bashrc'", timeout 5 hyperfine '…' in a
	// string) writes its redirections' targets and goes where its cd
	// goes as one at the top does: those are the line's (review67g: the
	// nested string's write of ~/.bashrc was dropped with the guessed
	// command's accesses).
	nested := an.a.scripts > scripts
	cwdUnknown, cwdChanged := an.cwdUnknown, an.cwdChanged
	for i := units; i < len(an.a.units); i++ {
		an.a.units[i].wrapper = true
	}
	// A guessed command's accesses are not the line's (it may be data:
	// make man), but the files it may write and the code it may run are
	// kept for runsWrittenCode: logsave f cp a y.py && python3 y.py runs
	// what the line wrote as surely as cp a y.py && python3 y.py does.
	writes := an.guessWrites
	for _, acc := range an.a.accesses[accesses:] {
		if acc.mode == modeWrite {
			writes = append(writes, guessWrite{access: acc, from: accesses})
		}
	}
	uses := an.codeUses[len(saved.codeUses):]
	if !nested {
		// A credential printer it wraps prints as on the line
		// (hyperfine --show-output 'env kubectl config view --raw',
		// timeout 5 …, nice …, nohup … printed the token, round 92).
		kept := an.a.accesses[:accesses]
		for _, acc := range an.a.accesses[accesses:] {
			if acc.credential {
				kept = append(kept, acc)
			}
		}
		an.a.accesses = kept
		an.a.cwds = an.a.cwds[:cwds]
		an.a.pathsUnknown = unknown
	}
	guessed, linked := an.guessed, an.links > saved.links
	a := an.a
	*an = saved
	an.a, an.guessed, an.guessWrites = a, guessed, writes
	if nested {
		an.cwdUnknown, an.cwdChanged = an.cwdUnknown || cwdUnknown, an.cwdChanged || cwdChanged
	}
	for _, u := range uses {
		if len(an.codeUses) >= maxCodeUses {
			an.opaque("the line runs code from too many files to check")
			break
		}
		u.from = min(u.from, accesses)
		an.codeUses = append(an.codeUses, u)
	}
	if linked {
		// It may create or move a symbolic link (cp, git clone …): what
		// the line writes after it is checked as after such a command.
		an.mayLink()
	}
}

// stdinOpaque records why, the reason a command that reads code from its
// standard input is opaque; in guess mode only when the line feeds some
// command's standard input (otherwise the command reads the agent's,
// which is empty).
func (an *analyzer) stdinOpaque(why string) {
	if an.guess && !an.stdinFed {
		return
	}
	an.opaque(why)
}

// notRunners are the unmodelled commands known to take no command among
// their operands: their operands are not guessed at.
var notRunners = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"go": true, "rustc": true, "rustdoc": true, "make": true, "gmake": true, "cargo": true,
	}
}}

// messageFileOptions are options whose value names a file holding a
// message for people (gh pr create --body-file -, -F msg.txt): what the
// line writes there is not a script.
var messageFileOptions = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"-F": true, "--body-file": true, "--notes-file": true, "--message-file": true}
}}

// messageFile reports whether args give a message-file option the value
// v.
func messageFile(args []word, v string) bool {
	for i, a := range args {
		if name, val, ok := strings.Cut(a.text, "="); ok && messageFileOptions.get()[name] && val == v {
			return true
		}
		if i > 0 && a.text == v && messageFileOptions.get()[args[i-1].text] {
			return true
		}
	}
	return false
}

// messageOptions are options whose value is a message for people (gh pr
// create --title "curl fails on …"), which is not guessed at.
var messageOptions = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"--title": true, "--body": true, "--message": true, "-m": true, "--description": true,
		"--subject": true, "--comment": true, "--notes": true, "--summary": true,
	}
}}

// dataOption reports whether the option named name (dashes included)
// takes a value that names data (a container, a test, a package, a
// library, a path), not a command: the value of --name=curl, --tags=rm,
// -lcurl or -krm is not guessed as one (a value holding shell syntax
// still is, as a command string). Long names are compared without case,
// '-' or '_'; a one-letter option by its letter.
func dataOption(name string) bool {
	if long, ok := strings.CutPrefix(name, "--"); ok {
		k := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(long))
		return dataOptions.get()[k]
	}
	return len(name) >= 2 && name[0] == '-' && strings.IndexByte(dataLetters, name[1]) >= 0
}

// dataOptions are the long options, normalized (see dataOption), whose
// value names data; dataLetters the one-letter ones (-lcurl, -Lpath,
// -Ipath, -DNAME=…, -UNAME, -kEXPR, -RREGEX, -Wwarning).
var dataOptions = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"name": true, "names": true, "nametemplate": true, "tag": true, "tags": true, "label": true, "labels": true,
		"filter": true, "scope": true, "workspace": true, "workspaces": true, "project": true, "profile": true,
		"mode": true, "env": true, "environment": true, "target": true, "targets": true, "only": true, "image": true,
		"repo": true, "repository": true, "outdir": true, "output": true, "out": true, "dest": true,
		"destination": true, "dir": true, "directory": true, "file": true, "config": true, "package": true,
		"features": true, "loglevel": true, "level": true, "testnamepattern": true, "grep": true, "pattern": true,
		"match": true, "selector": true, "namespace": true, "context": true, "region": true, "branch": true,
		"ref": true, "version": true, "plugin": true, "plugins": true, "lang": true, "language": true,
		"locale": true, "platform": true, "arch": true, "type": true, "kind": true,
	}
}}

const dataLetters = "lLIDUkRW"

// dangerousEnv reports whether the environment variable name changes what
// a program runs or which configuration it reads (GIT_CONFIG_PARAMETERS,
// LD_PRELOAD, BASH_ENV, PATH, PYTHONPATH, NODE_OPTIONS …).
func dangerousEnv(name string) bool {
	for _, p := range []string{"GIT_", "LD_", "DYLD_", "PERL5", "BASH_FUNC_", "npm_config_", "NPM_CONFIG_", "CARGO_",
		"RUSTC", "MAKE", "LESS", "XDG_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	switch name {
	case "BASH_ENV", "ENV", "PATH", "SHELLOPTS", "BASHOPTS", "PS4", "HOME", "EDITOR", "VISUAL", "PAGER",
		"PROMPT_COMMAND", "IFS", "CDPATH", "GLOBIGNORE", "CC", "CXX", "SHELL", "ZDOTDIR", "GNUPGHOME",
		"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "PERLLIB", "RUBYOPT", "RUBYLIB",
		"NODE_OPTIONS", "NODE_PATH", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "JAVA_HOME",
		"GOFLAGS", "GOENV", "GOTOOLCHAIN", "SSH_ASKPASS":
		return true
	}
	return false
}

// maxInnerSpellings bounds the commands innerSpellings records for one
// command (a command with more operands is opaque), maxInnerLen the
// length of each (a longer one is cut at a word's end).
const (
	maxInnerSpellings = 256
	maxInnerLen       = 4096
)

// innerSpellings records, as guessed spellings of the command being
// analyzed (one the analysis does not model, whose words after its name
// are args), the commands it may run among its words: the words from each
// operand to the end, from each option's value given as --opt=value, and
// from each value attached to a one-letter option (-erm, -c'terraform
// destroy'). guessInner analyzes those that name a program the analysis
// models; these spellings are for all the others, so that a deny or ask
// rule naming a program the analysis knows nothing of (terraform
// destroy) still applies behind a runner it does not model either
// (logsave /dev/null terraform destroy), and one naming any program still
// applies to an option's value (--exec=rm). Like every other spelling
// they can only restrict.
func (an *analyzer) innerSpellings(args []word) {
	if an.cur < 0 || an.cur >= len(an.a.units) {
		return
	}
	joined, starts := joinWords(args)
	from := func(i int) string {
		for ; i < len(args); i++ {
			if starts[i] >= 0 {
				return joined[starts[i]:]
			}
		}
		return ""
	}
	u := &an.a.units[an.cur]
	n, m := 0, 0
	var seen map[string]bool // the spellings recorded, once a script is spelled
	record := func(c string, to *[]string) {
		if len(c) > maxInnerLen {
			if j := strings.LastIndexByte(c[:maxInnerLen], ' '); j > 0 {
				c = c[:j]
			} else {
				c = c[:maxInnerLen]
			}
		}
		*to = append(*to, c)
		if seen != nil {
			seen[c] = true
		}
		// A program named by its path is also seen by its base name, and
		// one named in another letter case by the lower-case name a
		// case-insensitive file system runs (--exec=RM runs rm there).
		prog, rest, _ := strings.Cut(c, " ")
		base := prog
		if i := strings.LastIndexByte(prog, '/'); i >= 0 && i < len(prog)-1 {
			base = prog[i+1:]
			*to = append(*to, strings.TrimSuffix(base+" "+rest, " "))
		}
		if folded := foldCase(base); folded != base {
			*to = append(*to, strings.TrimSuffix(folded+" "+rest, " "))
		}
	}
	add := func(c string) bool {
		if c == "" {
			return true
		}
		if n >= maxInnerSpellings {
			an.opaque("a command the analysis does not model has too many operands to check as commands it may run")
			return false
		}
		n++
		record(c, &u.guessed)
		return true
	}
	// The commands of a script it may run: a command string among its
	// words (to guessed), what its standard input holds or a file the
	// line wrote (to read, which may as well be data).
	spell := func(c string, to *[]string) bool {
		if c == "" {
			return true
		}
		if m >= maxScriptSpellings {
			an.opaque("a command the analysis does not model is given a script with too many commands to check")
			return false
		}
		m++
		if seen == nil {
			seen = make(map[string]bool, len(u.guessed))
			for _, g := range u.guessed {
				seen[g] = true
			}
		}
		if !seen[c] {
			seen[c] = true
			record(c, to)
		}
		return true
	}
	script := func(c string) bool { return spell(c, &u.guessed) }
	read := func(c string) bool { return spell(c, &u.read) }
	for _, in := range an.inputs {
		if messageFile(args, "-") {
			break // a message read from the standard input
		}
		if in.text != "" && in.from <= an.callPos && an.callPos < in.to && !an.spellScript(in.text, read, read) {
			return
		}
	}
	for i, a := range args {
		if a.dynamic || a.special || a.text == "" || i > 0 && messageOptions.get()[args[i-1].text] {
			continue
		}
		t := a.text
		an.hand(t)
		if t[0] != '-' {
			if !add(from(i)) || shellText(t) && !an.spellScript(t, script, read) {
				return
			}
		}
		if !(i > 0 && messageFileOptions.get()[args[i-1].text]) && !an.spellWritten(t, read, 0) {
			return
		}
		if t[0] != '-' {
			continue
		}
		if name, v, ok := strings.Cut(t, "="); ok && !messageOptions.get()[name] {
			if f := squeezeFields(v); f != "" && !dataOption(name) {
				if rest := from(i + 1); rest != "" {
					f += " " + rest
				}
				if !add(f) {
					return
				}
			}
			if shellText(v) && !an.spellScript(v, script, read) {
				return
			}
		}
		// -eCMD, -c'CMD ARGS': a value attached to a one-letter option.
		// (Within a cluster, -qc'CMD', every letter would start a guess,
		// and "rm destroy" in "-cterraform destroy" is none.)
		if len(t) > 2 && t[1] != '-' && isAlnum(t[1]) && !strings.Contains(t, "=") {
			v := squeezeFields(t[2:])
			if rest := from(i + 1); rest != "" && v != "" {
				v += " " + rest
			}
			if dataOption(t[:2]) {
				v = ""
			}
			if !add(v) || shellText(t[2:]) && !an.spellScript(t[2:], script, read) {
				return
			}
		}
	}
}

// joinWords returns the texts of ws as the rules see a command, their
// fields separated by single spaces, and where each word's text starts in
// it (-1 for a word with none), so that the words from any one on are a
// substring of it.
func joinWords(ws []word) (string, []int) {
	var b strings.Builder
	starts := make([]int, len(ws))
	for i, w := range ws {
		f := squeezeFields(w.text)
		if f == "" {
			starts[i] = -1
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		starts[i] = b.Len()
		b.WriteString(f)
	}
	return b.String(), starts
}

// squeezeFields returns s's fields joined by single spaces.
func squeezeFields(s string) string {
	if !strings.ContainsAny(s, " \t\n\r\v\f") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// maxScriptSpellings bounds the commands recorded for one command from
// the scripts it may run (see spellScript); a command with more is
// opaque.
const maxScriptSpellings = 4096

// An input is a script that the commands of the statement from from to
// to may read on their standard input: a here-string or here-document,
// the output of echo or printf piped to it, or a file the line wrote
// with a text it spells out. One of no text stands for a standard input
// the analysis does not know (a file, another pipe, a descriptor), which
// keeps the statement's input from being spelled (see spelledInput).
type input struct {
	from, to uint // offsets in the script
	text     string
	// spelled marks a text that is all the statement may read there: a
	// here-string or here-document on descriptor 0, or what echo or
	// printf prints into a pipe, not a file the line wrote, which may
	// hold more.
	spelled bool
}

// stmtInput records the script the redirections of st feed the commands
// in it, and the text st writes into a file when it spells it out (echo
// x > f, cat > f <<EOF).
func (an *analyzer) stmtInput(st *syntax.Stmt, src string) {
	for i, r := range st.Redirs {
		if r.N != nil && r.N.Value != "0" && r.N.Value != "1" {
			continue
		}
		stdin := r.N == nil || r.N.Value == "0"
		switch r.Op {
		case syntax.RdrInOut, syntax.DplIn:
			if stdin {
				// xargs cat <<< README 0<>list, … 3<list <&3: names
				// the analysis does not know.
				an.inputs = append(an.inputs, input{st.Pos().Offset(), st.End().Offset(), "", false})
			}
		case syntax.WordHdoc, syntax.Hdoc, syntax.DashHdoc, syntax.RdrIn:
			text, ok := an.redirText(r, src)
			if ok {
				an.inputs = append(an.inputs, input{st.Pos().Offset(), st.End().Offset(), text, stdin && r.Op != syntax.RdrIn})
			} else if stdin && r.Op == syntax.RdrIn {
				// xargs cat <<< README < list: list's names, not
				// README, whichever comes last (round 106).
				an.inputs = append(an.inputs, input{st.Pos().Offset(), st.End().Offset(), "", false})
			}
			if r.Op == syntax.RdrIn && an.filteredWritten(an.word(r.Word, src).text) && readsNames(st) {
				// xargs cat < g, while read f; do cat $f; done < g,
				// g a spelled text filtered (see filtered).
				an.opaque("a command reads names from a file the line writes with a text it spells out through a filter the analysis does not follow")
			}
			if (r.Op == syntax.WordHdoc || r.Op == syntax.RdrIn) && an.readsNamedFiles(st, src) && an.holdsRewritten(r.Word, src) {
				// xargs cat <<< "$(find h | sed …)", while read f; do
				// cat $f; done < <(find h -printf …).
				an.opaque(rewrittenReason)
			}
			unknown := r.Op == syntax.WordHdoc || r.Op == syntax.RdrIn && an.unknownWritten(an.word(r.Word, src).text)
			if c, isCall := st.Cmd.(*syntax.CallExpr); isCall && (ok || unknown) {
				an.teeWrites(c, src, text, ok, false) // tee s <<< x
			}
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
			w := an.word(r.Word, src)
			if w.dynamic || w.pattern || w.special || w.text == "" {
				continue
			}
			if an.changesSpelled(st, src) {
				// printf X | tr A-Z a-z > g, tr a-z A-Z < f > g: a
				// text of the author's choosing no word shows.
				an.writeFiltered(w.text)
			} else if text, ok := an.printed(st, src); ok {
				// A substitution in a later redirection runs once the
				// file is truncated and before the command writes its
				// text at the start (echo > x <<< "$(… >> x)"): what it
				// writes there may stay after that text.
				appending := r.Op == syntax.AppOut || r.Op == syntax.AppAll || holdsSubst(st.Redirs[i+1:])
				an.write(w.text, text, appending)
			} else if an.rewritesNames(st, src) {
				// find h | sed s,^h,../home, > g: names of the
				// author's choosing too (see rewritesNames).
				an.writeFiltered(w.text)
			} else {
				// Any other command's output (sed s/#// x.example > x,
				// tr, a program's) is a text only known when it runs.
				an.writeUnknown(w.text)
			}
		}
	}
}

// holdsSubst reports whether one of rs holds a command substitution.
func holdsSubst(rs []*syntax.Redirect) bool {
	found := false
	for _, r := range rs {
		syntax.Walk(r, func(n syntax.Node) bool {
			_, ok := n.(*syntax.CmdSubst)
			found = found || ok
			return !found
		})
	}
	return found
}

// write records text as what the line writes into the file at p (after
// what it wrote there before if appending).
func (an *analyzer) write(p, text string, appending bool) {
	if an.written == nil {
		an.written = map[string]string{}
	}
	keys := an.writtenKeys(p)
	// From more than one candidate working directory, the line writes
	// one of the files, and the others keep what they held.
	appending = appending || len(keys) > 1
	for _, key := range keys {
		t := text
		if appending {
			t = an.written[key] + text
		} else {
			delete(an.unknownText, key)
			delete(an.filtered, key)
		}
		if len(t) > maxCommandLen {
			// Past the bound the text is not kept, and the file holds
			// one only known when it runs: keeping the text it held
			// before (or none) would drop what follows unchecked (cat
			// a b b > x, b long, spelled x without b's commands).
			delete(an.written, key)
			if an.unknownText == nil {
				an.unknownText = map[string]bool{}
			}
			an.unknownText[key] = true
			continue
		}
		an.written[key] = t
	}
}

// writeUnknown records that the line writes into the file at p a text
// only known when it runs.
func (an *analyzer) writeUnknown(p string) {
	if an.unknownText == nil {
		an.unknownText = map[string]bool{}
	}
	for _, key := range an.writtenKeys(p) {
		an.unknownText[key] = true
	}
}

// writeFiltered records that the line writes into the file at p a text
// it spells out changed by a filter it does not follow (see filtered).
func (an *analyzer) writeFiltered(p string) {
	an.writeUnknown(p)
	if an.filtered == nil {
		an.filtered = map[string]bool{}
	}
	for _, key := range an.writtenKeys(p) {
		an.filtered[key] = true
	}
}

// filteredWritten reports whether the line wrote into the file at p, from
// one of its candidate working directories, a text it spells out through
// a filter (see filtered).
func (an *analyzer) filteredWritten(p string) bool {
	for _, k := range an.writtenKeys(p) {
		if an.filtered[k] {
			return true
		}
	}
	return false
}

// changesSpelled reports whether st writes a text the line spells out
// changed by a filter the analysis does not follow: a filter of a
// here-string, here-document or a file the line spelled or filtered (see
// filtersSpelled), or a command other than echo and printf fed one
// through a pipe (echo X | tr A-Z a-z > g).
func (an *analyzer) changesSpelled(st *syntax.Stmt, src string) bool {
	if an.filtersSpelled(st, src) {
		return true
	}
	if c, ok := st.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
		if n := path.Base(c.Args[0].Lit()); n == "echo" || n == "printf" {
			return false
		}
	}
	return slices.ContainsFunc(an.spelledFed, func(in input) bool {
		return in.from <= st.Pos().Offset() && st.Pos().Offset() < in.to
	})
}

// filterWrites marks as filtered (see filtered) the files the command
// ws, just analyzed, writes other than through a redirection (sed -i,
// sort -o, uniq's output, sponge, dd of=, a word of a command the
// analysis does not model) when it reads a text the line spells out or
// filtered, or when the file held one: its text is then the command's
// change of it, of the author's choosing (echo xx../home/.ssh/k > f; sed
// -i s/xx// f; cat $(cat f) read the key, round 106). cp, mv and ln are
// followed by copyWritten; chmod, chown, chgrp and touch change no text.
func (an *analyzer) filterWrites(ws []word) {
	switch path.Base(ws[0].text) {
	case "cp", "mv", "ln", "chmod", "chown", "chgrp", "touch":
		return
	}
	var targets []string
	for _, acc := range an.a.accesses[an.callFrom:] {
		if !acc.redirect && acc.path != "" && (acc.mode == modeWrite || acc.unknown) {
			targets = append(targets, acc.path)
		}
	}
	if len(targets) == 0 {
		return
	}
	spelled := an.readsSpelledText(ws)
	for _, t := range targets {
		if _, known := an.writtenText(t); spelled || known || an.filteredWritten(t) {
			an.writeFiltered(t)
		}
	}
}

// readsSpelledText reports whether the command ws, being analyzed, may
// read a text the line spells out or filtered: a file the line wrote so
// as an operand or an option's value (dd if=f), or on its standard input
// (a here-string, echo piped to it).
func (an *analyzer) readsSpelledText(ws []word) bool {
	for _, w := range ws[1:] {
		if w.dynamic || w.special || w.text == "" {
			continue
		}
		names := []string{w.text}
		if _, v, ok := strings.Cut(w.text, "="); ok && v != "" {
			names = append(names, v)
		}
		for _, n := range names {
			if _, ok := an.writtenText(n); ok || an.filteredWritten(n) || w.pattern && an.patternWritten(n) {
				return true
			}
		}
	}
	at := func(in input) bool { return in.from <= an.callPos && an.callPos < in.to }
	return slices.ContainsFunc(an.inputs, func(in input) bool { return in.text != "" && at(in) }) ||
		slices.ContainsFunc(an.spelledFed, at)
}

// patternWritten reports whether p, a word holding a glob, may name a
// file the line wrote with a text it spells out or filtered (rev f*, rev
// ? after echo … > f): a brace pattern, or one path.Match cannot read,
// may name any.
func (an *analyzer) patternWritten(p string) bool {
	if strings.ContainsAny(p, "{}") {
		return len(an.written) > 0 || len(an.filtered) > 0
	}
	for _, k := range an.writtenKeys(p) {
		for w := range an.written {
			if ok, err := path.Match(k, w); ok || err != nil {
				return true
			}
		}
		for w := range an.filtered {
			if ok, err := path.Match(k, w); ok || err != nil {
				return true
			}
		}
	}
	return false
}

// spellWritten spells, through read, the text of each file the line
// wrote that the word t may name: t itself, the value after '=' of an
// option or a setting (--agent-program=./y, editor=./y), or the value
// attached to a one-letter option (-k./y). A program may run the script
// such a file holds, or the programs a configuration file names (gpg
// --options x, where x says agent-program ./y). The text of a message
// file is not spelled, nor a file already being spelled. depth is the
// nesting of the script t is in (see spellScriptDepth). It reports false
// once read does.
func (an *analyzer) spellWritten(t string, read func(string) bool, depth int) bool {
	if len(an.written) == 0 && len(an.unknownText) == 0 || t == "" {
		return true
	}
	for _, n := range wordPaths(t) {
		if name, v, ok := strings.Cut(t, "="); ok && n == v && messageFileOptions.get()[name] {
			continue
		}
		if an.unknownWritten(n) {
			// It may name any program for the command to run, as a
			// text the analysis spells may (agent-program ./y).
			an.opaque("a command the analysis does not model is given " + clipName(n) + ", which the line writes with a text only known when it runs")
		}
		for _, key := range an.writtenKeys(n) {
			text, ok := an.written[key]
			if !ok || an.spelling[key] {
				continue
			}
			if an.spelling == nil {
				an.spelling = map[string]bool{}
			}
			an.spelling[key] = true
			an.handedTexts = append(an.handedTexts, text)
			ok = an.spellScriptDepth(text, read, read, depth)
			delete(an.spelling, key)
			if !ok {
				return false
			}
		}
	}
	return true
}

// maxHandedTexts bounds the files the line wrote that guessHanded looks
// into for one command; a command handed more is opaque.
const maxHandedTexts = 16

// guessHanded looks for commands, as guessInner does among a command's
// words, in each line of the files the line wrote that the command being
// analyzed, which the analysis does not model, is handed (see
// spellWritten): a configuration may hold a command the program runs
// (npm --userconfig x, where x says editor=node -e …). The words of a line
// are its fields between blanks and the characters that separate values
// in configuration files and command strings (= | ; & ( ) < > quotes ,
// [ ] { }), so that a command in a quoted string is found word by word.
func (an *analyzer) guessHanded() {
	for n := 0; len(an.handedTexts) > 0; n++ {
		if n >= maxHandedTexts {
			an.opaque("a command the analysis does not model is handed too many files the line writes to check")
			an.handedTexts = nil
			return
		}
		text := an.handedTexts[0]
		an.handedTexts = an.handedTexts[1:]
		for _, line := range strings.Split(text, "\n") {
			var ws []word
			for _, f := range strings.FieldsFunc(line, handedSeparator) {
				ws = append(ws, word{text: f})
			}
			an.guessInner(ws, 0, 0)
		}
	}
}

// handedSeparator reports whether r separates the words guessHanded looks
// at.
func handedSeparator(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune("=|;&()<>\"'`,[]{}", r)
}

// writtenKeys are the keys of the file at p in written and unknownText:
// p taken from each candidate working directory, made absolute when the
// workdir is known ($PWD/s and s are one file). A cd, even one in a
// subshell or a substitution, adds a candidate and keeps the others, so
// that a file the line wrote before it is still found.
func (an *analyzer) writtenKeys(p string) []string {
	var keys []string
	for _, c := range an.a.cwds {
		if k := an.resolve(c, p); !contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// writtenText returns the texts the line wrote into the file at p, from
// each candidate working directory, one after another.
func (an *analyzer) writtenText(p string) (string, bool) {
	var texts []string
	for _, k := range an.writtenKeys(p) {
		if t, ok := an.written[k]; ok {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n"), texts != nil
}

// unknownWritten reports whether the line wrote into the file at p, from
// some candidate working directory, a text only known when it runs.
func (an *analyzer) unknownWritten(p string) bool {
	for _, k := range an.writtenKeys(p) {
		if an.unknownText[k] {
			return true
		}
	}
	return false
}

// copyWritten follows cp, mv and ln -s of a file the line wrote with a
// text it spells out (echo x > a; cp a s): ws is the command, its words
// static.
func (an *analyzer) copyWritten(ws []word) {
	if len(an.written) == 0 && len(an.unknownText) == 0 || len(ws) < 3 {
		return
	}
	switch path.Base(ws[0].text) {
	case "cp", "mv":
	case "ln":
		if o := ws[1].text; len(ws) == 4 && (o == "-s" || o == "-sf" || o == "-fs") {
			ws = append(ws[:1:1], ws[2:]...)
		}
	default:
		return
	}
	if len(ws) != 3 {
		return
	}
	for _, w := range ws[1:] {
		if w.dynamic || w.pattern || w.special || w.text == "" || w.text[0] == '-' {
			return
		}
	}
	if text, ok := an.writtenText(ws[1].text); ok {
		an.write(ws[2].text, text, false)
	}
	if an.unknownWritten(ws[1].text) {
		an.writeUnknown(ws[2].text)
	}
	if an.filteredWritten(ws[1].text) {
		an.writeFiltered(ws[2].text)
	}
}

// redirText returns the text an input redirection feeds: a here-string's
// word, a here-document's body, or the text of a file the line wrote.
func (an *analyzer) redirText(r *syntax.Redirect, src string) (string, bool) {
	switch r.Op {
	case syntax.WordHdoc:
		w := an.word(r.Word, src)
		return w.text, !w.dynamic && !w.special
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Hdoc == nil {
			return "", false
		}
		var b strings.Builder
		for _, p := range r.Hdoc.Parts {
			lit, ok := p.(*syntax.Lit)
			if !ok {
				return "", false
			}
			b.WriteString(lit.Value)
		}
		return b.String(), true
	case syntax.RdrIn:
		w := an.word(r.Word, src)
		if w.dynamic || w.pattern || w.special {
			return "", false
		}
		return an.writtenText(w.text)
	}
	return "", false
}

// printed returns what the command of st prints when the line spells it
// out: echo's and printf's operands (printf's \n as newlines), what cat
// prints of its here-string, here-document or files the line wrote, what
// a group of one such command prints, or a pipe to cat or tee of it.
func (an *analyzer) printed(st *syntax.Stmt, src string) (string, bool) {
	var c *syntax.CallExpr
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		c = x
	case *syntax.Block:
		if len(x.Stmts) == 1 {
			return an.printed(x.Stmts[0], src)
		}
	case *syntax.Subshell:
		if len(x.Stmts) == 1 {
			return an.printed(x.Stmts[0], src)
		}
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe {
			if an.passes(x.Y, src) {
				return an.printed(x.X, src)
			}
			// echo, printf or cat of files print what they are
			// given, whatever comes in (echo x | echo 'true;nuke').
			return an.printed(x.Y, src)
		}
	}
	if c == nil || len(c.Args) == 0 {
		return "", false
	}
	switch path.Base(an.word(c.Args[0], src).text) {
	case "echo", "printf", "cat":
	default:
		return "", false
	}
	ws := make([]string, 0, len(c.Args))
	for _, a := range c.Args {
		w := an.word(a, src)
		if w.dynamic || w.special {
			return "", false
		}
		ws = append(ws, w.text)
	}
	switch path.Base(ws[0]) {
	case "echo":
		args, nl := ws[1:], "\n"
		for len(args) > 0 && len(args[0]) > 1 && strings.Trim(args[0], "-neE") == "" && args[0][0] == '-' {
			if strings.Contains(args[0], "n") {
				nl = ""
			}
			args = args[1:]
		}
		text := strings.Join(args, " ") + nl
		return withEscapes(text, true), true
	case "printf":
		return withEscapes(strings.Join(ws[1:], "\n"), false), true
	case "cat":
		var b strings.Builder
		for _, r := range st.Redirs {
			if text, ok := an.redirText(r, src); ok && r.Op != syntax.RdrIn {
				b.WriteString(text)
			}
		}
		for _, f := range ws[1:] {
			if text, ok := an.writtenText(f); ok {
				b.WriteString(text)
			}
		}
		return b.String(), b.Len() > 0
	}
	return "", false
}

// pipeInput records, for a pipe whose left side prints a text the line
// spells out (echo nuke | sh-like-tool), that text as the script the
// commands on its right side may read.
func (an *analyzer) pipeInput(b *syntax.BinaryCmd, src string) {
	text, ok := an.printed(b.X, src)
	filters := an.filtersSpelled(b.X, src)
	if ok {
		an.inputs = append(an.inputs, input{b.Y.Pos().Offset(), b.Y.End().Offset(), text, echoOrPrintf(b.X)})
	} else {
		// What b.X prints is not known: a here-string around the pipe
		// ({ find … | xargs cat; } <<< README) is not what b.Y reads.
		an.inputs = append(an.inputs, input{b.Y.Pos().Offset(), b.Y.End().Offset(), "", false})
	}
	if ok || filters {
		an.spelledFed = append(an.spelledFed, input{from: b.Y.Pos().Offset(), to: b.Y.End().Offset()})
	}
	if filters && readsNames(b.Y) {
		// Also when part of what b.X prints is known (cat f g | xargs
		// cat, g filtered): the rest is not.
		an.opaque("a command reads names from a text the line spells out through a filter the analysis does not follow")
	}
	if an.readsNamedFiles(b.Y, src) && an.rewritesNames(b.X, src) {
		an.opaque(rewrittenReason)
	}
	if c, isCall := b.Y.Cmd.(*syntax.CallExpr); isCall {
		an.teeWrites(c, src, text, ok, filters)
	}
}

// filtersSpelled reports whether st prints a text the line spells out
// (see printed) changed by a filter the analysis does not follow: echo
// SUB/S/ID_ED25519 | tr A-Z a-z, echo bus/x | sed s/bus/sub/, tr A-Z a-z
// <<< X. The line's author chose the text and the filter, so what comes
// out is a name of the author's choosing that no word of the line shows
// (round 105: such a name fed to xargs cat or read in $(…) read the key).
func (an *analyzer) filtersSpelled(st *syntax.Stmt, src string) bool {
	if st == nil {
		return false
	}
	if an.readsFiltered(st, src) {
		return true
	}
	switch x := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if x.Op != syntax.Pipe && x.Op != syntax.PipeAll || printer(x.Y) {
			return false
		}
		if an.passes(x.Y, src) {
			return an.filtersSpelled(x.X, src) // | sort, | head: its lines
		}
		_, known := an.printed(x.X, src)
		return known || an.filtersSpelled(x.X, src)
	case *syntax.CallExpr:
		if printer(st) || an.passes(st, src) {
			return false
		}
		for _, r := range st.Redirs {
			if r.Op == syntax.WordHdoc || r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc {
				if _, ok := an.redirText(r, src); ok {
					return true
				}
			}
		}
	}
	return false
}

// readsFiltered reports whether st reads, as an operand or its standard
// input, a file the line wrote with a spelled text filtered (cat g, sort
// g, $(< g): see filtered), or, being a filter (not echo, printf, cat or a
// command that passes lines on unchanged), one the line wrote with a text
// it spells out (tr A-Z a-z < f, sed s/bus/sub/ f, rev f, base64 -d f
// after echo … > f).
func (an *analyzer) readsFiltered(st *syntax.Stmt, src string) bool {
	var names, patterns []string
	add := func(w word) {
		switch {
		case w.dynamic || w.special || w.text == "":
		case w.pattern:
			patterns = append(patterns, w.text)
		default:
			names = append(names, w.text)
			if _, v, ok := strings.Cut(w.text, "="); ok && v != "" {
				names = append(names, v) // dd if=f
			}
		}
	}
	for _, r := range st.Redirs {
		if r.Op == syntax.RdrIn && (r.N == nil || r.N.Value == "0") {
			add(an.word(r.Word, src))
		}
	}
	c, isCall := st.Cmd.(*syntax.CallExpr)
	if isCall {
		for _, a := range c.Args[min(1, len(c.Args)):] {
			add(an.word(a, src))
		}
	}
	filter := isCall && len(c.Args) > 0 && !printer(st) && !an.passes(st, src)
	return slices.ContainsFunc(names, func(n string) bool {
		if an.filteredWritten(n) {
			return true
		}
		_, spelled := an.writtenText(n)
		return filter && spelled
	}) || filter && slices.ContainsFunc(patterns, an.patternWritten)
}

// echoOrPrintf reports whether st is echo or printf, which print their
// words whatever they are fed.
func echoOrPrintf(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	n := path.Base(c.Args[0].Lit())
	return n == "echo" || n == "printf"
}

// spelledInput reports whether the command being analyzed reads on its
// standard input only texts the line spells out (see input.spelled).
func (an *analyzer) spelledInput() bool {
	found := false
	for _, in := range an.inputs {
		if in.from <= an.callPos && an.callPos < in.to {
			if !in.spelled {
				return false
			}
			found = true
		}
	}
	return found
}

// printer reports whether st is echo, printf or cat, whose output does not
// depend on a filter's.
func printer(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	switch path.Base(c.Args[0].Lit()) {
	case "echo", "printf", "cat":
		return true
	}
	return false
}

// readsNames reports whether st takes names or words from its input:
// xargs, read or a while loop (which reads with read), a command with
// xargs among its words (timeout 5 xargs cat), or sort given
// --files0-from, which prints the lines of the files named by what it
// reads (find h | sed s,^h,../home, | tr '\n' '\0' | sort
// --files0-from=- read the key, round 108).
func readsNames(st *syntax.Stmt) bool {
	switch x := st.Cmd.(type) {
	case *syntax.WhileClause:
		return true
	case *syntax.CallExpr:
		for i, a := range x.Args {
			if l := a.Lit(); strings.HasPrefix(l, "--files0-from") && path.Base(x.Args[0].Lit()) == "sort" {
				return true
			}
			switch path.Base(a.Lit()) {
			case "xargs", "parallel":
				return true
			case "read", "mapfile", "readarray":
				if i == 0 {
					return true
				}
			}
		}
	}
	return false
}

// teeWrites records text as what c writes into its files if c is tee; a
// text only known when the line runs unless known is set.
func (an *analyzer) teeWrites(c *syntax.CallExpr, src, text string, known, filtered bool) {
	if len(c.Args) == 0 || path.Base(an.word(c.Args[0], src).text) != "tee" {
		return
	}
	appending := false
	for _, a := range c.Args[1:] {
		w := an.word(a, src)
		switch {
		case w.dynamic || w.pattern || w.special || w.text == "":
		case w.text == "-a" || w.text == "--append":
			appending = true
		case w.text[0] != '-' && filtered && !known:
			an.writeFiltered(w.text)
		case w.text[0] != '-' && known:
			an.write(w.text, text, appending)
		case w.text[0] != '-':
			an.writeUnknown(w.text)
		}
	}
}

// passes reports whether st passes on whole lines of its standard input,
// some or all of them, in any order: cat with no operand but options or
// "-", tee, and the filters that select or sort lines (sort, uniq, head,
// tail, tac, shuf, grep without a file operand). What they print is then
// among the lines the left side printed, and so are the commands in it.
// An option that prints a part of a line or more than the lines (head
// and tail -c, grep -o or -n, tac -s, uniq -c, shuf -e), or a word only
// known when the line runs, makes st a filter: echo xx../home/.ssh/k |
// tail -c +3 | xargs cat read the key (round 106).
func (an *analyzer) passes(st *syntax.Stmt, src string) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	name := c.Args[0].Lit()
	var words []string
	for _, a := range c.Args[1:] {
		w := an.word(a, src)
		if w.dynamic || w.special {
			return false
		}
		words = append(words, w.text)
	}
	switch name {
	case "cat":
		return !slices.ContainsFunc(words, func(w string) bool { return w != "-" && !strings.HasPrefix(w, "-") })
	case "tee":
		return true
	case "sort":
		// Not --files0-from, which prints the lines of other files.
		return !slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, "--files0") })
	case "uniq", "shuf", "head", "tail", "tac", "grep", "egrep", "fgrep":
		return !slices.ContainsFunc(words, func(w string) bool { return changesLines(name, w) })
	}
	return false
}

// changesLines reports whether w, a word of the line-passing command
// name (see passes), may be an option that makes it print other than
// whole lines of its input. A word after an option that takes a value
// (grep -e -o) is taken as an option too.
func changesLines(name, w string) bool {
	if name == "tail" && strings.HasPrefix(w, "+") {
		return strings.ContainsAny(w, "bck") // tail +3c: bytes
	}
	if !strings.HasPrefix(w, "-") || w == "-" || w == "--" {
		return false
	}
	if name == "tac" {
		return true // -s, -r, -b: records of its own separator
	}
	if long, ok := strings.CutPrefix(w, "--"); ok {
		long, _, _ = strings.Cut(long, "=")
		switch name {
		case "head", "tail":
			return strings.HasPrefix("bytes", long)
		case "uniq":
			return strings.HasPrefix("count", long) || strings.HasPrefix("group", long) || strings.HasPrefix("all-repeated", long)
		case "shuf":
			return strings.HasPrefix("echo", long) || strings.HasPrefix("input-range", long)
		}
		for _, bad := range []string{"only-matching", "byte-offset", "line-number", "with-filename", "label", "count",
			"files-with-matches", "files-without-match", "null", "initial-tab", "color", "colour"} {
			if strings.HasPrefix(bad, long) {
				return true
			}
		}
		return false
	}
	bad, valued := "", ""
	switch name {
	case "head", "tail":
		bad, valued = "c", "n"
	case "uniq":
		bad, valued = "cD", "fsw"
	case "shuf":
		bad, valued = "ei", "nor"
	default: // grep
		bad, valued = "obnHclLZT", "efmABCdD"
	}
	for _, r := range w[1:] {
		switch {
		case strings.ContainsRune(bad, r):
			return true
		case strings.ContainsRune(valued, r):
			return false // the rest is its value
		}
	}
	return false
}

// withEscapes returns s with its backslash escapes decoded as printf and
// echo -e decode them (see ansiC; echo -e's \0NNN also as \NNN), each
// decoding on lines of its own, so that a text that spells a command in
// escapes (printf 'nu\x6be') is seen; raw adds s as it is (echo prints
// it so without -e).
func withEscapes(s string, raw bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var out []string
	if raw {
		out = append(out, s)
	}
	for _, v := range []string{s, strings.ReplaceAll(s, `\0`, `\`)} {
		if d, ok := ansiC(v); ok && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return strings.ReplaceAll(s, `\n`, "\n")
	}
	return strings.Join(out, "\n")
}

// shellText reports whether s holds what makes a word a command line
// rather than a program's name: blanks, operators, quotes, expansions.
func shellText(s string) bool {
	return strings.ContainsAny(s, " \t\n;&|()<>`$\"'\\{}!")
}

// spellScript records, through add, each simple command of the script s
// (a command string, or a script a command may read) as a guessed
// spelling: its words from its program's name on, after exec, eval,
// command and builtin, with quotes removed (r""m -f c → rm -f c). In a
// script with shell operators, which is code rather than a sentence, each
// command is also spelled from each operand on, as innerSpellings spells
// an unmodelled one (true; logsave /dev/null nuke → nuke; a wrapper
// here may be in a script that is only read), and a command string
// among its words is spelled too (sh -c "tool 'true;nuke'"); a message
// (-m …) is not. A script
// that runs a command named by a variable it sets (x=rm; $x) is opaque.
// It reports false once add does.
// The commands of what the script feeds a command or writes into a file
// go to read.
func (an *analyzer) spellScript(s string, add, read func(string) bool) bool {
	return an.spellScriptDepth(s, add, read, 0)
}

func (an *analyzer) spellScriptDepth(s string, add, read func(string) bool, depth int) bool {
	if depth >= maxNesting {
		an.opaque("a command string nests too deeply to check")
		return false
	}
	f, err := parsedStmts(s)
	if err != nil && !an.spellUnparsed(s, read, depth) {
		return false
	}
	code := strings.ContainsAny(strings.TrimSpace(s), ";&|()<>`\n") || strings.Contains(s, "$(")
	sets, named, ok := false, false, true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *syntax.Assign:
			sets = true
			if n.Name != nil && !n.Naked && setsWhatRuns(n.Name.Value) {
				// export PATH=sub:$PATH; t: the commands after it run
				// what the analysis cannot follow (review66d), as
				// guessInner has a string that starts PATH=… be.
				an.opaque("a command string sets " + n.Name.Value + ", which changes what the commands after it run")
			}
			// LESSOPEN=./y: a setting may name a program the line wrote.
			if n.Value != nil {
				v := an.word(n.Value, s).text
				an.hand(v)
				ok = an.spellWritten(v, read, depth+1)
			}
		case *syntax.DeclClause:
			sets = true
		case *syntax.FuncDecl:
			// A function's positional parameters are the words it is
			// called with (f() { "$1"m -f c; }; f r), which the analyzer
			// does not follow either.
			sets = true
		case *syntax.ForClause:
			sets = true
			it, isIter := n.Loop.(*syntax.WordIter)
			if isIter && it.Name != nil && setsWhatRuns(it.Name.Value) {
				an.opaque("a command string sets " + it.Name.Value + " as a loop's variable, which changes what the commands in it run")
			}
			if isIter && it.Name != nil {
				// Its words are the values the loop's variable hands on,
				// as an assignment's value is (for d in .git; do cd $d).
				for _, w := range it.Items {
					v := an.word(w, s).text
					an.hand(v)
					if ok = an.spellWritten(v, read, depth+1); !ok {
						return false
					}
				}
			}
		case *syntax.ParamExp:
			// A credential variable the string prints, as on the line.
			an.envSecretParam(n)
			if n.Param != nil && n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				// ${x:=r} and ${x=r} assign as x=r does (review67g: :
				// ${x:=r}; "$x"m -f c ran rm).
				sets = true
				if setsWhatRuns(n.Param.Value) {
					an.opaque("a command string may set " + n.Param.Value + " (${" + n.Param.Value + ":=…}), which changes what the commands after it run")
				}
			}
		case *syntax.Stmt:
			// What the string feeds a command or writes into a file may
			// be a script it runs (tool <<< x, echo x > f; tool f).
			for _, r := range n.Redirs {
				text, fed := "", false
				switch r.Op {
				case syntax.WordHdoc, syntax.Hdoc, syntax.DashHdoc:
					text, fed = an.redirText(r, s)
				case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
					text, fed = an.printed(n, s)
				}
				if fed && ok {
					ok = an.spellScriptDepth(text, read, read, depth+1)
				}
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				if text, fed := an.printed(n.X, s); fed && ok {
					ok = an.spellScriptDepth(text, read, read, depth+1)
				}
			}
		case *syntax.CallExpr:
			ws := make([]word, 0, len(n.Args))
			for _, a := range n.Args {
				ws = append(ws, an.word(a, s))
			}
			for _, emptied := range an.emptiedVariants(n.Args, ws, s) {
				// An expansion the analysis does not know may be empty
				// (r${x}m -f c runs rm): its command with those words
				// so is a spelling of its own.
				joined, _ := joinWords(emptied)
				if ok = add(joined); !ok {
					return false
				}
			}
			if braced, isBraced := an.bracesExpanded(ws); isBraced {
				// The words bash makes of a brace expansion are a
				// spelling of their own ({r,}m -f c is rm m -f c); sh
				// runs the words as they are.
				joined, _ := joinWords(braced)
				if ok = add(joined); !ok {
					return false
				}
			} else if braced != nil {
				ok = false
				return false
			}
			evaluated := false
			for len(ws) > 1 && !ws[0].dynamic && prefixBuiltins.get()[ws[0].text] {
				evaluated = evaluated || ws[0].text == "eval"
				ws = prefixOperands(ws[0].text, ws[1:])
			}
			// What eval runs may set a variable (eval x=r, eval ":
			// ${x:=r}") whose value names the program after it
			// (review67g).
			sets = sets || evaluated
			if len(ws) == 0 || !ws[0].dynamic && strings.HasPrefix(ws[0].text, "-") {
				// No program is named "-…" (a list item of a document
				// read as a script: "- rm"). Its words are still handed
				// on (review66d: a prefix's option the analysis does
				// not skip must not hide the program after it).
				for _, w := range ws {
					if w.dynamic || w.special {
						break
					}
					an.hand(w.text)
				}
				return true
			}
			if ws[0].dynamic {
				named = true
				// The variable may be empty ($X ./y runs ./y): the
				// words after it are handed on (review66d), and the
				// word only known when the string runs too, as its
				// source text (see nameBuilders).
				for _, w := range ws {
					if !w.special {
						an.hand(w.text)
					}
				}
				return true
			}
			if ws[0].text == "set" && setsPositional(ws[1:]) {
				sets = true // set -- r; "$1"m -f c
			}
			if rd := ws[0].text; rd == "read" || rd == "mapfile" || rd == "readarray" || rd == "printf" || rd == "getopts" {
				sets = true
				// read PATH < f; t: the variable it sets may be one
				// that changes what runs (review66d).
				for i, w := range ws[1:] {
					if !w.dynamic && setsWhatRuns(w.text) && (rd != "printf" || ws[i].text == "-v") {
						an.opaque("a command string sets " + w.text + " with " + rd + ", which changes what the commands after it run")
						break
					}
				}
			} else if stringOpaque(ws) {
				// As on the line (see opaqueCommands): source of a file
				// the string wrote, hash -p, enable -f and alias change
				// what the commands after them run.
				an.opaque("a command string or script runs " + rd + ", which " + opaqueCommands.get()[rd])
			}
			known := len(ws)
			for i, w := range ws {
				if w.dynamic || w.special {
					known = i
					break
				}
			}
			// A program or a file it is given that the line wrote: its
			// text may be the script the program runs, or configuration
			// naming one (agent-program ./y).
			for i, w := range ws[:known] {
				if i > 0 && messageOptions.get()[ws[i-1].text] {
					continue
				}
				an.hand(w.text)
				if ok = an.spellWritten(w.text, read, depth+1); !ok {
					return false
				}
			}
			// A word only known when the string runs is handed on as
			// its source text (./t$X), from which the shell may build
			// a name (see nameBuilders; review66d).
			for _, w := range ws[known:] {
				if !w.special {
					an.hand(w.text)
				}
			}
			joined, starts := joinWords(ws[:known])
			// eval's words, joined, and trap's action are command
			// strings of their own (eval './y c', trap './y c' EXIT;
			// review66d), a string of one command among them.
			if inner := ""; ok {
				if evaluated {
					inner = joined
				} else if ws[0].text == "trap" && known > 1 {
					inner = ws[1].text
				}
				if inner != "" && shellText(inner) {
					if ok = an.spellScriptDepth(inner, add, read, depth+1); !ok {
						return false
					}
				}
			}
			if ok = add(joined); !ok || !code {
				return ok
			}
			data := noFiles.get()[path.Base(ws[0].text)]
			for i := 1; i < len(starts) && ok; i++ {
				t := ws[i].text
				if t == "" || messageOptions.get()[ws[i-1].text] {
					continue
				}
				if !data && t[0] != '-' && starts[i] >= 0 {
					ok = add(joined[starts[i]:])
				}
				if ok && shellText(t) {
					ok = an.spellScriptDepth(t, add, read, depth+1)
				}
			}
		}
		return true
	})
	if sets && named {
		an.opaque("a command string or script runs a command named by a variable it sets")
	}
	return ok
}

// spellUnparsed hands on, and spells through read the files the line
// wrote that they name, each field of the command string s that the
// analysis cannot parse, split at blanks and operators, without quotes
// and backslashes (review66d): sh runs the commands of a string up to a
// syntax error on a later line ("./y c\n)" runs ./y), and its grammar is
// not bash's. depth is as for spellScriptDepth. It reports false once
// read does.
func (an *analyzer) spellUnparsed(s string, read func(string) bool, depth int) bool {
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return strings.ContainsRune(" \t\n\r\v\f;&|()<>`", r)
	})
	for _, f := range fields {
		f = strings.NewReplacer("'", "", `"`, "", `\`, "").Replace(f)
		if f == "" {
			continue
		}
		an.hand(f)
		if !an.spellWritten(f, read, depth+1) {
			return false
		}
	}
	return true
}

// stringOpaque reports whether ws, a command of a command string or
// script, is one of the builtins of opaqueCommands that make the string
// opaque wherever it is in it: source (or .) of a file, which may be one
// the string wrote, alias, and the forms of hash and enable that bind a
// name to a program or to a loaded builtin (hash -p, enable -f). Those
// change what the commands after them run. Their other forms, and the
// same words in prose (source: …, enable caching), are left as commands.
func stringOpaque(ws []word) bool {
	if len(ws) < 2 {
		return false
	}
	switch ws[0].text {
	case "source", ".", "alias":
		return true
	case "hash", "enable":
		opt := "-p"
		if ws[0].text == "enable" {
			opt = "-f"
		}
		for _, w := range ws[1:] {
			if w.dynamic || w.text == "--" || !strings.HasPrefix(w.text, "-") {
				return w.dynamic
			}
			if strings.Contains(w.text[1:], opt[1:]) {
				return true
			}
		}
	}
	return false
}

// setsPositional reports whether set, given args, sets the positional
// parameters (set -- r, set r, set -e r), not only options (set -e, set
// -o pipefail); a word only known when it runs may be either.
func setsPositional(args []word) bool {
	for i, a := range args {
		t := a.text
		switch {
		case a.dynamic || t == "--" || t == "-":
			return true
		case t == "" || t[0] != '-' && t[0] != '+':
			if i == 0 || args[i-1].text != "-o" && args[i-1].text != "+o" {
				return true // set -o pipefail r sets $1 too
			}
		}
	}
	return false
}

// setsWhatRuns reports whether a command string that sets the variable
// name may run what the analysis does not see (see dangerousEnv): IFS,
// which only splits the expansions a string makes (IFS= read -r l), and
// those are words only known when it runs, is left out.
func setsWhatRuns(name string) bool {
	return name != "IFS" && dangerousEnv(name)
}

// prefixOperands returns the words after the options that the prefix
// builtin name (see prefixBuiltins) takes in args, the command it runs
// (review66d: command -p ./y and command -- ./y run ./y, as exec -c -a
// NAME ./y does): "--" ends them, exec's -a takes a value, and command -v
// and -V, which only look the command up, are taken as running it.
func prefixOperands(name string, args []word) []word {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if args[i].dynamic || !strings.HasPrefix(t, "-") || t == "-" {
			return args[i:]
		}
		if t == "--" {
			return args[i+1:]
		}
		if name != "command" && name != "exec" {
			return args[i:] // eval and builtin take no option
		}
		if name == "exec" {
			if j := strings.IndexByte(t, 'a'); j == len(t)-1 {
				i++ // -a NAME
			}
		}
	}
	return nil
}

// prefixBuiltins are the builtins that run the command their operands
// name.
var prefixBuiltins = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"exec": true, "eval": true, "command": true, "builtin": true}
}}

// splitsProgram reports whether w, the program word of a command in a
// command string, may be split into several words when it runs: it holds
// an unquoted expansion of IFS (cat${IFS}x runs cat on x), an indirect one,
// which may name IFS, or one joined to other text, whose value may hold a
// blank (cat${PS4#+}x runs cat on x, g${x}h is unknown, round 103). One
// expansion alone ($PAGER) is a program only known when it runs.
func splitsProgram(w *syntax.Word) bool {
	for _, part := range w.Parts {
		if p, ok := part.(*syntax.ParamExp); ok && (len(w.Parts) > 1 || p.Excl || p.Param != nil && p.Param.Value == "IFS") {
			return true
		}
	}
	return false
}
