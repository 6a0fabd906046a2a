package shellscan

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lite-agent/lite-agent-go/internal/secretpaths"
)

// procEnviron is where a process's environment is read: the gate's
// secret rule counts it among the credential locations (cat
// /proc/self/environ asks), so a line that prints a credential its
// environment holds is recorded as a read of it.
const procEnviron = "/proc/self/environ"

// credentialVar reports whether the environment variable name holds a
// credential by the words of its name ([secretpaths.CredentialVar]).
func credentialVar(name string) bool { return secretpaths.CredentialVar(name) }

// secretVar reports whether the environment variable name holds a
// secret: by its name (see credentialVar), or because the caller named it
// (Options.SecretVars: the store's key under a name of the user's choice,
// MY_STORE).
func (an *analyzer) secretVar(name string) bool {
	return credentialVar(name) || slices.Contains(an.secretVars, name)
}

// expandsToSecretVar reports whether bash may make a's name of a
// credential variable by expanding it: a word of its brace expansion is
// one (printenv GITHUB_TOKE{N,} printed the token, round 105), or it holds
// a glob, which a file of the working directory named so may match
// (GITHUB_TOKE[N]).
func (an *analyzer) expandsToSecretVar(a word) bool {
	if !a.pattern {
		return false
	}
	if a.tooMany || slices.ContainsFunc(a.alts, func(b word) bool { return b.dynamic || an.secretVar(b.text) || an.expandsToSecretVar(b) }) {
		return true
	}
	return strings.ContainsAny(withoutBraces(a.text), "*?[")
}

// withoutBraces returns t without its brace expansions' braces and
// commas: the characters left may still glob.
func withoutBraces(t string) string {
	return strings.NewReplacer("{", "", "}", "", ",", "").Replace(t)
}

// envSecretParam records a read of the environment's credentials for a
// parameter expansion of a credential variable (see credentialVar) that
// yields its value: $GITHUB_TOKEN, "${ANTHROPIC_API_KEY}",
// ${NPM_TOKEN:-x}. Those that do not (its length, ${X:+set}, the names
// ${!X*}) pass.
func (an *analyzer) envSecretParam(p *syntax.ParamExp) {
	if p.Param == nil || p.Length || p.Width || p.IsSet || p.Names != 0 || !an.secretVar(p.Param.Value) {
		return
	}
	if p.Exp != nil && (p.Exp.Op == syntax.AlternateUnset || p.Exp.Op == syntax.AlternateUnsetOrNull) {
		return
	}
	an.environRead("$" + p.Param.Value)
}

// environRead records a read of the environment's credentials by what (a
// command, a parameter expansion), marked as a credential printer's read
// is: a command an unmodelled runner is given (hyperfine --show-output
// env) prints it as on the line.
func (an *analyzer) environRead(what string) {
	n := len(an.a.accesses)
	an.addAccess(word{text: procEnviron}, modeRead, what, false)
	for i := n; i < len(an.a.accesses); i++ {
		an.a.accesses[i].credential = true
	}
}

