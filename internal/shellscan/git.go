package shellscan

import (
	"strings"
)

// gitGlobal reports whether opt is one of the options git may take before its subcommand without
// changing which repository, configuration or programs it uses.
func gitGlobal(opt string) bool {
	switch opt {
	case "--no-pager", "-P", "--no-optional-locks", "--version", "--help", "-h", "--no-replace-objects",
		"--no-advice", "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs":
		return true
	}
	return false
}

// gitCommands are the git subcommands the analysis knows to be built in:
// anything else may be an alias ("!sh -c …") or an external git-* program.
// Their code runs only through hooks and configuration, which the caller
// protects (.git/hooks, .git/config).
var gitCommands = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"status": true, "log": true, "diff": true, "show": true, "branch": true, "add": true,
		"commit": true, "checkout": true, "switch": true, "restore": true, "reset": true, "stash": true,
		"fetch": true, "pull": true, "push": true, "merge": true, "rebase": true, "tag": true,
		"remote": true, "rev-parse": true, "ls-files": true, "blame": true, "grep": true,
		"describe": true, "shortlog": true, "init": true, "clone": true, "mv": true, "rm": true,
		"cherry-pick": true, "revert": true, "clean": true, "reflog": true, "show-ref": true,
		"ls-tree": true, "cat-file": true, "rev-list": true, "format-patch": true, "worktree": true,
		"version": true, "help": true, "notes": true, "fsck": true, "gc": true, "count-objects": true,
		"whatchanged": true, "range-diff": true, "merge-base": true, "name-rev": true,
		"symbolic-ref": true, "for-each-ref": true, "check-ignore": true, "diff-tree": true,
		"diff-files": true, "diff-index": true, "apply": true, "am": true, "archive": true, "cherry": true,
	}
}}

// gitLongDanger are long options of git subcommands that run a program,
// read another configuration, or write a file the analysis does not model.
// git accepts any unambiguous abbreviation of a long option, so a prefix of
// one of these is as dangerous as the option itself.
var gitLongDanger = []string{
	"upload-pack", "receive-pack", "exec", "open-files-in-pager", "extcmd", "output",
	"config", "template", "separate-git-dir", "git-dir", "work-tree", "tool", "ext-diff",
	"textconv", "server-option", "reference", "recurse-submodules", "filter", "directory",
	"unsafe-paths",
	// These write .git/config: upstreams, branch descriptions, a shared
	// repository's permissions.
	"set-upstream", "unset-upstream", "track", "edit-description", "shared",
}

// gitExact are options that git subcommands have under exactly these
// names, each with the subcommands that have it, which begin a name in
// gitLongDanger: git's option parsers take an exact name before an
// abbreviation, so `git commit --no-edit` is commit's --edit negated, not
// --edit-description, and `git diff --text` is not --textconv.
var gitExact = lazy[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	set := func(subs ...string) map[string]bool {
		m := make(map[string]bool, len(subs))
		for _, s := range subs {
			m[s] = true
		}
		return m
	}
	return map[string]map[string]bool{
		"edit": set("commit", "merge", "pull", "revert", "cherry-pick", "tag"),
		"text": set("diff", "log", "show", "grep", "format-patch", "diff-tree", "diff-index", "diff-files", "whatchanged"),
	}
}}

// gitShortDanger are the short options that do the same, per subcommand.
var gitShortDanger = lazy[map[string]string]{build: func() map[string]string {
	return map[string]string{
		"clone": "uc", "rebase": "x", "grep": "O", "fetch": "o", "pull": "o", "push": "ou",
		"format-patch": "o", "am": "", "log": "o", "show": "o", "diff": "o", "archive": "o",
		// -u/-t set an upstream in .git/config; branch -m/-c/-d rename, copy or
		// remove a branch's section there.
		"branch": "tumMcCdD", "checkout": "t", "switch": "t",
	}
}}

// gitBranchLong are the long options of git branch that rename, copy or
// remove a branch's section of .git/config.
var gitBranchLong = []string{"move", "copy", "delete"}

