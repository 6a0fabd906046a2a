package shellscan

import "testing"

// bun reads bunfig.toml before any script, test or install: its preload
// (and [test] preload) runs code first, [install.cache] dir and globalDir
// name where it writes; it reads .npmrc as npm does (cache=). A line
// that writes either and then runs bun runs code of its own: real bun
// 1.4.5 ran the preload of a bunfig.toml the line wrote (gate59).
func TestG59BunfigWrittenBeforeBun(t *testing.T) {
	opaque := []string{
		`printf '[test]\npreload = ["./p.js"]\n' > bunfig.toml && bun test`,
		`echo 'preload = ["./p.js"]' > bunfig.toml; bun m.js`,
		`echo 'preload = ["./p.js"]' > bunfig.toml; bun run build`,
		`echo '[install.cache]' > bunfig.toml; bun install`,
		`echo cache=/tmp/x > .npmrc && bun install`,
	}
	clean := []string{`bun test`, `bun install`, `bun run build`, `echo x > notes.txt && bun test`,
		`bun test && echo 'preload = []' > bunfig.toml`}
	checkRT57Lines(t, opaque, clean)
}

// vipe, vidir and their kin start the editor the environment chooses;
// other editors and file managers run the shell commands typed at them
// (gate59: all were allowed).
func TestG59EditorStartersAreOpaque(t *testing.T) {
	opaque := []string{`vipe`, `echo x | vipe > out`, `vidir`, `vidir src`, `find . | vidir -`, `qmv *.txt`,
		`qcp a`, `massren`, `mg x.c`, `zile x`, `ne x`, `ranger`, `mc`, `nnn`, `lf`, `vifm`, `tig`, `lazygit`,
		`gitui`, `printf ':!touch ~/x\n' | vidir a`}
	clean := []string{`vipe --version`, `tig --version`, `echo vipe`, `grep mc notes.txt`, `ls lf`}
	checkRT57Lines(t, opaque, clean)
}

// Git's commands that bring the worktree's files from commits, the stash
// or a patch may bring a package manager's settings file the gate judged
// before the line ran (see gitBroughtSettings): real npm ls after git
// checkout other -- .npmrc, and npm test after git merge other, wrote
// the cache= the branch's .npmrc named at gate59. Code a project's own
// files hold (a Makefile, a test) that git brings stays the project's.
func TestG59GitBringsSettings(t *testing.T) {
	opaque := []string{
		`git checkout other -- .npmrc && npm ls`, `git pull && npm ls`, `git merge x && npm test`,
		`git stash pop && pnpm install`, `git restore --source=x .npmrc && npm ls`, `git pull && bun install`,
		`git switch x && yarn test`, `git reset --hard x; npx tsc`, `git cherry-pick x && npm ci`,
		`git am x.patch && npm test`, `git apply x.patch && npm test`, `git rebase main && npm test`,
		`git revert HEAD --no-edit && npm test`, `git mv x .npmrc && npm ls`, `git checkout x && bunx tsc`,
		`git checkout -b x origin/x && npm ls`, `git switch -c x other && npm ls`, `git stash && npm test`,
		`git stash branch x && npm ls`, `git checkout -b x -- .npmrc && npm ls`,
	}
	clean := []string{
		`git pull`, `git checkout x`, `git pull && make`, `git pull && go test ./...`, `git pull && node app.js`,
		`npm test && git pull`, `git diff && npm test`, `git log && npm ci`, `git status && npm test`,
		`git add . && git commit -m x && npm test`, `git checkout x -- Makefile && make`,
		`git clone https://example.com/r && npm ls`, `git checkout -b feature && npm test`,
		`git switch -c feature && npm test`, `git stash list && npm test`, `git stash show && npm ci`,
		`git stash && git stash pop`, `git checkout main && git pull`, `git pull && git checkout x`,
		`git fetch && git merge origin/main && git log`, `git stash && git pull && git stash pop`,
	}
	checkRT57Lines(t, opaque, clean)
}

// package.json holds the hooks of husky 4, yorkie, ghooks and pre-commit
// and lint-staged's commands, which the hooks git runs read: a line that
// writes it and then runs git runs code of its own (gate59: allowed
// before; real husky 4.3.8 ran it).
func TestG59PackageJSONHooksWrittenBeforeGit(t *testing.T) {
	opaque := []string{
		`echo '{"husky":{"hooks":{"pre-commit":"touch ~/p"}}}' > package.json && git commit -am x`,
		`echo '{"gitHooks":{"pre-commit":"x"}}' > package.json; git add -A`,
		`cp t.json package.json && git commit -m x`, `sed -i s/a/b/ package.json && git status`,
		`echo x > sub/package.json && git commit -am x`,
	}
	clean := []string{`git commit -m x && echo x > package.json`, `cat package.json && git commit -am x`,
		`echo x > package.json.bak && git commit -am x`, `echo x > notes.txt && git commit -am x`}
	checkRT57Lines(t, opaque, clean)
}

