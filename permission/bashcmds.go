package permission

import (
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// wrapped looks inside the command ws: shells, eval, wrappers, the
// commands whose file operands it knows, cd, and the builtins that make a
// line unanalyzable. It reports whether ws only wraps another command that
// was recorded as a unit of its own.
func (an *analyzer) wrapped(ws []word, depth, chain int) bool {
	name := path.Base(ws[0].text)
	args := ws[1:]
	switch name {
	case "sh", "bash", "rbash", "dash", "ash", "zsh", "ksh", "mksh", "yash":
		return an.shell(name, args, depth)
	case "fish", "csh", "tcsh", "pwsh", "powershell", "nu", "elvish", "xonsh":
		if len(args) > 0 && !onlyVersion(args) {
			an.opaque(name + " commands are not analyzed")
		}
		return false
	case "eval":
		return an.eval(args, depth)
	case "source", ".":
		an.opaque(name + " runs the commands of a file")
		if len(args) > 0 {
			an.pathArg(args[0], modeRead, name)
		}
		return false
	case "alias":
		for _, a := range args {
			if strings.Contains(a.text, "=") || a.dynamic {
				an.opaque("alias changes what later commands run")
			}
		}
		return false
	case "trap":
		if len(args) >= 2 && args[0].text != "" && args[0].text != "-" && !strings.HasPrefix(args[0].text, "-") {
			an.opaque("trap runs a command later")
		}
		return false
	case "hash", "enable":
		for _, a := range args {
			if a.dynamic || strings.HasPrefix(a.text, "-p") || strings.HasPrefix(a.text, "-f") {
				an.opaque(name + " changes what later commands run")
			}
		}
		return false
	case "read", "mapfile", "readarray", "printf", "getopts":
		for _, a := range args {
			if dangerousVars[a.text] || a.dynamic && name != "printf" {
				an.opaque(name + " may assign a variable that changes what later commands run")
				break
			}
		}
		if name == "printf" {
			for i, a := range args {
				if a.text == "-v" && i+1 < len(args) && (args[i+1].dynamic || dangerousVars[args[i+1].text]) {
					an.opaque("printf -v assigns a variable that changes what later commands run")
				}
			}
		}
		return false
	case "cd", "pushd", "popd":
		an.cd(name, args)
		return false
	case "exec":
		return an.inner(optionsEnd(args, "a", nil), depth, chain)
	case "builtin", "nohup", "busybox", "toybox":
		return an.inner(optionsEnd(args, "", nil), depth, chain)
	case "command":
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") {
				break
			}
			if strings.ContainsAny(a.text, "vV") {
				return false // only looks the command up
			}
		}
		return an.inner(optionsEnd(args, "", nil), depth, chain)
	case "time":
		return an.inner(an.optionsPaths(args, "fo", []string{"--format", "--output"}, false, map[string]accessMode{"-o": modeWrite, "--output": modeWrite}), depth, chain)
	case "nice", "ionice", "taskset", "chrt":
		if name == "taskset" || name == "chrt" {
			ops := optionsEnd(args, "", nil)
			if len(ops) > 0 {
				ops = ops[1:] // the mask or the priority
			}
			return an.inner(ops, depth, chain)
		}
		return an.inner(optionsEnd(args, "nct", []string{"--adjustment", "--class", "--classdata"}), depth, chain)
	case "timeout":
		ops := optionsEnd(args, "sk", []string{"--signal", "--kill-after"})
		if len(ops) > 0 {
			ops = ops[1:] // the duration
		}
		return an.inner(ops, depth, chain)
	case "stdbuf":
		return an.inner(optionsEnd(args, "ioe", []string{"--input", "--output", "--error"}), depth, chain)
	case "setsid":
		return an.inner(optionsEnd(args, "", nil), depth, chain)
	case "env":
		return an.env(args, depth, chain)
	case "sudo", "doas":
		an.sudo(name, args, depth, chain)
		return false
	case "su", "runuser":
		an.su(name, args, depth)
		return false
	case "chroot":
		ops := optionsEnd(args, "", []string{"--userspec", "--groups"})
		if len(ops) <= 1 {
			an.opaque("chroot without a command runs an interactive shell")
			return false
		}
		an.cwdUnknown = true
		an.command(ops[1:], depth, chain+1)
		return false
	case "xargs":
		return an.xargs(args, depth, chain)
	case "find":
		an.find(args, depth, chain)
		return false
	case "watch":
		return an.watch(args, depth, chain)
	case "flock":
		return an.flock(args, depth, chain)
	}
	if an.interpreter(name, args) {
		return false
	}
	an.fileCommand(name, args)
	return false
}