// gitRemoteReaders reports whether sub is one of the git remote subcommands that leave .git/config
// as it is; every other one (add, rename, remove, set-url …) rewrites it.
func gitRemoteReaders(sub string) bool {
	switch sub {
	case "show", "get-url", "prune", "update":
		return true
	}
	return false
}

// git checks a git command line: global options other than a few harmless
// ones (-c, -C, --git-dir, --exec-path …), subcommands that are not known
// built-ins (aliases, external programs, config, submodule, bisect …) and
// the options of a subcommand that run programs make the line opaque, as
// does running git after a cd, where it may find a repository whose
// configuration the caller does not protect.
func (an *analyzer) git(args []word) {
	an.sawGit = true
	an.usesCode("git", "/", hookManagerFiles()...)
	if an.cwdChanged {
		an.opaque("git runs after a cd, where it may use a configuration that is not protected")
	}
	i := 0
	for ; i < len(args); i++ {
		t := args[i].text
		if !strings.HasPrefix(t, "-") {
			break
		}
		if !gitGlobal(t) {
			an.opaque("git " + clipName(t) + " changes the repository, configuration or programs git uses")
			return
		}
	}
	if i == len(args) {
		return
	}
	sub := args[i].text
	if !gitCommands.get()[sub] {
		an.opaque("git " + clipName(sub) + " is not a built-in command the analysis knows (it may be an alias)")
		return
	}
	why := gitHelp(args[:i], sub, args[i+1:])
	if why == "" {
		why = gitEditor(sub, args[i+1:])
	}
	if why == "" {
		why = gitSigning(sub, args[i+1:])
	}
	if why != "" {
		an.opaque(why)
		return
	}
	if gitLinkers.get()[sub] {
		defer an.mayLink()
		if sub == "clone" || sub == "worktree" || !gitKeepsWorktree(sub, args[i+1:]) {
			defer func() {
				if an.checkoutAt == 0 {
					an.checkoutAt = len(an.a.accesses) + 1
				}
			}()
		}
		if sub != "clone" && sub != "worktree" {
			// It writes the worktree's files under the names the
			// commits, the stash or the patch give them.
			an.writesUnnamed(word{dynamic: true})
			if !gitKeepsWorktree(sub, args[i+1:]) {
				an.gitBringsSettings("git " + sub)
			}
		}
	}
	if why := gitPatchWrites(sub, args[i+1:]); why != "" {
		an.opaque(why)
		return
	}
	an.gitDestinations(sub, args[i+1:])
	if sub == "push" {
		if why := gitPushDestroys(args[i+1:]); why != "" {
			an.opaque(why)
			return
		}
	}
	if sub == "worktree" {
		an.gitWorktree(args[i+1:])
	}
	if sub == "format-patch" && !hasAny(args[i+1:], "--stdout") {
		// It writes a file per commit into the working directory, named
		// after its number and subject (0001-x.patch, or 1 with
		// --numbered-files, with any --suffix), holding the commit's
		// message: perl -x 0001-x.patch would run what the message says.
		name := "[0-9]*.patch"
		for j, a := range args[i+1:] {
			switch {
			case a.text == "--numbered-files" || a.dynamic:
				name = "[0-9]*"
			case strings.HasPrefix(a.text, "--suffix="):
				name = "[0-9]*" + strings.TrimPrefix(a.text, "--suffix=")
			case a.text == "--suffix" && i+2+j < len(args):
				name = "[0-9]*" + args[i+2+j].text
			}
			if name == "[0-9]*" {
				break
			}
		}
		an.addAccess(word{text: name, pattern: true}, modeWrite, "git format-patch", false)
	}
	if sub == "remote" {
		for _, a := range args[i+1:] {
			if !strings.HasPrefix(a.text, "-") {
				if !gitRemoteReaders(a.text) || a.dynamic {
					an.opaque("git remote " + clipName(a.text) + " rewrites .git/config")
					return
				}
				break
			}
		}
	}
	short := gitShortDanger.get()[sub]
	for _, a := range args[i+1:] {
		t := a.text
		if t == "--" {
			break
		}
		switch {
		case strings.HasPrefix(t, "--"):
			name := strings.TrimPrefix(t, "--")
			if j := strings.IndexByte(name, '='); j >= 0 {
				name = name[:j]
			}
			name = strings.TrimPrefix(name, "no-")
			if name == "" || gitExact.get()[name][sub] {
				continue
			}
			danger := gitLongDanger
			switch sub {
			case "branch":
				danger = append(append([]string(nil), danger...), gitBranchLong...)
			case "archive":
				// An archive made by a remote repository's git.
				danger = append(append([]string(nil), danger...), "remote")
			}
			for _, d := range danger {
				if strings.HasPrefix(d, name) || strings.HasPrefix(name, d) {
					an.opaque("git " + sub + " --" + clipName(name) + " runs a program or writes a file the analysis does not model")
					return
				}
			}
		case strings.HasPrefix(t, "-") && len(t) > 1 && short != "":
			if strings.ContainsAny(t[1:], short) {
				an.opaque("git " + sub + " " + clipName(t) + " runs a program or writes a file the analysis does not model")
				return
			}
		}
	}
}

