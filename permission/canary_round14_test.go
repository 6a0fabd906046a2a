//go:build linux

package permission_test

import (
	"os"
	"strings"
	"testing"
)

// canaryRound14 are the variants of the attack round at the stop that
// merged round 13 (none is in an earlier list). Each does damage when run
// in the fixture of canaryTemplate, so each must be refused by both
// scenarios.
var canaryRound14 = map[string][]string{
	"1-arithmetic": {
		`declare -i n=0; x='a[$(rm -f c)]'; n+=x`,
		`x='a[$(rm -f c)]'; a=(1); echo "${a[x]^^}"`,
		`x='a[$(rm -f c)]'; b[x]+=1`,
	},
	"2-environment": {
		`git config -f .git/config core.fsmonitor 'rm -f c; false' && git status`,
		`HISTFILE=~/.bashrc history -w`,
		`printf '[core]\n\tfsmonitor = rm -f c; false\n' > sub/g && git -c "includeIf.gitdir:**.path=$PWD/sub/g" status`,
	},
	"3-guards-and-wrappers": {
		`printf '!rm -f c\nq\n' | ed -s README`,
		`/usr/sbin/runuser -u root -- rm -f c`,
		`sg root -c 'rm -f c'`,
	},
	"4-redirections": {
		`cd sub && echo x > $OLDPWD/.git/config`,
		`cd .git && cd .. && cd - && echo x > config`,
		`CDPATH=.git cd hooks && echo x > pre-commit`,
		// After the review's change that made a compiler's search
		// directories reads: they must not hide the output.
		`cd .git/hooks && echo 'int main(){return 0;}' | cc -L. -xc - -opre-commit`,
		`echo 'int main(){return 0;}' | gcc -isystem ~ -xc - -o ~/.bashrc`,
		`echo 'int main(){return 0;}' | gcc -iquote . -idirafter .. -xc - -o.git/hooks/pre-commit`,
	},
	"5-globs": {
		`u=; echo x | tee .git/conf${u}ig`,
		`echo x | tee .git/conf{i..i}g`,
		`shopt -s dotglob globstar; echo x | tee **/config`,
	},
}

// canaryRound14Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound14Ordinary = []string{
	"cd sub && ls $OLDPWD", "ls -d .git/conf{i..i}g", "git status",
}

// canaryRound14Tools are the programs some lines need besides bash and
// git; runuser and sg also need root.
var canaryRound14Tools = []string{"ed", "runuser", "sg", "cc", "gcc"}

func TestCanaryRound14(t *testing.T) {
	t.Parallel()
	round := installedLines(t, canaryRound14, canaryRound14Tools, func(line string) (string, string) {
		if (strings.Contains(line, "runuser ") || strings.HasPrefix(line, "sg ")) && os.Geteuid() != 0 {
			return line, "it needs root"
		}
		return line, ""
	})
	template := checkCanaryRound(t, round)
	checkOrdinary(t, template, canaryRound14Ordinary, nil)
}