// inner records ws, the command a wrapper runs; it reports whether there
// was one.
func (an *analyzer) inner(ws []word, depth, chain int) bool {
	if len(ws) == 0 {
		return false
	}
	an.command(ws, depth, chain+1)
	return true
}

// onlyVersion reports whether args only ask for a version or help.
func onlyVersion(args []word) bool {
	for _, a := range args {
		switch a.text {
		case "--version", "-V", "--help", "-h", "-v":
		default:
			return false
		}
	}
	return len(args) > 0
}

// eachOption walks the options at the start of args, calls fn (when not
// nil) for each with its value, and returns the operands. short lists the
// one-letter options that take a value (attached or as the next word); long
// the long options that do (as the next word, or after '='). "--" ends the
// options; a word not starting with '-', "-" itself, and a word only known
// at run time are operands. With permute, options may also follow operands
// (as GNU tools allow), and every operand is returned; without it, the
// first operand ends the options (as for a wrapper, whose operands are a
// command with options of its own).
func eachOption(args []word, short string, long []string, permute bool, fn func(opt string, val *word)) []word {
	call := func(opt string, val *word) {
		if fn != nil {
			fn(opt, val)
		}
	}
	var ops []word
	i := 0
	for i < len(args) {
		a := args[i]
		t := a.text
		if a.dynamic || a.special || !strings.HasPrefix(t, "-") || t == "-" {
			if !permute {
				break
			}
			ops = append(ops, a)
			i++
			continue
		}
		i++
		if t == "--" {
			break
		}
		if strings.HasPrefix(t, "--") {
			if j := strings.IndexByte(t, '='); j > 0 {
				call(t[:j], &word{text: t[j+1:], dynamic: a.dynamic, pattern: a.pattern})
			} else if contains(long, t) && i < len(args) {
				call(t, &args[i])
				i++
			} else {
				call(t, nil)
			}
			continue
		}
		for k := 1; k < len(t); k++ {
			opt := "-" + t[k:k+1]
			if strings.IndexByte(short, t[k]) < 0 {
				call(opt, nil)
				continue
			}
			switch {
			case k < len(t)-1:
				call(opt, &word{text: t[k+1:], dynamic: a.dynamic, pattern: a.pattern})
			case i < len(args):
				call(opt, &args[i])
				i++
			default:
				call(opt, nil)
			}
			break
		}
	}
	return append(ops, args[min(i, len(args)):]...)
}

// optionsEnd returns the operands of args; see eachOption.
func optionsEnd(args []word, short string, long []string) []word {
	return eachOption(args, short, long, false, nil)
}