// envPrinter records a read of the environment's credentials for a
// command that prints the environment (env or printenv without a
// command or name, set without arguments, ps e, which shows processes'
// environments, the agent's own among them) or the value of a credential
// variable by name (printenv GITHUB_TOKEN). printenv PATH, env
// GOOS=linux go build and set -e pass; declare and export without
// assignments are opaque already.
func (an *analyzer) envPrinter(name string, args []word) {
	prints := false
	switch name {
	case "env":
		// env with a command is a wrapper (see the wrappers); without
		// one it prints the environment, assignments included.
		prints = true
		for i := 0; i < len(args); i++ {
			t := args[i].text
			switch {
			case t == "-u" || t == "-C" || t == "-S" || !strings.Contains(t, "=") && envLong.Is(t, "--unset", "--chdir", "--split-string"):
				i++ // env --uns NAME prints the environment as --unset NAME does
			case strings.HasPrefix(t, "-") || strings.Contains(t, "=") && !args[i].dynamic:
			default:
				prints = false
				i = len(args)
			}
		}
	case "printenv":
		// printenv NAME prints only the variables it names.
		names := 0
		for _, a := range args {
			if strings.HasPrefix(a.text, "-") && !a.dynamic {
				continue
			}
			names++
			prints = prints || a.dynamic || an.secretVar(a.text) || an.expandsToSecretVar(a)
		}
		prints = prints || names == 0
	case "set":
		prints = len(args) == 0
	case "export", "declare", "typeset", "readonly", "local":
		// Without a name they print the variables (export -p, declare
		// -x, typeset): the environment among them; declare -p NAME
		// prints the one it names. On the line they are opaque already;
		// in a command string a runner hands to bash they are not.
		names := 0
		for _, a := range args {
			if strings.HasPrefix(a.text, "-") && !a.dynamic {
				continue
			}
			names++
			t, _, assigned := strings.Cut(a.text, "=")
			prints = prints || a.dynamic || !assigned && credentialVar(t)
		}
		prints = prints || names == 0
	case "ps":
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") && !a.dynamic && strings.ContainsRune(a.text, 'e') &&
				strings.Trim(a.text, "aeuxwfjlvsrTtcgnhHmSLZ") == "" {
				prints = true // BSD e: each process's environment
			}
			if a.dynamic {
				prints = true
			}
		}
		prints = prints || psBSDEnv(args)
	case "make", "gmake":
		// make -p (--print-data-base) prints its variables, those of
		// the environment among them.
		prints = makePrintsDatabase(args)
	case "cmake":
		// cmake -E environment prints the environment.
		for i, a := range args {
			if a.text == "-E" && i+1 < len(args) && (args[i+1].dynamic || args[i+1].text == "environment") {
				prints = true
			}
		}
	case "envsubst":
		// envsubst prints its input with the variables it names
		// replaced by their values: all of them, or those its
		// SHELL-FORMAT operand names; -v (--variables) prints the names.
		prints = envsubstPrints(an, args)
	case "jq", "gojq", "jaq", "yq", "tomlq", "xq":
		// jq's env and $ENV, yq's env(NAME) and strenv(NAME) are the
		// environment (jq -n env, jq -n '$ENV.GITHUB_TOKEN'); tomlq and
		// xq, python yq's programs for TOML and XML, hand their filter
		// to jq (tomlq -n 'env.GITHUB_TOKEN' printed the token, round
		// redteam132).
		for _, a := range args {
			f, filter := a.text, !strings.HasPrefix(a.text, "-")
			if v, ok := strings.CutPrefix(f, "--expression="); ok && name == "yq" {
				f, filter = v, true // yq --expression=F: the filter
			}
			if a.dynamic || filter && jqReadsEnv(f) {
				prints = true
			}
			if name == "yq" && filter && !a.dynamic && an.yqRunTimeOperators(f) {
				prints = true
			}
		}
		an.jqCodeFiles(name, args)
	case "systemctl":
		for _, a := range args {
			prints = prints || a.text == "show-environment" || a.dynamic
		}
	}
	if prints && name == "env" && an.quietEnv[an.callNode] {
		prints = false // env > /dev/null, env | wc -l: see markQuietEnv
	}
	if prints {
		an.environRead(name)
	}
}

// psBSDEnv reports whether ps args hold the BSD option e before a BSD
// option that takes a value in the same word (ps eaxo args, ps eU root,
// ps eaxk pid), which procps reads as e and that option: each process's
// environment is shown, the agent's own among them. The values of
// options (ps -o user, ps U eve) are passed over.
func psBSDEnv(args []word) bool {
	valueNext := false
	for _, a := range args {
		t := a.text
		if valueNext {
			valueNext = false
			continue
		}
		if t == "--" {
			return false
		}
		if strings.HasPrefix(t, "--") {
			valueNext = !strings.Contains(t, "=") && slices.Contains([]string{"--format", "--sort", "--pid", "--ppid",
				"--user", "--User", "--group", "--Group", "--sid", "--tty", "--cols", "--columns", "--width",
				"--lines", "--rows", "--quick-pid"}, t)
			continue
		}
		if strings.HasPrefix(t, "-") {
			// UNIX options: those that take a value take it attached or
			// as the next word.
			if k := strings.IndexAny(t[1:], "CGgOopqstuU"); k >= 0 {
				valueNext = k == len(t)-2
			}
			continue
		}
		for k := 0; k < len(t); k++ {
			if t[k] == 'e' {
				return true
			}
			if strings.IndexByte("OokpqtU", t[k]) >= 0 {
				valueNext = k == len(t)-1
				break
			}
		}
	}
	return false
}

