package shellscan

import "strings"

// gitWorktree judges the worktree operands of git worktree remove, move
// and repair (args follow "worktree"); lock and unlock only write below
// .git/worktrees. git finds the
// worktree it is given by the last components of its path first, and
// only then as a path: git worktree remove proj-feature removes the
// linked worktree /home/u/proj-feature when no other worktree's path
// ends so, wherever it lies. An operand that cannot be such an end (./x,
// ../x, an absolute path, as bash gives ~/x) is the path it names:
// remove deletes it, move moves it away, repair rewrites its .git file;
// any other, one only known when the line runs, a pattern or an option
// the analysis does not know makes the line opaque.
func (an *analyzer) gitWorktree(args []word) {
	if len(args) == 0 || args[0].dynamic {
		return
	}
	sub := args[0].text
	var known []string
	switch sub {
	case "remove", "move":
		known = []string{"-f", "--force"}
	case "repair":
	default:
		return
	}
	var ops []word
	for _, a := range args[1:] {
		if a.dynamic || a.pattern {
			an.opaque("git worktree " + sub + " gets a worktree only known when it runs, which may be one outside the workdir")
			return
		}
		if !strings.HasPrefix(a.text, "-") || a.text == "-" {
			ops = append(ops, a)
			continue
		}
		if !contains(known, a.text) {
			an.opaque("git worktree " + sub + " " + clipName(a.text) + " is an option the analysis does not know")
			return
		}
	}
	for k, op := range ops {
		if sub != "repair" && k > 0 {
			break // move's destination is recorded as git worktree move's write
		}
		t := op.text
		if sub != "repair" && !(t == "." || t == ".." || strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") ||
			strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~")) {
			an.opaque("git worktree " + sub + " " + clipName(t) + " may name a linked worktree outside the workdir by the end of its path")
			return
		}
		an.addAccess(op, modeWrite, "git worktree "+sub, true)
	}
}
