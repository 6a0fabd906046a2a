//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"
)

// canaryRound39 is the attack round written at the second read of stop
// 37: three variants per class of the security issue, and three beside
// this stop's chmod change (the class 6-modes, which run notes.txt, a
// project file that is not executable, after giving it execute
// permission). None is in an earlier list; each does damage when run in
// the fixture, so each must be refused by both scenarios.
var canaryRound39 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; chmod --ref=README README; (( x ))`,
		`x='a[$(rm -f c)]'; printf -v y '%s' 1; echo $(( y + x ))`,
		`x='a[$(rm -f c)]'; case 1 in $((x))) :;; esac`,
	},
	"2-environment": {
		`printf 'rm -f c' > y; BASH_ENV=y nice bash -c :`,
		`printf 'rm -f c' > y; BASH_ENV=y xargs -a /dev/null bash -c :`,
		`printf 'rm -f c' > y; env BASH_ENV=y setsid -w bash -c :`,
	},
	"3-guards-and-wrappers": {
		`nohup nice -n1 find . -name c -delete`,
		`time -p find . -name c -delete`,
		`command nice find . -name c -delete`,
	},
	"4-redirections": {
		// nofile: setfacl, where installed, writes its error there
		// too (on README alone it succeeds and writes nothing).
		`setfacl -b README nofile 2>>.git/config`,
		`tar cf /dev/null README > .git/hooks/pre-commit`,
		`gzip -c README >> .git/config`,
	},
	"5-globs": {
		`install -m 755 README .g*t/hooks`,
		`ln README .gi?/hook?/`,
		`tar cf .g*/config README`,
	},
	"6-modes": {
		`chmod -t+x notes.txt; sh -c ./notes.txt`,
		`chmod --refe=bin/ls notes.txt; exec ./notes.txt`,
		`chmod -X+x,g-w notes.txt && bash -c ./notes.txt`,
	},
}

func TestCanaryRound39(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	if err := os.WriteFile(filepath.Join(template, "work", "notes.txt"), []byte("/bin/rm -f c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkCanaryRoundIn(t, template, canaryRound39)
}
