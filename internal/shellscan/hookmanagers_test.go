package shellscan

import "testing"

// Git runs the hooks of the repository (its hooks directory or
// core.hooksPath, which the gate protects) for most commands: commit,
// merge, checkout, rebase, push, but also any update of a ref
// (reference-transaction) or of the index (post-index-change: add, status,
// diff). The hook managers' hooks run what project files say: husky's run
// .husky/NAME, pre-commit's the entries of .pre-commit-config.yaml,
// lefthook's its lefthook.yml, overcommit's its .overcommit.yml,
// lint-staged's its configuration. A line that writes one and then runs
// git runs code of its own: echo … > .husky/pre-commit && git commit -m x
// ran it with real git and a husky layout (found at stop 44).
func TestHookManagerFilesWrittenBeforeGit(t *testing.T) {
	opaque := []string{
		`echo 'rm -f ~/.bashrc' > .husky/pre-commit && git commit -m x`,
		`echo x >> .husky/pre-push; git push`, `printf x > .husky/_/h; git add -A`,
		`mkdir -p .husky && echo x > .husky/post-checkout && git checkout main`,
		`printf 'repos: []' > .pre-commit-config.yaml && git commit -am x`,
		`echo x > lefthook.yml && git commit -m x`, `echo x > .lefthook.yml; git merge dev`,
		`echo x > lefthook-local.yml && git rebase main`, `echo x > lefthook.json && git commit -m x`,
		`echo x > .overcommit.yml && git commit -m x`, `echo x > .lintstagedrc.json && git commit -m x`,
		`echo x > lint-staged.config.js && git commit -m x`, `echo x > .huskyrc && git commit -m x`,
		`echo x > sub/.husky/pre-commit && git -C sub status`, `cp t .husky/pre-commit && git status`,
		`sed -i s/a/b/ .pre-commit-config.yaml && git diff`, `echo x > .husky/commit-msg; git tag v1`,
		// lefthook's scripts, in its source_dir and source_dir_local (review45g: allowed before).
		`echo x > .lefthook/pre-commit/lint.sh && git commit -m x`,
		`echo x > .lefthook-local/pre-push/x.sh; git push`,
	}
	clean := []string{
		`git commit -m x`, `echo x > notes.txt && git add notes.txt && git commit -m x`,
		`git status && echo x > .husky/pre-commit`, `cat .husky/pre-commit && git commit -m x`,
		`echo x > husky.txt && git commit -m x`, `echo x > src/lefthook.go && git commit -am x`,
		`echo x > .pre-commit-config.yaml.bak && git commit -am x`,
	}
	checkRT57Lines(t, opaque, clean)
}
