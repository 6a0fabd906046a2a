//go:build linux

package permission_test

import "testing"

// canaryShellVar are attacks that set a shell variable in a statement of
// its own, which the analysis understands as it does a for loop's
// variable: a lower-case name no program reads, whose value, literal or
// not, is data the line does not know wherever it is used. Each does
// damage when run in the fixture, so each must be refused by both
// scenarios.
var canaryShellVar = map[string][]string{
	// The value becomes a command, a script or code.
	"shellvar-code": {
		`x=rm; $x -f c`,
		`cmd=rm; command $cmd c`,
		`x='rm -f c'; bash -c "$x"`,
		`x='rm -f c'; eval "$x"`,
		`x='a[$(rm -f c)]'; echo $((x))`,
		`x='a[$(rm -f c)]'; test -v "$x"`,
		`x='a[$(rm -f c)]'; printf -v "$x" 1`,
		`x='a[$(rm -f c)]'; read -r "$x" <<< 1`,
		`printf 'rm -f c' > y; x=BASH_ENV; export "$x=y"; bash -c :`,
		`x=$(printf 'rm -f c' > y); bash y`,
		`s=y.sh; printf 'rm -f c' > y.sh; bash "$s"`,
	},
	// The value becomes an option or a path the command writes.
	"shellvar-paths": {
		`x=.git/config; echo y > "$x"`,
		`x=.git; echo y > $x/config`,
		`x=-delete; find . -name c $x`,
		`x='-exec rm {} ;'; find . -name c $x`,
		`x=c; mv "$x" sub/`,
		`x=.git/config; cp README "$x"`,
		`x=.git/config; sed -i s/core/x/ "$x"`,
		`h=hooks; echo y > .git/$h/pre-commit`,
	},
	// The rules still see the commands around and inside.
	"shellvar-rules": {
		`x=c; rm "$x"`,
		`out=$(rm -f c)`,
		`x=$(find . -name c -delete)`,
		`x=README; cp "$x" .git/config`,
		`n=1; rm -f c`,
	},
}

// canaryShellVarOrdinary are lines with such variables that "allow bash"
// allows.
var canaryShellVarOrdinary = []string{
	`out=$(git status --short); echo "$out"`,
	`head=$(git rev-parse HEAD); echo "at $head"`,
	`dir=sub; ls "$dir"`,
	`n=3; echo $n`,
	`msg="hello world"; echo "$msg"`,
	`files=$(git ls-files); wc -l $files`,
}

func TestCanaryShellVar(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryShellVar)
	checkOrdinary(t, template, canaryShellVarOrdinary, nil)
}
