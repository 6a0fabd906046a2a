package shellscan

// ghAccessChange returns why gh args changes who or what may reach the
// repository or the account rather than its content, or deletes what git
// cannot restore, or "": the secrets and variables GitHub Actions gives
// the workflows (gh secret set/delete, gh variable set/delete), the deploy
// keys that sign in to the repository (as gh ssh-key add does to the
// account), the repository's visibility (gh repo edit --visibility makes
// a private repository's code public), and the deletion of releases,
// issues, runs, caches, labels and gists. Changes of the content, which
// git push makes too (gh pr merge, gh release create, gh issue create,
// gh workflow run), stay allowed as git push is.
func ghAccessChange(args []word) string {
	if len(args) < 2 {
		return ""
	}
	cmd := args[0].text
	sub := firstOperand(args[1:])
	switch cmd {
	case "secret", "variable":
		switch sub {
		case "set", "delete", "remove":
			return "gh " + cmd + " " + sub + " changes the secrets and variables GitHub gives the workflows"
		}
	case "repo":
		switch sub {
		case "deploy-key":
			rest := args[2:]
			if op := firstOperand(rest); op == "add" || op == "delete" {
				return "gh repo deploy-key " + op + " changes the keys that sign in to the repository"
			}
		case "edit":
			if hasPrefix(args, "--visibility") {
				return "gh repo edit --visibility changes who may read the repository"
			}
		}
	case "release":
		if sub == "delete" || sub == "delete-asset" {
			return "gh release " + sub + " deletes what git cannot restore"
		}
	case "issue", "run", "cache", "label", "gist":
		if sub == "delete" {
			return "gh " + cmd + " delete deletes what git cannot restore"
		}
	}
	return ""
}
