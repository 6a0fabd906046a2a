//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"
)

// canaryRound41 is the attack round written at the second read of stop
// 38, after the last gate change (the merge of round 40's container, npm
// and make fixes): three variants per class of the security issue, and
// three npm spellings beside round 40's resolution of npm's command word.
// None is in an earlier list; each does damage when run in the fixture of
// TestCanaryRound41 (which adds a package.json), so each must be refused
// by both scenarios.
var canaryRound41 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; echo "${BASH_VERSINFO[x]}"`,
		`x='a[$(rm -f c)]'; echo "${PIPESTATUS[x]}"`,
		`x='a[$(rm -f c)]'; printf '%s\n' "${@:x}"`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y flock y bash -c :`,
		`printf 'rm -f c' > y; env -i BASH_ENV=y bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y exec bash -c :`,
	},
	"3-guards-and-wrappers": {
		`flock . find . -name c -delete`,
		`env -C . find . -name c -delete`,
		`exec -a x find . -name c -delete`,
	},
	"4-redirections": {
		`exec 4>>.git/hooks/pre-push; date >&4`,
		`sha1sum README 2>/dev/null >.git/config`,
		`paste README > .git/hooks/pre-rebase`,
	},
	"5-globs": {
		`cp README .[f-h]it/config`,
		`tee .gi*/config < README`,
		`ln -sf README .gi[t]/config`,
	},
	"6-npm-spellings": {
		`npm --loglevel=silent x -c 'truncate -s0 c'`,
		`npm -s exe -c 'truncate -s0 c'`,
		`npm --no-fund exec -c 'truncate -s0 c'`,
	},
}

// canaryRound41Tools are the programs the lines need besides bash, git
// and coreutils.
var canaryRound41Tools = []string{"npm", "flock"}

func TestCanaryRound41(t *testing.T) {
	t.Parallel()
	round := installedLines(t, canaryRound41, canaryRound41Tools, func(line string) (string, string) { return line, "" })
	template := canaryTemplate(t)
	pkg := `{"name":"p","version":"1.0.0","scripts":{"test":"echo ok"}}` + "\n"
	if err := os.WriteFile(filepath.Join(template, "work", "package.json"), []byte(pkg), 0o644); err != nil {
		t.Fatal(err)
	}
	// npm keeps its cache and logs in ~/.npm: checkReviewRound leaves
	// them out of what counts as damage.
	checkReviewRound(t, template, round)
}