// makePrintsDatabase reports whether make args hold -p
// (--print-data-base, or a prefix of it that names no other option):
// alone, in a cluster of options before one that takes a value, or in
// MAKEFLAGS given as an argument.
func makePrintsDatabase(args []word) bool {
	for _, a := range args {
		t := a.text
		if a.dynamic {
			return true
		}
		if t == "--" {
			return false
		}
		if v, ok := strings.CutPrefix(t, "MAKEFLAGS="); ok {
			t = v
			if !strings.HasPrefix(t, "-") {
				t = "-" + t // MAKEFLAGS=p: its first word is a cluster
			}
		}
		if strings.HasPrefix(t, "--") {
			if len(t) >= len("--print-da") && strings.HasPrefix("--print-data-base", t) {
				return true
			}
			continue
		}
		if !strings.HasPrefix(t, "-") {
			continue
		}
		for _, f := range strings.Fields(t) {
			if !strings.HasPrefix(f, "-") || strings.HasPrefix(f, "--") {
				continue
			}
			for k := 1; k < len(f); k++ {
				if f[k] == 'p' {
					return true
				}
				if strings.IndexByte("CfIoWE", f[k]) >= 0 {
					break // the rest is the option's value
				}
			}
		}
	}
	return false
}

// envsubstVar matches a variable envsubst's SHELL-FORMAT names.
var envsubstVar = lazy[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`) }}

// envsubstPrints reports whether envsubst args may print a secret
// variable's value: without a SHELL-FORMAT operand every variable its
// input names is replaced; with one, those it names. -v (--variables)
// prints the names only.
func envsubstPrints(an *analyzer, args []word) bool {
	var formats []word
	for _, a := range args {
		switch {
		case a.dynamic:
			return true
		case a.text == "-v" || strings.HasPrefix(a.text, "--v"):
			return false
		case strings.HasPrefix(a.text, "-"):
		default:
			formats = append(formats, a)
		}
	}
	if len(formats) == 0 {
		return true
	}
	for _, f := range formats {
		for _, m := range envsubstVar.get().FindAllStringSubmatch(f.text, -1) {
			if an.secretVar(m[1]) {
				return true
			}
		}
	}
	return false
}

// jqReadsEnv reports whether the jq or yq filter f reads the
// environment: $ENV, or env (yq's env(NAME), strenv(NAME)) as a name of
// its own, not a field (.env), an object's key ({env: 1}) or inside a
// string ("env").
func jqReadsEnv(f string) bool {
	if strings.Contains(f, "$ENV") || jqDollarEnv.get().MatchString(f) {
		return true
	}
	inString := jqStringText(f)
	for _, m := range jqEnvName.FindAllStringIndex(f, -1) {
		start, end := m[0], m[1]
		for start < end && !isNameByte(f[start]) {
			start++
		}
		if strings.HasPrefix(f[start:], "str") {
			start += 3
		}
		rest := strings.TrimLeft(f[end:], " \t\n")
		if strings.HasPrefix(rest, ":") || inString[start] {
			continue
		}
		return true
	}
	return false
}

// yqRunTimeOperators looks at the operators of mikefarah's yq in its
// filter f whose effect only the run tells (redteam133): eval runs a
// string as a filter ("str" + "env(X)" | eval(.) printed the token),
// and load, load_str and their kin read a file whose path the filter
// may make when it runs (a path decoded from base64 printed the key),
// both opaque; a load of a string literal is a path the analysis guesses
// as it does any other. It reports whether f uses envsubst, which
// replaces the ${NAME} of a string with the environment's value (yq '.x
// | envsubst' of a template holding ${NPM_TOKEN} printed the token).
func (an *analyzer) yqRunTimeOperators(f string) bool {
	inString := jqStringText(f)
	envsubst := false
	for _, m := range yqOperatorName.get().FindAllStringSubmatchIndex(f, -1) {
		start, end := m[2], m[3]
		rest := strings.TrimLeft(f[end:], " \t\n")
		if inString[start] || strings.HasPrefix(rest, ":") {
			continue // a string's text or a key ({eval: 1})
		}
		switch op := f[start:end]; {
		case op == "envsubst":
			envsubst = true
		case op == "eval":
			an.opaque("yq's eval runs a filter it makes when it runs")
		case !yqLiteralArgument.get().MatchString(rest):
			an.opaque("yq's " + op + " reads a file named only when it runs")
		}
	}
	return envsubst
}

// yqOperatorName matches the names of yqRunTimeOperators' operators as
// whole names not after a dot or $ (.eval is a key, $eval a variable).
var yqOperatorName = lazy[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9_$.])(envsubst|eval|load[A-Za-z0-9_]*)\b`)
}}

// yqLiteralArgument matches the argument of a yq operator that is one
// string literal without an interpolation: ("doc/a").
var yqLiteralArgument = lazy[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`^\(\s*"(?:[^"\\]|\\[^(])*"\s*\)`)
}}

