package shellscan

import "strings"

// gitEditorWhy is the reason a git command that starts the editor gives.
const gitEditorWhy = " starts the editor (GIT_EDITOR, core.editor, VISUAL, EDITOR or vi, as the environment chooses), " +
	"which runs the commands its input gives (vi reads keys from a pipe)"

// gitOpts holds the options of a git subcommand's words as gitEditor
// reads them: long names (without "--" and any "=value", the value kept
// in longVal) and the letters of short clusters, a letter that takes a
// value ending its cluster.
type gitOpts struct {
	long    []string
	longVal map[string]string
	short   string
	words   []string // operands
}

// parseGitOpts reads args up to "--"; valued lists the short options that
// take a value (the rest of the cluster, or the next word), attached those
// whose value may only be the rest of the cluster (-S[keyid]).
func parseGitOpts(args []word, valued, attached string) gitOpts {
	o := gitOpts{longVal: map[string]string{}}
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--":
			return o
		case strings.HasPrefix(t, "--"):
			n, v, _ := strings.Cut(t[2:], "=")
			o.long = append(o.long, n)
			o.longVal[n] = v
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				o.short += string(t[j])
				if strings.IndexByte(attached, t[j]) >= 0 {
					break
				}
				if strings.IndexByte(valued, t[j]) >= 0 {
					if j == len(t)-1 {
						i++ // the value is the next word
					}
					break
				}
			}
		default:
			o.words = append(o.words, t)
		}
	}
	return o
}

// hasLong reports whether a long option is full, or an abbreviation of it
// git would take (at least min letters of it).
func (o gitOpts) hasLong(min int, full ...string) bool {
	for _, n := range o.long {
		for _, f := range full {
			if n == f || len(n) >= min && strings.HasPrefix(f, n) {
				return true
			}
		}
	}
	return false
}

// gitEditor returns why git sub args starts the editor, or "": a commit
// without its message on the line (-m, -F, -C, --no-edit) or with -e, -c
// or a template; an annotated or signed tag without one; an interactive
// rebase; --continue of a sequence; notes add and edit; the patch and
// interactive modes of add, checkout, reset, restore, stash and commit
// (whose "e" answer edits the hunk), add -e, and -e of cherry-pick,
// revert, merge and pull. The editor is the environment's (vi by
// default, which the analysis treats as opaque), and with a pipe as its
// input vi runs the commands it reads there (:!cmd).
func gitEditor(sub string, args []word) string {
	patch := func(o gitOpts) bool {
		return strings.ContainsAny(o.short, "p") || o.hasLong(3, "patch", "interactive")
	}
	switch sub {
	case "commit":
		o := parseGitOpts(args, "mFCct", "Su")
		if o.hasLong(2, "edit", "reedit-message", "template", "interactive", "patch", "squash") ||
			strings.ContainsAny(o.short, "ectp") {
			return "git commit" + gitEditorWhy
		}
		if strings.HasPrefix(o.longVal["fixup"], "amend:") || strings.HasPrefix(o.longVal["fixup"], "reword:") {
			return "git commit --fixup" + gitEditorWhy
		}
		if strings.ContainsAny(o.short, "mFC") || o.hasLong(100, "message", "file", "reuse-message", "no-edit", "fixup") {
			return ""
		}
		return "git commit without a message on the line" + gitEditorWhy
	case "tag":
		o := parseGitOpts(args, "mFu", "n")
		if strings.ContainsAny(o.short, "e") || o.hasLong(2, "edit") {
			return "git tag -e" + gitEditorWhy
		}
		annotated := strings.ContainsAny(o.short, "asu") || o.hasLong(2, "annotate", "sign", "local-user")
		if annotated && !strings.ContainsAny(o.short, "mF") && !o.hasLong(100, "message", "file") {
			return "git tag of an annotated tag without a message on the line" + gitEditorWhy
		}
	case "rebase":
		o := parseGitOpts(args, "sXxC", "S")
		if strings.ContainsAny(o.short, "i") || o.hasLong(3, "interactive", "edit-todo", "continue") {
			return "git rebase" + gitEditorWhy
		}
	case "cherry-pick", "revert", "merge", "pull":
		valued := map[string]string{"cherry-pick": "mX", "revert": "mX", "merge": "mFsX", "pull": "sX"}[sub]
		o := parseGitOpts(args, valued, "Sr")
		if strings.ContainsAny(o.short, "e") || o.hasLong(2, "edit", "continue") {
			return "git " + sub + gitEditorWhy
		}
		if sub == "pull" && (strings.HasPrefix(o.longVal["rebase"], "i") || hasPrefix(args, "-ri")) {
			return "git pull --rebase=interactive" + gitEditorWhy
		}
	case "notes":
		// The subcommand is the first operand, but a --ref before it
		// may take the next word: any operand counts.
		o := parseGitOpts(args, "mFCc", "")
		given := strings.ContainsAny(o.short, "mFC") && !strings.ContainsAny(o.short, "c") ||
			o.hasLong(100, "message", "file", "reuse-message")
		if contains(o.words, "edit") || (contains(o.words, "add") || contains(o.words, "append")) && !given {
			return "git notes" + gitEditorWhy
		}
	case "add":
		o := parseGitOpts(args, "", "")
		if strings.ContainsAny(o.short, "epi") || o.hasLong(3, "edit", "patch", "interactive") {
			return "git add" + gitEditorWhy
		}
	case "checkout", "reset", "restore", "stash":
		if patch(parseGitOpts(args, "bBsm", "")) {
			return "git " + sub + " --patch" + gitEditorWhy
		}
	case "am":
		o := parseGitOpts(args, "C", "")
		if strings.ContainsAny(o.short, "i") || o.hasLong(3, "interactive") {
			return "git am --interactive" + gitEditorWhy
		}
	}
	return ""
}

// gitSigning returns why git sub args signs or verifies with gpg (or the
// program gpg.program and gpg.format name), which writes gpg's home
// directory and starts gpg-agent there, as gpg -s and gpg --verify do
// (see gpghome.go), or "": -S/--gpg-sign of the commands that commit, a
// signed tag (-s, -u), git tag -v, push --signed, and --show-signature,
// --verify-signatures.
func gitSigning(sub string, args []word) string {
	why := "git " + sub + " signs or verifies with gpg, which writes its home directory (~/.gnupg) and starts gpg-agent"
	for _, a := range args {
		t := a.text
		if t == "--" {
			break
		}
		n, _, _ := strings.Cut(strings.TrimPrefix(t, "--"), "=")
		if strings.HasPrefix(t, "--") && len(n) >= 3 && !strings.HasPrefix(n, "no-") {
			for _, f := range []string{"gpg-sign", "show-signature", "verify-signatures", "signed"} {
				if strings.HasPrefix(f, n) && (f != "signed" || sub == "push") {
					return why
				}
			}
			if sub == "tag" && (strings.HasPrefix("sign", n) || strings.HasPrefix("local-user", n) || strings.HasPrefix("verify", n)) {
				return why
			}
		}
	}
	switch sub {
	case "commit", "merge", "rebase", "cherry-pick", "revert", "am", "pull", "commit-tree":
		o := parseGitOpts(args, map[string]string{"commit": "mFCct", "merge": "mFsX", "rebase": "sXxC",
			"cherry-pick": "mX", "revert": "mX", "am": "C", "pull": "sX"}[sub], "Sun")
		if strings.Contains(o.short, "S") {
			return why
		}
	case "tag":
		o := parseGitOpts(args, "mFu", "n")
		if strings.ContainsAny(o.short, "suv") {
			return why
		}
	}
	return ""
}