// optionsPaths is eachOption that also records the values of the options
// in paths as file accesses.
func (an *analyzer) optionsPaths(args []word, short string, long []string, permute bool, paths map[string]accessMode) []word {
	return eachOption(args, short, long, permute, func(opt string, val *word) {
		if m, ok := paths[opt]; ok && val != nil {
			an.pathArg(*val, m, opt)
		}
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// shell looks inside sh -c and friends.
func (an *analyzer) shell(name string, args []word, depth int) bool {
	lang := syntax.LangBash
	switch name {
	case "sh", "dash", "ash", "yash":
		lang = syntax.LangPOSIX
	case "zsh":
		lang = syntax.LangZsh
	case "ksh", "mksh":
		lang = syntax.LangMirBSDKorn
	}
	withC, stdin := false, false
	i := 0
options:
	for ; i < len(args); i++ {
		a := args[i]
		if a.dynamic || a.pattern || a.special {
			if withC {
				break options // the script
			}
			an.opaque("the options of " + name + " are only known when it runs")
			return false
		}
		t := a.text
		switch {
		case t == "--" || t == "-":
			i++
			break options
		case t == "--version" || t == "--help":
			return false
		case t == "--rcfile" || t == "--init-file":
			an.opaque(name + " " + t + " runs the commands of a file")
			i++
		case strings.HasPrefix(t, "--"):
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			for _, c := range t[1:] {
				switch c {
				case 'c':
					withC = true
				case 's':
					stdin = true
				case 'i':
					an.opaque(name + " -i runs startup files")
				case 'o', 'O':
					i++
				}
			}
		default:
			break options
		}
	}
	var ops []word
	if i < len(args) {
		ops = args[i:]
	}
	switch {
	case withC && len(ops) == 0:
		an.opaque(name + " -c has no command")
		return false
	case withC:
		s := ops[0]
		if s.dynamic || s.pattern || s.special {
			an.opaque("the script of " + name + " -c is only known when it runs")
			return false
		}
		an.script(s.text, lang, depth+1)
		return true
	case stdin || len(ops) == 0:
		an.opaque(name + " reads commands from its standard input")
	default:
		an.opaque(name + " runs the commands of a script file")
		an.pathArg(ops[0], modeRead, name)
	}
	return false
}

// eval looks inside eval.
func (an *analyzer) eval(args []word, depth int) bool {
	if len(args) == 0 {
		return false
	}
	texts := make([]string, len(args))
	for i, a := range args {
		if a.dynamic || a.pattern || a.special {
			an.opaque("the script of eval is only known when it runs")
			return false
		}
		texts[i] = a.text
	}
	an.script(strings.Join(texts, " "), syntax.LangBash, depth+1)
	return true
}

// env looks inside env.
func (an *analyzer) env(args []word, depth, chain int) bool {
	i := 0
	for i < len(args) {
		a := args[i]
		t := a.text
		if a.dynamic {
			an.opaque("the arguments of env are only known when it runs")
			return false
		}
		switch {
		case t == "-":
		case t == "--":
			i++
			return an.inner(args[min(i, len(args)):], depth, chain)
		case t == "-S" || strings.HasPrefix(t, "--split-string") || t == "-P" || strings.HasPrefix(t, "-S"):
			an.opaque("env " + t + " builds its command at run time")
			return false
		case t == "-C" || strings.HasPrefix(t, "--chdir"):
			an.cwdUnknown = true
			if t == "-C" || t == "--chdir" {
				i++
			}
		case t == "-u" || t == "--unset":
			i++
		case strings.HasPrefix(t, "-") && t != "-":
			if strings.HasPrefix(t, "-C") {
				an.cwdUnknown = true
			}
		case strings.Contains(t, "=") && !strings.HasPrefix(t, "="):
			name := t[:strings.IndexByte(t, '=')]
			if dangerousVars[name] || strings.HasPrefix(name, "BASH_FUNC_") {
				an.opaque("env sets " + name + ", which changes what the command runs")
			}
		default:
			return an.inner(args[i:], depth, chain)
		}
		i++
	}
	return false
}

// sudo records the command sudo or doas runs. The sudo unit itself is not a
// mere wrapper: running as another user needs a rule of its own.
func (an *analyzer) sudo(name string, args []word, depth, chain int) {
	short, long := "ugChpUrtTD", []string{"--user", "--group", "--host", "--prompt", "--other-user", "--role", "--type", "--chdir", "--close-from", "--command-timeout"}
	if name == "doas" {
		short, long = "uC", nil
	}
	shell, edit := false, false
	ops := eachOption(args, short, long, false, func(opt string, _ *word) {
		switch opt {
		case "-s", "-i", "--shell", "--login":
			shell = true
		case "-e", "--edit":
			edit = name == "sudo"
		case "-D", "--chdir":
			an.cwdUnknown = true
		}
	})
	switch {
	case edit:
		for _, op := range ops {
			an.pathArg(op, modeWrite, "sudoedit")
		}
	case shell:
		an.opaque(name + " runs a shell")
	default:
		an.inner(ops, depth, chain)
	}
}

// su records the command of su -c.
func (an *analyzer) su(name string, args []word, depth int) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		var script *word
		switch {
		case t == "-c" || t == "--command":
			if i+1 < len(args) {
				script = &args[i+1]
			}
		case strings.HasPrefix(t, "--command="):
			script = &word{text: strings.TrimPrefix(t, "--command="), dynamic: args[i].dynamic}
		case strings.HasPrefix(t, "-c") && !strings.HasPrefix(t, "--"):
			script = &word{text: t[2:], dynamic: args[i].dynamic}
		default:
			continue
		}
		if script == nil || script.dynamic || script.pattern {
			an.opaque("the command of " + name + " -c is only known when it runs")
			return
		}
		an.script(script.text, syntax.LangBash, depth+1)
		return
	}
	an.opaque(name + " without -c runs a shell that reads its standard input")
}

// xargs records the command xargs runs. Its arguments come from the
// input, so the files it touches are unknown.
func (an *analyzer) xargs(args []word, depth, chain int) bool {
	repl := ""
	i := 0
	for i < len(args) {
		t := args[i].text
		if args[i].dynamic || !strings.HasPrefix(t, "-") || t == "-" {
			break
		}
		i++
		switch {
		case t == "--":
			goto operands
		case t == "-I":
			if i < len(args) {
				repl = args[i].text
				i++
			}
		case strings.HasPrefix(t, "-I"):
			repl = t[2:]
		case t == "-i" || t == "--replace":
			repl = "{}"
		case strings.HasPrefix(t, "-i"):
			repl = t[2:]
		case strings.HasPrefix(t, "--replace="):
			repl = strings.TrimPrefix(t, "--replace=")
		case t == "-a" || t == "--arg-file":
			if i < len(args) {
				an.pathArg(args[i], modeRead, "xargs")
				i++
			}
		case strings.HasPrefix(t, "--arg-file="):
			an.pathArg(word{text: strings.TrimPrefix(t, "--arg-file=")}, modeRead, "xargs")
		case len(t) == 2 && strings.IndexByte("EdLnPs", t[1]) >= 0:
			i++
		case contains([]string{"--delimiter", "--eof", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}, t):
			i++
		}
	}
operands:
	an.pathsUnknown("xargs adds arguments from its input")
	inner := args[min(i, len(args)):]
	if len(inner) == 0 {
		inner = []word{{text: "echo"}}
	}
	if repl != "" {
		inner = append([]word(nil), inner...)
		for k := range inner {
			if strings.Contains(inner[k].text, repl) {
				inner[k].dynamic = true
			}
		}
	}
	return an.inner(inner, depth, chain)
}

// find records find's start paths and the commands of -exec and friends.
func (an *analyzer) find(args []word, depth, chain int) {
	i := 0
	for i < len(args) && (args[i].text == "-H" || args[i].text == "-L" || args[i].text == "-P" || strings.HasPrefix(args[i].text, "-O") || strings.HasPrefix(args[i].text, "-D")) {
		i++
	}
	var starts []word
	for ; i < len(args); i++ {
		t := args[i].text
		if !args[i].dynamic && (strings.HasPrefix(t, "-") || t == "(" || t == "!" || t == ")" || t == ",") {
			break
		}
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []word{{text: "."}}
	}
	del := false
	for ; i < len(args); i++ {
		switch t := args[i].text; t {
		case "-exec", "-execdir", "-ok", "-okdir":
			var inner []word
			for i++; i < len(args) && args[i].text != ";" && args[i].text != "+"; i++ {
				w := args[i]
				if strings.Contains(w.text, "{}") {
					w.dynamic = true
				}
				inner = append(inner, w)
			}
			an.pathsUnknown("find " + t + " runs a command on the files it finds")
			an.inner(inner, depth, chain)
		case "-delete":
			del = true
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(args) {
				an.pathArg(args[i+1], modeWrite, "find "+t)
			}
		}
	}
	for _, s := range starts {
		an.pathArg(s, modeRead, "find")
		if del {
			an.pathArg(s, modeDelete, "find -delete")
		}
	}
}

// watch looks inside watch, which runs its arguments with sh -c unless
// given -x.
func (an *analyzer) watch(args []word, depth, chain int) bool {
	exec := false
	for _, a := range args {
		if !strings.HasPrefix(a.text, "-") || a.text == "--" {
			break
		}
		if a.text == "-x" || a.text == "--exec" {
			exec = true
		}
	}
	ops := optionsEnd(args, "nq", []string{"--interval", "--equexit"})
	if exec {
		return an.inner(ops, depth, chain)
	}
	return an.eval(ops, depth)
}

// flock looks inside flock FILE COMMAND and flock FILE -c COMMAND.
func (an *analyzer) flock(args []word, depth, chain int) bool {
	for i, a := range args {
		if a.text == "-c" || a.text == "--command" {
			if i+1 < len(args) {
				return an.eval(args[i+1:i+2], depth)
			}
			return false
		}
	}
	ops := optionsEnd(args, "wEc", []string{"--timeout", "--conflict-exit-code", "--command"})
	if len(ops) <= 1 {
		return false
	}
	return an.inner(ops[1:], depth, chain)
}

// cd tracks the candidate working directories.
func (an *analyzer) cd(name string, args []word) {
	an.cwdChanged = true
	if name == "popd" {
		return // back to a directory already among the candidates
	}
	ops := optionsEnd(args, "", nil)
	if len(ops) == 0 {
		if name == "pushd" {
			return
		}
		if an.home == "" {
			an.cwdUnknown = true
			return
		}
		ops = []word{{text: an.home}}
	}
	dir := ops[0]
	if dir.dynamic || dir.pattern || dir.text == "-" || strings.HasPrefix(dir.text, "+") || strings.HasPrefix(dir.text, "-") {
		an.cwdUnknown = true
		return
	}
	var next []string
	for _, c := range an.a.cwds {
		d := dir.text
		if !path.IsAbs(d) {
			d = path.Join(c, d)
		}
		d = path.Clean(d)
		if !contains(an.a.cwds, d) && !contains(next, d) {
			next = append(next, d)
		}
	}
	if len(an.a.cwds)+len(next) > maxCwds {
		an.cwdUnknown = true
		return
	}
	an.a.cwds = append(an.a.cwds, next...)
}

// interpreters run code given inline with these options.
var interpreters = map[string]string{
	"python": "c", "node": "ep", "nodejs": "ep", "bun": "ep", "perl": "eE", "ruby": "e",
	"php": "rB", "lua": "e", "luajit": "e", "Rscript": "e", "R": "e", "osascript": "e",
	"tclsh": "", "jshell": "", "irb": "", "ghci": "", "julia": "e", "deno": "",
}

var pythonName = regexp.MustCompile(`^python[0-9.]*$`)

// interpreter reports whether name is a language interpreter, and marks
// the line opaque when the interpreter runs inline code or code from its
// standard input.
func (an *analyzer) interpreter(name string, args []word) bool {
	opts, ok := interpreters[name]
	if pythonName.MatchString(name) {
		opts, ok = "c", true
	}
	if !ok {
		switch name {
		case "awk", "gawk", "mawk", "nawk", "busybox-awk":
			an.awk(args)
			return true
		case "sed", "gsed":
			an.sed(args)
			return true
		}
		return false
	}
	if onlyVersion(args) {
		return true
	}
	if name == "deno" || name == "bun" {
		if len(args) > 0 && (args[0].text == "eval" || args[0].text == "-e" || args[0].text == "--eval") {
			an.opaque(name + " runs inline code")
		}
		return true
	}
	operands := 0
	for _, a := range args {
		t := a.text
		if a.dynamic {
			an.opaque(name + " gets arguments that are only known when it runs")
			return true
		}
		if t == "-" {
			break // the program comes from standard input
		}
		if strings.HasPrefix(t, "--") {
			if contains([]string{"--eval", "--print", "--exec", "--command"}, t) || strings.HasPrefix(t, "--eval=") || strings.HasPrefix(t, "--print=") {
				an.opaque(name + " runs inline code")
				return true
			}
			continue
		}
		if strings.HasPrefix(t, "-") && len(t) > 1 {
			if opts != "" && strings.ContainsAny(t[1:], opts) {
				an.opaque(name + " runs inline code")
				return true
			}
			if t == "-m" {
				operands++ // python -m runs an installed module
				break
			}
			continue
		}
		operands++
		break
	}
	if operands == 0 {
		an.opaque(name + " reads code from its standard input")
	}
	return true
}

// awk records the files awk reads and marks programs that run commands.
func (an *analyzer) awk(args []word) {
	var prog *word
	hasF := false
	i := 0
	for ; i < len(args); i++ {
		t := args[i].text
		if args[i].dynamic || !strings.HasPrefix(t, "-") || t == "-" {
			break
		}
		if t == "--" {
			i++
			break
		}
		if t == "-f" || strings.HasPrefix(t, "--file") {
			hasF = true
		}
		if len(t) == 2 && strings.IndexByte("fvF", t[1]) >= 0 {
			i++
		}
	}
	if hasF {
		an.opaque("awk -f runs a program from a file")
		return
	}
	if i < len(args) {
		prog = &args[i]
		i++
	}
	if prog == nil || prog.dynamic {
		an.opaque("the awk program is only known when it runs")
		return
	}
	if strings.Contains(prog.text, "system") || strings.Contains(prog.text, "|") {
		an.opaque("the awk program can run commands")
	}
	if strings.Contains(prog.text, ">") {
		an.pathsUnknown("the awk program may write files")
	}
	for ; i < len(args); i++ {
		if strings.Contains(args[i].text, "=") && !strings.Contains(args[i].text, "/") {
			continue // a variable assignment
		}
		an.pathArg(args[i], modeRead, "awk")
	}
}

// sedExec finds the GNU sed commands that run a shell command (e, and the
// e flag of s), roughly.
var sedExec = regexp.MustCompile(`(^|[;{}\n]\s*|[0-9$/]\s*)e(\s|$|;)|s(.).*(.).*[gpiImMw0-9]*e`)

// sed records the files sed reads or, with -i, writes.
func (an *analyzer) sed(args []word) {
	inPlace, haveScript := false, false
	var scripts []word
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		t := a.text
		if a.dynamic || !strings.HasPrefix(t, "-") || t == "-" {
			break
		}
		if t == "--" {
			i++
			break
		}
		switch {
		case t == "-i" || strings.HasPrefix(t, "--in-place") || (strings.HasPrefix(t, "-i") && !strings.HasPrefix(t, "--")):
			inPlace = true
		case t == "-e" || t == "--expression":
			haveScript = true
			if i+1 < len(args) {
				scripts = append(scripts, args[i+1])
				i++
			}
		case strings.HasPrefix(t, "--expression="):
			haveScript = true
			scripts = append(scripts, word{text: strings.TrimPrefix(t, "--expression=")})
		case t == "-f" || t == "--file" || strings.HasPrefix(t, "--file="):
			haveScript = true
			an.pathsUnknown("sed -f reads its script from a file")
			if !strings.Contains(t, "=") && i+1 < len(args) {
				an.pathArg(args[i+1], modeRead, "sed -f")
				i++
			}
		case t == "-l" || t == "--line-length":
			i++
		case !strings.HasPrefix(t, "--"):
			for k := 1; k < len(t); k++ {
				if t[k] == 'i' {
					inPlace = true
					break
				}
				if t[k] == 'e' || t[k] == 'f' {
					haveScript = true
					if k == len(t)-1 && i+1 < len(args) {
						scripts = append(scripts, args[i+1])
						i++
					} else {
						scripts = append(scripts, word{text: t[k+1:]})
					}
					break
				}
			}
		}
	}
	if !haveScript && i < len(args) {
		scripts = append(scripts, args[i])
		i++
	}
	for _, s := range scripts {
		if s.dynamic {
			an.opaque("the sed script is only known when it runs")
			continue
		}
		if sedExec.MatchString(s.text) {
			an.opaque("the sed script can run commands")
		}
		if strings.Contains(s.text, "w") {
			an.pathsUnknown("the sed script may write files")
		}
	}
	mode := modeRead
	if inPlace {
		mode = modeWrite
	}
	for ; i < len(args); i++ {
		an.pathArg(args[i], mode, "sed")
	}
}