// jqCodeFiles records the files whose jq code jq (gojq, jaq, yq) args
// run: with -f (--from-file) the program is a file, one of its operands;
// include and import in a program load modules (NAME.jq) from the
// directories of -L and jq's own. Written by the line, such a file runs
// code of the line's that the gate did not see (printf 'env\n' > x.jq;
// jq -n -f x.jq printed the environment, round redteam132).
func (an *analyzer) jqCodeFiles(name string, args []word) {
	fromFile, modules := false, false
	for _, a := range args {
		t := a.text
		switch {
		case a.dynamic:
		case strings.HasPrefix(t, "--"):
			if opt, v, ok := strings.Cut(t, "="); ok && strings.HasPrefix("--from-file", opt) && len(opt) > 3 {
				an.usesCode(name, v)
			}
			fromFile = fromFile || strings.HasPrefix("--from-file", t) && len(t) > 3
		case strings.HasPrefix(t, "-"):
			// A cluster of one-letter options; -L takes the rest.
			k := strings.IndexByte(t, 'L')
			if k < 0 {
				k = len(t)
			}
			fromFile = fromFile || strings.IndexByte(t[:k], 'f') > 0
		default:
			modules = modules || jqLoadsModule(t)
		}
	}
	if fromFile {
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") && !a.dynamic {
				an.usesCode(name, a.text)
			}
		}
	}
	if modules {
		an.usesCode(name, "/", "*.jq")
	}
}

// jqModuleWord matches include or import as a word of a jq program.
var jqModuleWord = lazy[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`(^|[^A-Za-z0-9_$.])(include|import)\b`) }}

// jqLoadsModule reports whether the jq program f may load a module.
func jqLoadsModule(f string) bool {
	return jqModuleWord.get().MatchString(f)
}

// jqDollarEnv matches $ENV spelled with blanks or a comment between the $
// and the name, which jq 1.6 reads as $ENV too ($ ENV.GITHUB_TOKEN).
var jqDollarEnv = lazy[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`\$(\s|#[^\n]*\n)*ENV\b`) }}

// jqStringText marks the bytes of the jq filter f that lie in the text of
// a string literal: not those of an interpolation \(…) in it, which is
// code ("\(env.GITHUB_TOKEN)" printed the token, round redteam132).
func jqStringText(f string) []bool {
	in := make([]bool, len(f)+1)
	// A frame is a string entered: outer is the depth of parentheses of
	// the code around it, interp marks the reading of an interpolation of
	// it, whose own parentheses depth counts.
	type frame struct {
		outer  int
		interp bool
	}
	var stack []frame
	depth := 0
	for i := 0; i < len(f); i++ {
		c := f[i]
		if n := len(stack); n > 0 && !stack[n-1].interp {
			in[i] = true
			switch {
			case c == '\\' && i+1 < len(f) && f[i+1] == '(':
				i++
				stack[n-1].interp, depth = true, 0
			case c == '\\':
				in[i+1] = true
				i++
			case c == '"':
				depth = stack[n-1].outer
				stack = stack[:n-1]
			}
			continue
		}
		switch c {
		case '"':
			stack = append(stack, frame{outer: depth})
			in[i] = true
		case '(':
			depth++
		case ')':
			if n := len(stack); depth == 0 && n > 0 {
				stack[n-1].interp = false // back to the string's text
				in[i] = true
				continue
			}
			depth--
		}
	}
	return in
}

// jqEnvName matches env or strenv as a whole name not after a dot or $.
var jqEnvName = regexp.MustCompile(`(^|[^A-Za-z0-9_$.])(str)?env\b`)

// isNameByte reports whether c may be part of a name.
func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// envBuiltin reports whether t is one of envPrinterNames that is a
// builtin (set, export, declare, typeset): given nothing, it prints the
// shell's variables, the environment among them.
func envBuiltin(t string) bool {
	return t != "env" && t != "printenv" && envPrinterName(t)
}

// envPrinterName reports whether t is one of envPrinterNames.
func envPrinterName(t string) bool {
	return slices.Contains(envPrinterNames, t)
}

// declWords returns the operands of the declaration d (export -p NAME,
// declare -x A=1) as words of the string s: an option or a name as
// written, an assignment as NAME=value.
func (an *analyzer) declWords(d *syntax.DeclClause, s string) []word {
	var ws []word
	for _, a := range d.Args {
		switch {
		case a.Naked && a.Value != nil:
			ws = append(ws, an.word(a.Value, s))
		case a.Naked && a.Name != nil:
			ws = append(ws, word{text: a.Name.Value})
		case a.Name != nil:
			ws = append(ws, word{text: a.Name.Value + "="})
		default:
			ws = append(ws, word{dynamic: true})
		}
	}
	return ws
}

