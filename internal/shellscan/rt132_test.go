package shellscan

import "testing"

// A git command that writes the worktree's files from commits may check
// out a symbolic link to ~/.ssh or a key, which a read later on the line
// follows; the gate's look at the project before the line runs finds no
// such link (round redteam132: git checkout -q feat; cat lnk/.ssh/id_ed25519
// printed the key). The code the commits bring (node app.js, go test) and
// reads before git, outside the project or after a git command that
// leaves the worktree stay clean.
func TestRT132ReadsAfterGitTree(t *testing.T) {
	opaque := []string{
		`git checkout -q feat; cat lnk/.ssh/id_ed25519`, `git pull && cat config/app.yml`, `git merge x && head k`,
		`git reset --hard x; grep -r KEY lnk/`, `git stash pop && cat $(git ls-files)`, `git switch x && cat lnk/*`,
		`git restore --source=x k && cat k`, `git checkout x -- lnk && wc -l lnk/id_ed25519`,
		`git cherry-pick x && less k`, `git clone -q https://example.com/r && cat r/README`,
		`for b in a c; do cat k; git checkout -q x; done`,
		`git pull && tree --fromfile lnk/k`, `git pull && ls "$(cat lnk/k)"`,
	}
	clean := []string{
		`git checkout -b x && cat README`, `git switch -c x && head README`, `git status && cat README`,
		`cat README && git pull`, `git pull && git log -1`, `git pull && node app.js`, `git pull && go test ./...`,
		`git checkout x && cat /etc/hostname`, `git stash list && cat README`, `git pull > /dev/null`,
		`git clone -q . r && ls r`, `git pull && ls -la src`, `git checkout x && du -sh .`, `git pull && stat README`,
	}
	checkRT57Lines(t, opaque, clean)
}

// The other checkouts (hg update, svn up, gh pr checkout, composer's path
// repositories) may make links as git does; a node package manager links
// a file: dependency where it lies, into node_modules: a read beneath it,
// or of a directory holding it, after an install may follow such a link
// (npm install && cat node_modules/h/.ssh/id_ed25519 printed the key of a
// project depending on file:../home, round redteam132).
func TestRT132ReadsAfterOtherCheckouts(t *testing.T) {
	opaque := []string{
		`hg update && cat lnk/.ssh/id_ed25519`, `svn up && cat k`, `gh pr checkout 1 && cat k`,
		`composer install && cat vendor/h/.ssh/id_ed25519`,
		`npm install && cat node_modules/h/.ssh/id_ed25519`, `npm ci; head node_modules/h/k`,
		`yarn && cat node_modules/h/k`, `pnpm install && cat node_modules/h/k`, `npm i && cat node_modules/h/*`,
		`npm install && grep -R KEY .`, `npm install && rg -L KEY`, `npm install && tar -chf x.tar .`,
		`bun install && cat node_modules/h/k`,
	}
	clean := []string{
		`hg status && cat README`, `gh pr list && cat README`, `composer show && cat README`,
		`npm install`, `npm install && npm test`, `npm install && ls node_modules`, `npm install && cat package.json`,
		`npm install && node node_modules/x/cli.js`, `npm install && grep -r x src`, `npm ci && cat README`,
		`cat node_modules/x/package.json && npm install`, `npm test && cat node_modules/x/package.json`,
	}
	checkRT57Lines(t, opaque, clean)
}

// cmake -P, -C, --toolchain and the -D variables of included files, ctest
// -S and cpack --config run their file as CMake code whatever its name
// (round redteam132: printf 'file(WRITE ../home/p x)' > t.txt && cmake
// -P t.txt wrote into the home).
func TestRT132CMakeScripts(t *testing.T) {
	opaque := []string{
		`echo x > t.txt && cmake -P t.txt`, `echo x > t.txt && cmake -Pt.txt`, `echo x > t.txt && cmake -C t.txt -S . -B b`,
		`echo x > t.txt && cmake -S . -B b --toolchain t.txt`, `echo x > t.txt && cmake -S . -B b --toolchain=t.txt`,
		`echo x > t.txt && cmake -S . -B b -DCMAKE_PROJECT_INCLUDE=t.txt`, `echo x > t && cmake -B b -D CMAKE_TOOLCHAIN_FILE:FILEPATH=t`,
		`echo x > t.txt && ctest -S t.txt`, `echo x > t.txt && ctest -SP t.txt,Debug`, `echo x > t.txt && cpack --config t.txt`,
		`cmake -P "$X"`,
	}
	clean := []string{
		`cmake -S . -B b`, `cmake -P cmake/check.txt`, `echo x > notes.txt && cmake -S . -B b`, `ctest --test-dir b`,
		`cmake -S . -B b -DCMAKE_BUILD_TYPE=Release`, `cpack --config b/CPackConfig.cmake`, `cmake -E echo hi`,
	}
	checkRT57Lines(t, opaque, clean)
}

// The file of rules or build code an option names (ninja -f, just
// --justfile, mvn -f, gradle --init-script, ant -buildfile …) is code the
// program runs whatever its name (round redteam132: printf 'rule r …' >
// t.txt && ninja -f t.txt wrote into the home).
func TestRT132BuildFileOptions(t *testing.T) {
	opaque := []string{
		`echo x > t.txt && ninja -f t.txt`, `echo x > t.txt && ninja -ft.txt`, `echo x > sub/t && ninja -C sub -f t`,
		`echo x > t.txt && samu -f t.txt`, `echo x > t.txt && just --justfile=t.txt`, `echo x > t.txt && task -t t.txt`,
		`echo x > t.txt && mvn -f t.txt validate`, `echo x > t.txt && gradle -I t.txt`, `echo x > t.txt && ant -buildfile t.txt`,
		`echo x > t.txt && tox -c t.txt`, `echo x > t.txt && pre-commit run -c t.txt`, `ninja -f "$F"`,
	}
	clean := []string{
		`ninja -f build/x.ninja`, `ninja -C build`, `echo x > notes.txt && ninja -f build/x.ninja`,
		`mvn -f sub/pom.xml test`, `gradle -b build.gradle test`, `ninja -C build -f x.ninja`,
	}
	checkRT57Lines(t, opaque, clean)
}
