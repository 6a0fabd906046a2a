package shellscan

import "testing"

// An option a git subcommand has under exactly that name is that option,
// not an abbreviation of a longer, dangerous one (git's option parser
// takes an exact match before abbreviations): `git commit --amend
// --no-edit` and `git diff --text` were opaque because "edit" and "text"
// begin "edit-description" and "textconv". The abbreviations stay opaque
// where the subcommand has no such option.
func TestGitExactOptionsAreNotAbbreviations(t *testing.T) {
	checkRT57Lines(t, []string{
		"git branch --edit", "git branch --edit-desc", "git diff --textc", "git log --textconv",
		"git commit --edit-description", "git status --text", "git commit --text -m x",
	}, []string{
		"git commit --amend --no-edit", "git commit --no-edit", "git merge --no-edit feature",
		"git pull --no-edit", "git revert --no-edit HEAD", "git cherry-pick --no-edit x",
		"git diff --text", "git log -p --text", "git show --text HEAD",
		"git grep --text x", "git format-patch --text -1 --stdout",
	})
}