// envSubcommands are, for programs the analysis does not model, their
// subcommands named as a program or builtin that prints the environment
// (env, export, set): the program's own settings, a package list or a
// variable it stores, not the process's environment.
var envSubcommands = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"poetry": {"export"}, "pdm": {"export"}, "pixi": {"export"}, "conda": {"env", "export"},
		"mamba": {"env", "export"}, "micromamba": {"env", "export"}, "mise": {"env", "set"}, "rtx": {"env"},
		"helm": {"env"}, "kubectl": {"set", "env"}, "oc": {"set", "env"}, "direnv": {"export"},
		"dotnet": {"set"}, "pulumi": {"set"}, "flyctl": {"set", "env"}, "fly": {"set", "env"},
		"heroku": {"set"}, "doppler": {"set"}, "hatch": {"env"}, "pipenv": {"env"}, "rye": {"env"},
	}
}}

// envSubcommand reports whether w, a word of the unmodelled program's
// operands after before, is one of the program's subcommands (see
// envSubcommands): every word before it a plain subcommand word, no
// option among them (kubectl set env deploy/x, conda env export).
func envSubcommand(program string, before []word, w string) bool {
	if !slices.Contains(envSubcommands.get()[program], w) {
		return false
	}
	for _, b := range before {
		if b.dynamic || !subcommandWord(b.text) {
			return false
		}
	}
	return true
}

// subcommandWord reports whether t looks like a subcommand's name: a
// lowercase word of letters, digits, '-' and ':' (user-secrets,
// config:set).
func subcommandWord(t string) bool {
	if t == "" || t[0] < 'a' || t[0] > 'z' {
		return false
	}
	return strings.Trim(t, "abcdefghijklmnopqrstuvwxyz0123456789-:") == ""
}

// valueEnvPrinter reports whether v, the value the option word t of an
// unmodelled command carries (--exec=env, -cenv), is a command that
// prints the environment given nothing, and t no option whose value is
// commonly a name of that spelling (--format=env, --output=env).
func valueEnvPrinter(t, v string) bool {
	if spelled := spelledEnvPrinter(v) != nil; v != "env" && v != "printenv" && !(envBuiltin(v) && strings.HasSuffix(t, "="+v)) && !spelled {
		return false
	}
	name, _, ok := strings.Cut(t, "=")
	return !ok || !namingOption(name)
}

// namingOption reports whether the option o (--format, -o) commonly takes
// a name that may be spelled env or set (--format env, -o env, --stage=set):
// such a value is no command.
func namingOption(o string) bool {
	if !strings.HasPrefix(o, "-") {
		return false
	}
	switch strings.ToLower(strings.TrimLeft(o, "-")) {
	case "format", "output", "o", "type", "mode", "kind", "profile", "target", "name", "env", "environment",
		"stage", "scope", "section", "context", "from", "source", "config", "command-name", "label", "title", "tag":
		return true
	}
	return false
}

// envPrinterNames are the programs and builtins that print the
// environment given nothing.
var envPrinterNames = []string{"env", "printenv", "set", "export", "declare", "typeset"}

// spelledEnvPrinter returns the names of envPrinterNames that w, a word
// without blanks holding a parameter expansion that an unmodelled runner
// hands to sh as it is, may be once the shell expands it: the one the
// word names without its expansions, or with their default and
// alternative values (see withValues): '${PATH%%:*}/env', 'env$x',
// '${x:-env}'; else each one in which the letters left with those values
// appear in that order, which the other expansions may complete ('e$@nv',
// 'e${x}v' with x=n exported, '$CMD'; not '${x:-ls}'). Round 100: these
// printed the environment through hyperfine --show-output and were
// allowed.
func spelledEnvPrinter(w string) []string {
	if !strings.Contains(w, "$") {
		return nil
	}
	skel := withoutExpansions(w)
	if skel == w {
		return nil // a '$' that starts no expansion (a$, $%)
	}
	valued := withoutExpansions(withValues(w))
	for _, n := range envPrinterNames {
		if path.Base(skel) == n || path.Base(valued) == n {
			return []string{n}
		}
	}
	// The letters left once defaults are taken (${x:-ls} is ls, no
	// printer; $CMD and e${x}v may be one).
	if strings.Trim(valued, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return nil
	}
	var ns []string
	for _, n := range envPrinterNames {
		if subsequence(valued, n) {
			ns = append(ns, n)
		}
	}
	return ns
}

// subsequence reports whether the bytes of s appear in t in their order.
func subsequence(s, t string) bool {
	for i := 0; i < len(t) && s != ""; i++ {
		if t[i] == s[0] {
			s = s[1:]
		}
	}
	return s == ""
}
