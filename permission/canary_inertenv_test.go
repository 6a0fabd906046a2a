//go:build linux

package permission_test

import "testing"

// canaryInertEnvironment are attacks that set the variables the analysis
// lets a line set (shellscan's inert environment) beside what does the
// damage, or set them with values that are more than a word, or set one
// more variable that is not inert, and attacks that use what a plain
// read -r took from its input. Each does damage when run in the
// fixture, so each must still be refused by both scenarios.
var canaryInertEnvironment = map[string][]string{
	"inert-beside-damage": {
		`LANG=C rm -f c`,
		`env LC_ALL=C find . -name c -delete`,
		`export TZ=UTC; echo x > .git/config`,
		`DEBUG=1 bash -c 'rm -f c'`,
		`NODE_ENV=production CI=true node -e 'require("fs").unlinkSync("c")'`,
	},
	"one-more-variable": {
		`GOOS=linux GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f c; false' git status`,
		`env CI=true GIT_CONFIG_PARAMETERS="'core.fsmonitor=rm -f c; false'" git status`,
		`export FORCE_COLOR=1 BASH_ENV=./y; echo 'rm -f c' > y && bash -c :`,
		`echo 'require("fs").unlinkSync("c")' > y.js && CI=true NODE_OPTIONS='--require ./y.js' npm --version`,
	},
	"plain-read": {
		`echo c | while read -r f; do rm -f "$f"; done`,
		`echo .git/config | while IFS= read -r f; do echo x > "$f"; done`,
		`echo 'a[$(rm -f c)]' | while read -r x; do (( x )); done`,
		`read -r x <<< 'a[$(rm -f c)]'; echo $((x))`,
		`echo c | while IFS=, read -r f g; do find . -name "$f" -delete; done`,
		`read -r x <<< 'rm -f c'; $x`,
	},
	"values-beyond-a-word": {
		`LANG=$(rm -f c) ls`,
		"TZ=`rm -f c` date",
		`env DEBUG="$(rm -f c)" ls`,
		`export CI=$(rm -f c); ls`,
	},
}

// canaryInertEnvironmentOrdinary are lines that set only inert variables
// to plain words, which the "allow bash" policy allows.
var canaryInertEnvironmentOrdinary = []string{
	"LC_ALL=C sort README", "TZ=UTC date", "env LANG=C.UTF-8 ls -la", "export CI=true && git status",
	"NO_COLOR=1 FORCE_COLOR=0 ls", "DEBUG=1 git status --short",
	`while IFS= read -r line; do echo "$line"; done < README`, `read -r first < README && echo "$first"`,
	`git status --short | while read -r st f; do echo "$f"; done`,
}

func TestCanaryInertEnvironment(t *testing.T) {
	template := checkCanaryRound(t, canaryInertEnvironment)
	checkOrdinary(t, template, canaryInertEnvironmentOrdinary, nil)
}