// gitLinkers are the subcommands that may create or move symbolic links
// in the worktree (a checked-out or applied symlink).
var gitLinkers = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"checkout": true, "switch": true, "restore": true, "reset": true, "stash": true, "merge": true,
		"pull": true, "am": true, "apply": true, "cherry-pick": true, "rebase": true, "revert": true,
		"clone": true, "worktree": true, "mv": true,
	}
}}

// gitDestinations records the directories git init, git clone, git
// worktree add and git worktree move create, as writes of whole trees. Every operand that may be
// the destination is recorded: an option's value taken for one only adds
// a harmless write.
func (an *analyzer) gitDestinations(sub string, args []word) {
	var ops []word
	for _, a := range args {
		if !strings.HasPrefix(a.text, "-") {
			ops = append(ops, a)
		}
	}
	switch sub {
	case "init":
	case "clone":
		if len(ops) > 0 {
			ops = ops[1:] // the repository
		}
	case "worktree":
		// add makes a worktree, move moves one: both write a whole tree
		// wherever they are told.
		if len(ops) == 0 || ops[0].text != "add" && ops[0].text != "move" {
			return
		}
		ops = ops[1:]
	case "mv":
		// git mv moves its sources to the last operand, whole, as mv
		// does: git mv x .lite-agent made the project's protected
		// directory out of a directory the line wrote (round 98). Its
		// options take no values, and every operand after -- is one.
		ops = ops[:0]
		rest := false
		for _, a := range args {
			if rest || !strings.HasPrefix(a.text, "-") || a.dynamic {
				ops = append(ops, a)
			}
			rest = rest || a.text == "--"
		}
	default:
		return
	}
	for _, op := range ops {
		an.addAccess(op, modeWrite, "git "+sub, true)
	}
}

// gitPatchWrites says why git apply or git am makes the line opaque: they
// write the files their patch or mail names, which the line may have
// written itself, so any protected path of the worktree, one that does
// not exist yet too (.lite-agent/hooks.json in a project without one), as
// patch does; git apply --cached writes it into the index, from which a
// commit and a checkout bring it. It returns "" for git apply that only
// checks or describes its patch (--check, --stat, --numstat, --summary
// without --apply) and git am --show-current-patch, --abort and --quit,
// which apply nothing.
func gitPatchWrites(sub string, args []word) string {
	switch sub {
	case "apply":
		// git takes an abbreviation of --apply (--app); the options that
		// turn applying off count only as spelled out.
		inspects, applies := false, false
		for _, a := range args {
			if a.text == "--" {
				break
			}
			switch {
			case a.dynamic || len(a.text) >= len("--ap") && strings.HasPrefix("--apply", a.text):
				applies = true
			case a.text == "--check" || a.text == "--stat" || a.text == "--numstat" || a.text == "--summary":
				inspects = true
			}
		}
		if inspects && !applies {
			return ""
		}
	case "am":
		// --abort and --quit end a session git am began (asked about
		// then) without applying more of it.
		for _, a := range args {
			if !a.dynamic && (strings.HasPrefix(a.text, "--show-current-patch") || a.text == "--abort" || a.text == "--quit") {
				return ""
			}
		}
	default:
		return ""
	}
	return "git " + sub + " writes the files its patch names, which may be protected paths not made yet"
}