// The exec-maven-plugin runs the program -Dexec.executable names with the
// arguments -Dexec.args gives (sh -c '…'), in any place on mvn's line
// (gate59: allowed unless a guessed word was a path outside). Real mvn
// could not fetch the plugin here (no network to Maven Central); the
// properties are the plugin's documented ones.
func TestG59MavenExecProperties(t *testing.T) {
	opaque := []string{
		`mvn exec:exec -Dexec.executable=sh '-Dexec.args=-c "touch ~/zz"'`,
		`mvn -Dexec.executable=sh exec:exec`, `mvn exec:exec -Dexec.executable=rm`,
		`./mvnw exec:exec -Dexec.executable=sh`, `mvn exec:exec -Dexec.args=-c`,
		`mvn -D exec.executable=python3 exec:exec`, `mvn --define exec.args=x exec:exec`,
		`mvnd exec:exec -Dexec.commandlineArgs=x`, `mvn -DEXEC.EXECUTABLE=sh exec:exec`,
	}
	clean := []string{`mvn test`, `mvn exec:exec`, `mvn exec:java -Dexec.mainClass=x.Main`, `mvn -q package`,
		`./mvnw -B verify`, `echo exec.args`}
	checkRT57Lines(t, opaque, clean)
}

// gh's commands that check files out or download them write the
// worktree as git checkout does: links a later write may follow, and the
// package managers' settings files (gate59: allowed before, as git's
// were). No gh or GitHub here to run them.
func TestG59GhBringsFiles(t *testing.T) {
	opaque := []string{
		`gh pr checkout 1 && npm ls`, `gh pr checkout 1 && echo x > y`, `gh run download 1 && npm ls`,
		`gh release download v1 && npm ls`, `gh repo sync && npm test`, `gh repo clone o/y && cd y && npm ls`,
		`gh repo clone o/y && cd y && make`, `gh gist clone x && cd x && make`, `gh pr checkout 1; bun install`,
	}
	clean := []string{`gh pr checkout 1`, `gh pr view 1`, `gh pr create -t x -b y`, `gh pr checkout 1 && make`,
		`gh release download v1 -D dist`, `gh run list && npm ls`, `npm ls && gh pr checkout 1`}
	checkRT57Lines(t, opaque, clean)
}

// gh's changes of who or what may reach the repository, and deletions git
// cannot restore, are opaque as gh api's writes, gh repo delete and gh
// ssh-key add are; changes of the content stay allowed as git push is
// (gate59: all allowed before).
func TestG59GhAccessChanges(t *testing.T) {
	opaque := []string{
		`gh secret set X`, `gh secret set X --body y`, `gh secret delete X`, `gh variable set X --body y`,
		`gh variable delete X`, `gh repo deploy-key add k.pub`, `gh repo deploy-key delete 1`,
		`gh repo edit --visibility public --accept-visibility-change-consequences`, `gh release delete v1 -y`,
		`gh release delete-asset v1 a.zip`, `gh issue delete 1 --yes`, `gh run delete 1`, `gh cache delete x`,
		`gh label delete bug`, `gh gist delete x`, `gh -R o/r secret set X`,
	}
	clean := []string{`gh secret list`, `gh variable list`, `gh variable get X`, `gh repo deploy-key list`,
		`gh repo edit --description x`, `gh release create v1 --notes x`, `gh release list`, `gh pr merge 1 --squash`,
		`gh pr merge 1 --delete-branch`, `gh issue create -t x -b y`, `gh workflow run ci`, `gh repo view`,
		`git push`}
	checkRT57Lines(t, opaque, clean)
}

// hatch creates a project's environments in its data directory
// (~/.local/share/hatch/env) unless its settings say otherwise, as poetry
// does in its cache (gate59: hatch env create, test, shell and build were
// allowed; no hatch here, PyPI unreachable). hatch build installs the
// build dependencies into its internal hatch-build environment there;
// keystores_test.go held it for clean before.
func TestG59HatchEnvironments(t *testing.T) {
	opaque := []string{`hatch env create`, `hatch test`, `hatch shell`, `hatch build`, `hatch fmt`,
		`hatch env remove`, `hatch env prune`, `hatch -e test env create`}
	clean := []string{`hatch version`, `hatch status`, `hatch env show`, `hatch --version`, `hatch config show`,
		`hatch`, `hatch dep show requirements`}
	checkRT57Lines(t, opaque, clean)
}
