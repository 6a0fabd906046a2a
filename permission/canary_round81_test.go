//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound81 is review66d's attack on gate66's fix (round 78: a file
// the line makes executable, handed to a command the analysis does not
// model, is code). A command string such a command runs (hyperfine's) is
// read for the words it hands on, after the prefix builtins exec, eval,
// command and builtin; but an option of the prefix (command -p, command
// --) left "-p" as the program's name, and no program is named "-…", so
// the string's words were never handed: real hyperfine 1.18 ran the copy
// of rm and removed the canary with each line, which "allow bash"
// allowed. So were its words after a program word only known when the
// string runs ($X ./t c, "$@" ./t c), which runs ./t when it is empty,
// and such a word itself (./t$X c),
// and every word of a string the analysis could not parse, which sh runs
// up to its syntax error ("./t c\n)"); a script the line wrote, run by
// one (sh t), was never read either; and a string that set PATH after
// its start (export PATH=sub:$PATH; t c), or by read, for, getopts
// or ${PATH:=…}; and eval's and trap's one-command strings (eval './t
// c').
var canaryRound81 = map[string][]string{
	// guessInner has a string that starts PATH=… be opaque; one that
	// sets PATH later (export PATH=…, true; PATH=…) made a bare name
	// run the copy in sub.
	"4-path-in-string": {
		`cp /bin/rm sub/t && hyperfine -r1 'export PATH=$PWD/sub:$PATH; t c'`,
		`cp /bin/rm sub/t && hyperfine -r1 'export PATH=sub:$PATH; t c'`,
		`cp /bin/rm sub/t && hyperfine -r1 'true; PATH=sub:$PATH; t c'`,
		`cp /bin/rm sub/t && hyperfine -r1 'true; PATH=$PWD/sub:$PATH t c'`,
		`cp /bin/rm sub/t && hyperfine -r1 'readonly PATH=sub:$PATH; t c'`,
		`cp /bin/rm sub/t && hyperfine -r1 'cd .; export PATH=$PATH:sub; t c'`,
		`echo sub > f && cp /bin/rm sub/t && hyperfine -r1 'read PATH < f; t c'`,
		`echo x sub > f && cp /bin/rm sub/t && hyperfine -r1 'read -r x PATH < f; t c'`,
		`cp /bin/rm sub/t && hyperfine -r1 'for PATH in sub; do t c; done'`,
		`cp /bin/rm sub/t && hyperfine -r1 'unset PATH; : ${PATH:=sub}; t c'`,
		`mkdir s && cp /bin/rm s/t && hyperfine -r1 'getopts s PATH -s; t c'`,
	},
	// eval's operand and trap's action are command strings of their
	// own: a string of one command was not read again.
	"5-eval-trap": {
		`cp /bin/rm t && hyperfine -r1 "eval './t c'"`,
		`cp /bin/rm t && hyperfine -r1 "trap './t c' EXIT"`,
		`cp /bin/rm t && hyperfine -r1 "command eval './t c'"`,
		`cp /bin/rm t && hyperfine -r1 "eval ./t\ c"`,
		`cp /bin/rm t && hyperfine -r1 "trap 'command -p ./t c' EXIT"`,
		`echo '/bin/rm -f c' > t && hyperfine -r1 "eval 'sh t'"`,
	},
	"3-unparsed": {
		`hyperfine -r1 $'rm -f c\n)'`,
		`hyperfine -r1 $'echo x >> ../home/.bashrc\n)'`,
		`echo '/bin/rm -f c' > t && hyperfine -r1 $'sh t\n)'`,
		`echo '/bin/rm -f c' > t; hyperfine -r1 $'. ./t\n)'`,
		`cp /bin/rm t && hyperfine -r1 $'./t c\n)'`,
		`cp /bin/rm t && hyperfine -r1 $'./t c\nfi'`,
		`cp /bin/rm t && hyperfine -r1 $'./t c\n$('`,
		`cp /bin/rm t && hyperfine -r1 $'./t c\ndone'`,
		`cp /bin/rm t && hyperfine -r1 './t c
}'`,
		`cp /bin/rm t && /usr/sbin/logsave /dev/null sh -c $'./t c\n)'`,
		`cp /bin/rm t && hyperfine -r1 $'./t c\n<<'`,
		`cp /bin/rm t && hyperfine -r1 $'./"t" c\n)'`,
		`cp /bin/rm t && hyperfine -r1 $'true; command -p ./t c\n)'`,
	},
	"2-dynamic": {
		`cp /bin/rm t && hyperfine -r1 '$X ./t c'`,
		`cp /bin/rm t && hyperfine -r1 '"$@" ./t c'`,
		`cp /bin/rm t && hyperfine -r1 '$X env ./t c'`,
		`cp /bin/rm t && hyperfine -r1 'command $X ./t c'`,
		`cp /bin/rm t && hyperfine -r1 'nice -n1 $X ./t c'`,
		`cp /bin/rm t && hyperfine -r1 'exec $X ./t c'`,
		`cp /bin/rm t && hyperfine -r1 'xargs $X ./t c </dev/null'`,
		`cp /bin/rm t && hyperfine -r1 '$X $Y ./t c'`,
		`cp /bin/rm t && hyperfine -r1 '$1 ./t c'`,
		`cp /bin/rm t && hyperfine -r1 './t$X c'`,
		`cp /bin/rm t && hyperfine -r1 './t"$X" c'`,
		`cp /bin/rm t && hyperfine -r1 'env ./t$X c'`,
		`cp /bin/rm t && hyperfine -r1 $'./t$X c\n)'`,
	},
	"1-prefix-options": {
		`cp /bin/rm t && hyperfine -r1 'command -p ./t c'`,
		`cp /bin/rm t && hyperfine -r1 'command -p -- ./t c'`,
		`cp /bin/rm t && hyperfine -r1 'command -- ./t c'`,
		`echo '/bin/rm -f c' > t && chmod +x t && hyperfine -r1 'command -p ./t'`,
		`cp /bin/rm t && hyperfine -r1 'true; command -p ./t c'`,
		`cp /bin/rm t && hyperfine -r1 -p 'command -p ./t c' true`,
		`cp /bin/rm t && hyperfine -r1 'command -p ./t c | true'`,
		`cp /bin/rm t && hyperfine -r1 'eval command -p ./t c'`,
		`cp /bin/rm t && hyperfine -r1 'command -pv ./t c; command -p ./t c'`,
	},
}

func TestCanaryRound81(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "hyperfine")
	template := checkCanaryRound(t, canaryRound81)
	// The prefixes' options stay ordinary where no file the line made
	// executable is handed.
	checkOrdinary(t, template, []string{
		`hyperfine -r1 'command -p ls'`,
		`hyperfine -r1 'command -v ls'`,
		`hyperfine -r1 'command -- ls -la'`,
		`cp README b.txt && hyperfine -r1 '$PAGER b.txt'`,
		`cp README b.txt && hyperfine -r1 $'wc -l b.txt\n)'`,
		`hyperfine -r1 'echo (unbalanced'`,
		`hyperfine -r1 'export LC_ALL=C; sort README'`,
		`hyperfine -r1 'read x < README; echo $x'`,
		`hyperfine -r1 'while IFS= read -r l; do echo "$l"; done < README'`,
		`hyperfine -r1 "eval 'ls -la'"`,
		`hyperfine -r1 'ls $X'`,
		`hyperfine -r1 "trap 'echo done' EXIT"`,
		`cp README sub/copy.txt && hyperfine -r1 'command -p wc -l sub/copy.txt'`,
	}, nil)
}
