//go:build linux

package permission_test

import "testing"

// canaryRound35 is the attack round of stop 36, aimed at what the stop
// lets the analysis understand: command substitutions, lower-case shell
// variables, xargs of a plain reader, npx, and the order of a loop or a
// pipeline. Each does damage when run in the fixture, so each must be
// refused by both scenarios.
var canaryRound35 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; y=$(echo 2); echo $(( y * x ))`,
		`for v in $(printf '%s' 'a[$(rm${IFS}-f${IFS}c)]'); do echo $((v)); done`,
		`n=$(printf 'a[$(rm -f c)]'); (( n )) || true`,
		`v='a[$(rm -f c)]'; [[ $(printf 1) -eq $v ]]`,
	},
	"2-environment": {
		`x=$(printf 'rm -f c' > y); BASH_ENV=y bash -c :`,
		`x=$(printf 'require("fs").rmSync("c")' > y.js); NODE_OPTIONS=--require=./y.js node -p 1`,
		`for v in $(printf BASH_ENV); do export "$v=y"; done; printf 'rm -f c' > y; bash -c :`,
		`e=y; printf 'rm -f c' > y; BASH_ENV=$e bash -c :`,
	},
	"3-guards-and-wrappers": {
		`echo c | xargs -- nice rm -f`,
		`echo c | xargs timeout 5 rm`,
		`x=$(command -v rm); $x c`,
		`out=$(git status); exec rm -f c`,
		`echo c | xargs -r -n1 env rm`,
	},
	"4-redirections": {
		`f=.git/config; echo x >> "$f"`,
		`echo x > "$(printf .git/hooks/pre-commit)"`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && for i in 1 2; do gpg --batch --options x --card-status; echo 'agent-program ./y' > x; done`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && { sleep 1; gpg --batch --options x --card-status; } | echo 'agent-program ./y' > x`,
		`ls | xargs grep -l x 2>> .git/config`,
	},
	// A configuration written by a command whose output the analysis does
	// not spell (tr, sed, rev), handed to a program that runs what it
	// names.
	"6-transformed-config": {
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && tr A-Z a-z <<< 'AGENT-PROGRAM ./Y' > x && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && printf '#agent-program ./y\n' > x.example && sed 's/^#//' x.example > x && gpg --batch --options x --card-status`,
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo 'y/. margorp-tnega' | rev > x && gpg --batch --options x --card-status`,
	},
	"5-globs": {
		`files=$(ls); cp README .gi?/config`,
		`for f in $(ls -d .gi?); do echo x > $f/config; done`,
		`ls | xargs -0 cat > .g?t/config`,
		`d=$(printf .git); echo x | tee $d/conf[i]g`,
	},
}

// canaryRound35Ordinary are lines next to them that "allow bash" allows.
var canaryRound35Ordinary = []string{
	`for i in 1 2; do gpg --version; echo x > notes.txt; done`,
	`rev=$(git rev-parse --short HEAD); echo "rev $rev" > out.txt`,
	`git ls-files | xargs -n 20 wc -l | tail -1`,
	`n=$(ls | wc -l); echo "$n files"`,
}

func TestCanaryRound35(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryRound35)
	checkOrdinary(t, template, canaryRound35Ordinary, nil)
}
