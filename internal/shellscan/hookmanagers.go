package shellscan

// hookManagerFiles are the base names of the project files whose code the
// hook managers' hooks run (a name ending in '/' is a directory whose
// every file is code): husky's .husky/NAME (and its .huskyrc of old),
// pre-commit's .pre-commit-config.yaml (its local hooks' entries),
// lefthook's and overcommit's configurations, lefthook's scripts
// (.lefthook/HOOK/NAME and .lefthook-local/HOOK/NAME, its source_dir and
// source_dir_local), lint-staged's (the commands
// it runs on staged files), and package.json, whose fields the hooks of
// husky 4 ("husky": {"hooks": …}), yorkie ("gitHooks"), ghooks
// ("config": {"ghooks": …}), pre-commit ("pre-commit": the scripts it
// runs) and lint-staged ("lint-staged") read when git runs them (real
// husky 4.3.8 ran the pre-commit command of a package.json the line
// wrote, at gate59). Git runs a repository's hooks for most of its
// commands (any that updates a ref or the index: reference-transaction,
// post-index-change), so a line that writes one of them and then runs git
// runs code of its own (see git and runsWrittenCode). What those hooks
// and commands load in turn (a linter's configuration) is the project's
// own choice, as for any program of the project's.
func hookManagerFiles() []string {
	return []string{
		".husky/", ".huskyrc", ".huskyrc.*", "husky.config.*",
		".pre-commit-config.yaml", ".pre-commit-config.yml",
		"lefthook.yml", "lefthook.yaml", "lefthook.json", "lefthook.jsonc", "lefthook.toml",
		".lefthook.yml", ".lefthook.yaml", ".lefthook.json", ".lefthook.jsonc", ".lefthook.toml",
		"lefthook-local.yml", "lefthook-local.yaml", "lefthook-local.json", "lefthook-local.toml",
		".lefthook-local.yml", ".lefthook-local.yaml", ".lefthook-local.json", ".lefthook-local.toml",
		".lefthook/", ".lefthook-local/",
		".overcommit.yml", ".lintstagedrc", ".lintstagedrc.*", "lint-staged.config.*",
		"package.json",
	}
}
