package shellscan

import "strings"

// editorWhy ends the reason of a command that starts the editor the
// environment chooses (EDITOR, VISUAL, the tool's own variable, vi by
// default), which the analysis treats as opaque: with a pipe as its input
// vi runs the commands it reads there (:!cmd).
const editorWhy = " starts the editor the environment chooses (EDITOR, VISUAL, vi), which runs the commands its input gives"

// editorState returns why the command name args starts the editor, runs
// a program its options name, or writes the home's dotfiles, as this file
// models it, or "".
func editorState(name string, args []word) string {
	if why := editorStarter(name, args); why != "" {
		return why
	}
	first := firstOperand(args)
	switch name {
	case "npm", "pnpm":
		if first == "edit" {
			return name + " edit" + editorWhy
		}
	case "kubectl", "oc", "k3s", "microk8s":
		if (name == "k3s" || name == "microk8s") && first == "kubectl" {
			args = args[1:]
		}
		// Any operand: an option before the command may take the next
		// word (kubectl -n ns edit pod x).
		if hasAny(args, "edit", "edit-last-applied") ||
			hasPrefix(args, "--edit") && !hasAny(args, "--edit=false") {
			return name + " edit" + editorWhy + " (KUBE_EDITOR)"
		}
	case "ansible-vault":
		if first == "edit" || first == "create" {
			return "ansible-vault " + first + editorWhy
		}
	case "sops":
		return sops(args, first)
	case "chezmoi", "yadm", "stow", "xstow", "rcup", "rcdn", "dotbot", "homeshick", "homesick", "dotdrop":
		// They write the home's dotfiles (links or copies), chezmoi's
		// templates run commands, yadm's work tree is the home.
		if onlyVersion(args) || name == "yadm" && contains([]string{"status", "list", "log", "diff", "version"}, first) {
			return ""
		}
		return name + " writes the dotfiles of the home directory"
	case "virsh":
		if onlyVersion(args) || contains([]string{"list", "dominfo", "domstate", "domifaddr", "dumpxml", "net-list",
			"pool-list", "vol-list", "nodeinfo", "capabilities", "version", "sysinfo", "uri", "hostname", "help"}, first) {
			return ""
		}
		return "virsh " + clipName(first) + " changes virtual machines or" + editorWhy
	case "svn":
		return svn(args, first)
	case "hg":
		return hg(args, first)
	case "fzf", "sk":
		for _, a := range args {
			for _, o := range []string{"--preview", "--bind", "--with-shell", "--listen", "--history", "--execute"} {
				if strings.HasPrefix(a.text, o) {
					return name + " " + clipName(a.text) + " runs the command it names or writes a file"
				}
			}
		}
	case "bat", "batcat", "delta", "glow":
		// The pager they run: --pager names it; glow -p runs PAGER.
		for _, a := range args {
			if a.text == "--" {
				break
			}
			if strings.HasPrefix(a.text, "--pager") || name == "glow" && (a.text == "-p" || a.text == "--pager") {
				return name + " " + clipName(a.text) + " runs the pager it names or the environment chooses"
			}
		}
	case "pry", "ipython", "ipython3", "bpython", "ptpython", "ptipython":
		// REPLs read code from their standard input (pry also ./.pryrc,
		// ipython its profile's startup files).
		if name == "pry" && !onlyVersion(args) || first == "" && len(args) == 0 ||
			hasAny(args, "-i", "-c", "-m", "--interactive") {
			return name + " reads code from its standard input, its options and its startup files"
		}
	}
	return ""
}

// firstOperand returns the first word of args that is not an option, or "".
func firstOperand(args []word) string {
	for _, a := range args {
		if !strings.HasPrefix(a.text, "-") {
			return a.text
		}
	}
	return ""
}

// sops returns why sops args edits a file in the editor (sops FILE, sops
// edit) or runs a command (exec-env, exec-file), or "".
func sops(args []word, first string) string {
	switch first {
	case "decrypt", "encrypt", "rotate", "filestatus", "groups", "updatekeys", "set", "unset", "":
		return ""
	case "edit", "exec-env", "exec-file", "keyservice", "publish":
		return "sops " + first + " runs the editor or the command it is given"
	}
	if onlyVersion(args) || hasAny(args, "-d", "--decrypt", "-e", "--encrypt", "-r", "--rotate", "--set", "--unset") {
		return ""
	}
	return "sops FILE" + editorWhy + " (SOPS_EDITOR)"
}

// svn returns why svn args runs a program its options name or starts the
// editor for a log message, or "".
func svn(args []word, first string) string {
	for _, a := range args {
		for _, o := range []string{"--diff-cmd", "--diff3-cmd", "--editor-cmd", "--config-option", "--config-dir"} {
			if strings.HasPrefix(a.text, o) {
				return "svn " + o + " runs the program it names or reads another configuration"
			}
		}
	}
	switch first {
	case "propedit", "pedit", "pe":
		return "svn " + first + editorWhy + " (SVN_EDITOR)"
	case "commit", "ci", "import", "mkdir", "copy", "cp", "move", "mv", "rename", "ren", "delete", "del",
		"remove", "rm", "lock":
		if !hasAny(args, "-m", "-F", "--message", "--file") && !hasPrefix(args, "--message=") && !hasPrefix(args, "--file=") {
			return "svn " + first + " without a message on the line" + editorWhy + " (SVN_EDITOR)"
		}
	}
	return ""
}

// hg returns why hg args runs a program its options name (--config, a
// hook or an alias; --ssh), reads another repository's configuration, or
// starts the editor for a message, or "".
func hg(args []word, first string) string {
	for _, a := range args {
		t := a.text
		if t == "--" {
			break
		}
		for _, o := range []string{"--config", "--ssh", "--remotecmd", "--cwd", "-R", "--repository", "--repo",
			"--debugger", "--edit", "-e", "--interactive", "-i"} {
			if t == o || strings.HasPrefix(t, o+"=") || len(o) == 2 && strings.HasPrefix(t, o) {
				return "hg " + clipName(t) + " runs a program, reads another configuration or" + editorWhy + " (HGEDITOR)"
			}
		}
	}
	switch first {
	case "commit", "ci", "amend", "tag", "histedit", "qnew", "qrefresh", "record", "crecord", "backout", "graft",
		"uncommit", "fold", "split", "metaedit":
		if !hasAny(args, "-m", "--message", "-l", "--logfile") && !hasPrefix(args, "--message=") &&
			!hasPrefix(args, "-m") && !hasPrefix(args, "--logfile=") {
			return "hg " + first + " without a message on the line" + editorWhy + " (HGEDITOR)"
		}
	}
	return ""
}
