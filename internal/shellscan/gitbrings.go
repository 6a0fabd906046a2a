package shellscan

import "strings"

// gitBroughtSettings are the settings files the gate reads in the project
// before it allows a package manager's line (see jsConfigUnsound in
// package permission): npm's, pnpm's and yarn's .npmrc,
// pnpm-workspace.yaml, .yarnrc and .yarnrc.yml, bun's bunfig.toml. The
// gate judges them as they are when it decides; one that git brings in
// on the line (git checkout other -- .npmrc, git merge, git pull, git
// stash pop) may say cache=~/x or name a program, and the package manager
// after it reads that one: real npm ls wrote the home after git checkout
// other -- .npmrc at gate59.
func gitBroughtSettings() []string {
	return []string{".npmrc", ".yarnrc", ".yarnrc.yml", "pnpm-workspace.yaml", "bunfig.toml"}
}

// gitBringsSettings records that what (git sub, gh pr checkout), which writes the worktree's
// files under the names the commits, the stash or the patch give them,
// may write each of gitBroughtSettings in the working directory: a
// package manager that reads one later on the line runs with settings
// the gate has not read (see runsWrittenCode), as after a line that
// writes .npmrc itself. A file git brings in elsewhere in the worktree is
// matched by its base name, as the package managers' code uses are.
func (an *analyzer) gitBringsSettings(what string) {
	for _, name := range gitBroughtSettings() {
		n := len(an.a.accesses)
		an.addAccess(word{text: name}, modeWrite, what, false)
		for i := n; i < len(an.a.accesses); i++ {
			an.a.accesses[i].settings = true
		}
	}
}

// gitKeepsWorktree reports whether git sub args, though sub may bring
// files, leaves the worktree as it is: a new branch at HEAD (git checkout
// -b x, git switch -c x, with no start point) and git stash list, show,
// create or store.
func gitKeepsWorktree(sub string, args []word) bool {
	var ops []string
	newBranch := false
	for _, a := range args {
		switch {
		case a.dynamic || a.pattern:
			return false
		case a.text == "-b" || a.text == "-B" || a.text == "-c" || a.text == "-C" || a.text == "--create" ||
			a.text == "--force-create":
			newBranch = true
		case a.text == "--":
			return false
		case !strings.HasPrefix(a.text, "-"):
			ops = append(ops, a.text)
		}
	}
	switch sub {
	case "checkout", "switch":
		return newBranch && len(ops) == 1
	case "stash":
		return len(ops) > 0 && (ops[0] == "list" || ops[0] == "show" || ops[0] == "create" || ops[0] == "store")
	}
	return false
}

// ghBringsFiles reports whether gh args writes files under names the line
// does not show into the worktree, as git checkout does: gh pr checkout
// (git fetch and checkout of the pull request's branch), gh repo sync,
// gh repo clone and fork (a checkout), gh gist clone, and the downloads
// of gh run and gh release (artifacts and assets under the names they
// have, extracted from zip files).
func ghBringsFiles(args []word) bool {
	if len(args) < 2 || onlyVersion(args) {
		return false
	}
	sub := firstOperand(args[1:])
	switch args[0].text {
	case "pr":
		return sub == "checkout"
	case "repo":
		return sub == "sync" || sub == "clone" || sub == "fork"
	case "gist":
		return sub == "clone"
	case "run", "release":
		return sub == "download"
	}
	return false
}

// ghBrings records, for gh args that brings files (see ghBringsFiles),
// that it writes the worktree's files under names the line does not
// list and may write the settings files of gitBroughtSettings.
func (an *analyzer) ghBrings(args []word) {
	if !ghBringsFiles(args) {
		return
	}
	an.writesUnnamed(word{dynamic: true})
	an.gitBringsSettings("gh " + args[0].text + " " + firstOperand(args[1:]))
}
