package permission

import (
	"path"
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