// A fileSpec says what a command does with its operands.
type fileSpec struct {
	mode      accessMode            // of every operand
	also      accessMode            // a second mode of every operand but a designated last one
	last      accessMode            // when set, the mode of the last operand (the destination)
	skipFirst bool                  // the first operand is a pattern, mode or program, not a path
	short     string                // one-letter options that take a value
	long      []string              // long options that take a value
	paths     map[string]accessMode // options whose value is a path
}

// fileCommands are the commands whose file operands the analysis knows.
var fileCommands = func() map[string]fileSpec {
	read := fileSpec{mode: modeRead}
	m := map[string]fileSpec{}
	for _, n := range []string{"cat", "tac", "less", "more", "nl", "wc", "od", "hexdump", "base64",
		"base32", "strings", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum",
		"b2sum", "cksum", "sum", "file", "stat", "diff", "cmp", "comm", "paste", "column", "fold",
		"fmt", "rev", "bat", "view", "readlink", "realpath", "du", "ls", "tree"} {
		m[n] = read
	}
	m["head"] = fileSpec{mode: modeRead, short: "nc"}
	m["tail"] = fileSpec{mode: modeRead, short: "ncs"}
	m["xxd"] = fileSpec{mode: modeRead, short: "cglos"}
	m["sort"] = fileSpec{mode: modeRead, short: "otkST", long: []string{"--output"}, paths: map[string]accessMode{"-o": modeWrite, "--output": modeWrite}}
	m["uniq"] = fileSpec{mode: modeRead, short: "fsw"}
	m["iconv"] = fileSpec{mode: modeRead, short: "fto", paths: map[string]accessMode{"-o": modeWrite, "--output": modeWrite}}
	m["split"] = fileSpec{mode: modeRead, short: "abln"}
	for _, n := range []string{"grep", "egrep", "fgrep", "rg", "ag", "ack", "jq", "yq"} {
		m[n] = fileSpec{mode: modeRead, skipFirst: true, short: "efmABCDd", paths: map[string]accessMode{"-f": modeRead}}
	}
	m["tee"] = fileSpec{mode: modeWrite}
	m["sudoedit"] = fileSpec{mode: modeWrite, short: "ugChpUrtTD"}
	m["touch"] = fileSpec{mode: modeWrite, short: "dtr", paths: map[string]accessMode{"-r": modeRead}}
	m["truncate"] = fileSpec{mode: modeWrite, short: "sr", paths: map[string]accessMode{"-r": modeRead}}
	m["mkdir"] = fileSpec{mode: modeWrite, short: "m"}
	m["mkfifo"] = fileSpec{mode: modeWrite, short: "m"}
	for _, n := range []string{"rm", "unlink", "rmdir", "shred", "srm", "trash", "trash-put"} {
		m[n] = fileSpec{mode: modeDelete, short: "ns"}
	}
	for _, n := range []string{"chmod", "chown", "chgrp", "chattr", "setfacl"} {
		m[n] = fileSpec{mode: modeWrite, skipFirst: true}
	}
	m["cp"] = fileSpec{mode: modeRead, last: modeWrite, short: "tS", paths: map[string]accessMode{"-t": modeWrite, "--target-directory": modeWrite}}
	m["install"] = fileSpec{mode: modeRead, last: modeWrite, short: "tSgmo", paths: map[string]accessMode{"-t": modeWrite, "--target-directory": modeWrite}}
	m["mv"] = fileSpec{mode: modeDelete, also: modeRead, last: modeWrite, short: "tS", paths: map[string]accessMode{"-t": modeWrite, "--target-directory": modeWrite}}
	m["ln"] = fileSpec{mode: modeRead, last: modeWrite, short: "tS", paths: map[string]accessMode{"-t": modeWrite, "--target-directory": modeWrite}}
	m["link"] = fileSpec{mode: modeRead, last: modeWrite}
	m["rsync"] = fileSpec{mode: modeRead, last: modeWrite, short: "efB"}
	m["scp"] = fileSpec{mode: modeRead, last: modeWrite, short: "cFiloPSJ"}
	for _, n := range []string{"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4"} {
		m[n] = fileSpec{mode: modeWrite, also: modeRead, short: "S"}
	}
	m["zip"] = fileSpec{mode: modeRead}
	m["curl"] = fileSpec{short: "XHdoTuAebcFKmwxrEyYzCQ", long: []string{"--output", "--upload-file", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--form", "--config", "--cookie", "--cookie-jar", "--header", "--request", "--user", "--url", "--output-dir"},
		paths: map[string]accessMode{"-o": modeWrite, "--output": modeWrite, "-T": modeRead, "--upload-file": modeRead, "-c": modeWrite, "--cookie-jar": modeWrite, "-K": modeRead, "--config": modeRead}}
	m["wget"] = fileSpec{short: "OoPiaeUTtwQ", long: []string{"--output-document", "--output-file", "--post-file", "--input-file", "--directory-prefix"},
		paths: map[string]accessMode{"-O": modeWrite, "--output-document": modeWrite, "-o": modeWrite, "--output-file": modeWrite, "--post-file": modeRead, "-i": modeRead, "--input-file": modeRead}}
	return m
}()

// fileCommand records the files of a command in fileCommands, and of dd,
// tar and unzip.
func (an *analyzer) fileCommand(name string, args []word) {
	switch name {
	case "dd":
		for _, a := range args {
			switch {
			case strings.HasPrefix(a.text, "if="):
				an.pathArg(word{text: a.text[3:], dynamic: a.dynamic, pattern: a.pattern}, modeRead, "dd")
			case strings.HasPrefix(a.text, "of="):
				an.pathArg(word{text: a.text[3:], dynamic: a.dynamic, pattern: a.pattern}, modeWrite, "dd")
			case a.dynamic:
				an.pathsUnknown("the operands of dd are only known when it runs")
			}
		}
		return
	case "tar", "bsdtar", "unzip", "7z", "cpio":
		an.archive(name, args)
		return
	case "curl", "wget":
		for _, a := range args {
			if u, ok := strings.CutPrefix(a.text, "file://"); ok {
				u = strings.TrimPrefix(u, "localhost")
				an.pathArg(word{text: u, dynamic: a.dynamic, pattern: a.pattern}, modeRead, name+" file://")
			}
		}
	}
	switch name {
	case "curl":
		for i, a := range args {
			t := a.text
			if t == "-O" || t == "--remote-name" || t == "--remote-name-all" || strings.HasPrefix(t, "--output-dir") {
				an.pathsUnknown("curl " + t + " writes a file named by the server")
			}
			if i > 0 && contains([]string{"-d", "--data", "--data-binary", "--data-urlencode", "-F", "--form"}, args[i-1].text) {
				v := t
				if j := strings.IndexAny(v, "@<"); j >= 0 {
					an.pathArg(word{text: strings.TrimPrefix(v[j+1:], ";"), dynamic: a.dynamic}, modeRead, "curl")
				}
			}
		}
	case "wget":
		if !hasAny(args, "-O", "--output-document", "--spider") {
			an.pathsUnknown("wget writes a file named by the server")
		}
	}
	spec, ok := fileCommands[name]
	if !ok {
		return
	}
	ops := an.optionsPaths(args, spec.short, spec.long, true, spec.paths)
	if _, ok := spec.paths["-t"]; ok && (hasAny(args, "-t") || hasPrefix(args, "--target-directory")) {
		spec.last = 0
	}
	if spec.mode == 0 {
		return // curl and wget: only their options name files
	}
	if spec.skipFirst && len(ops) > 0 && !(spec.paths["-f"] != 0 && hasAny(args, "-e", "-f", "--regexp", "--file")) {
		ops = ops[1:]
	}
	tree := name == "mv" || (name == "cp" || name == "scp" || name == "rsync") &&
		(hasShortFlag(args, 'r') || hasShortFlag(args, 'R') || hasShortFlag(args, 'a') || hasAny(args, "--recursive", "--archive"))
	for i, op := range ops {
		if op.text == "-" && !op.dynamic {
			continue // standard input
		}
		if spec.last != 0 && i == len(ops)-1 && len(ops) > 1 {
			an.addAccess(op, spec.last, name, tree)
			// The destination may be a directory: each source lands
			// inside it under its own name.
			for _, src := range ops[:i] {
				if src.dynamic || src.pattern || src.special || op.dynamic || op.pattern {
					continue
				}
				if b := path.Base(src.text); b != "/" && b != "." && b != ".." {
					an.addAccess(word{text: path.Join(op.text, b)}, spec.last, name, tree)
				}
			}
			continue
		}
		an.pathArg(op, spec.mode, name)
		if spec.also != 0 {
			an.pathArg(op, spec.also, name)
		}
	}
	if name == "ln" && hasShortFlag(args, 's') {
		an.pathsUnknown("ln -s creates a symbolic link that changes where paths lead")
	}
}

// archive records what archivers read, and notes that extraction writes
// files the analysis does not know.
func (an *analyzer) archive(name string, args []word) {
	extract, create := name == "unzip", false
	var archive *word
	for i := 0; i < len(args); i++ {
		t := args[i].text
		cluster := ""
		switch {
		case strings.HasPrefix(t, "--"):
			switch {
			case t == "--extract" || t == "--get":
				extract = true
			case t == "--create" || t == "--append" || t == "--update":
				create = true
			case t == "--file" && i+1 < len(args):
				archive = &args[i+1]
				i++
			case strings.HasPrefix(t, "--file="):
				archive = &word{text: strings.TrimPrefix(t, "--file="), dynamic: args[i].dynamic}
			}
			continue
		case strings.HasPrefix(t, "-"):
			cluster = t[1:]
		case i == 0 && (name == "tar" || name == "bsdtar"):
			cluster = t // old-style "tar xzf a.tgz"
		case name == "7z" && i == 0:
			extract = t == "x" || t == "e"
			create = t == "a" || t == "u"
			continue
		default:
			if archive == nil && name != "tar" && name != "bsdtar" {
				archive = &args[i]
				continue
			}
			if create {
				an.pathArg(args[i], modeRead, name)
			}
			continue
		}
		for k := 0; k < len(cluster); k++ {
			switch cluster[k] {
			case 'x':
				extract = true
			case 'c', 'r', 'u':
				create = true
			case 'f':
				if k == len(cluster)-1 && i+1 < len(args) {
					archive = &args[i+1]
					i++
				} else if k < len(cluster)-1 {
					archive = &word{text: cluster[k+1:]}
				}
				k = len(cluster)
			case 'C':
				an.cwdUnknown = true
			}
		}
	}
	if archive != nil {
		mode := modeRead
		if create {
			mode = modeWrite
		}
		an.pathArg(*archive, mode, name)
	}
	if extract || name == "cpio" {
		an.pathsUnknown(name + " extracts files the analysis does not list")
	}
}

func hasAny(args []word, opts ...string) bool {
	for _, a := range args {
		if contains(opts, a.text) {
			return true
		}
	}
	return false
}

func hasPrefix(args []word, prefix string) bool {
	for _, a := range args {
		if strings.HasPrefix(a.text, prefix) {
			return true
		}
	}
	return false
}

// hasShortFlag reports whether a short option cluster before the operands
// holds c.
func hasShortFlag(args []word, c byte) bool {
	for _, a := range args {
		t := a.text
		if t == "--" || !strings.HasPrefix(t, "-") {
			return false
		}
		if !strings.HasPrefix(t, "--") && strings.IndexByte(t[1:], c) >= 0 {
			return true
		}
	}
	return false
}
