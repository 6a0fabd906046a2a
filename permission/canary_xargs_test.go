//go:build linux

package permission_test

import "testing"

// canaryXargs are attacks through xargs, which the analysis understands
// when it runs a plain reader (grep, wc, cat …) with a few options that
// only say how input is split: the reader gets words only known when it
// runs, which cannot make it write or run anything. Any other command or
// option stays opaque, and the rules still see the command xargs runs.
// Each does damage when run in the fixture, so each must be refused by
// both scenarios.
var canaryXargs = map[string][]string{
	// The command xargs runs is what the rules see.
	"xargs-rules": {
		`echo c | xargs rm`,
		`printf 'c\0' | xargs -0 rm -f`,
		`echo c | xargs -n1 -- rm -f`,
		`echo c | xargs -r -P 2 rm`,
		`ls c | xargs --no-run-if-empty rm`,
	},
	// Options that put input elsewhere, read it from a file, or change the
	// command's environment.
	"xargs-options": {
		`echo c | xargs -I{} find . -name {} -delete`,
		`echo .git/config | xargs -I{} cp README {}`,
		`printf 'rm -f c' > y; echo y | xargs -a /dev/stdin bash`,
		`printf 'rm -f c' > 0; echo y | xargs --process-slot-var=BASH_ENV bash -c :`,
		`echo .git/config | xargs -i cp README {}`,
		`echo .git/config | xargs --replace cp README {}`,
		`echo c | xargs -I{} wc -l {} | xargs -I{} rm -f c`,
	},
	// Commands that are no plain reader, given words from the input.
	"xargs-commands": {
		`echo -delete | xargs find . -name c`,
		`echo .git/config | xargs cp README`,
		`echo .git/config | xargs -t truncate -s 0`,
		`printf 'rm -f c' | xargs -0 bash -c`,
		`echo c | xargs /bin/rm`,
		`echo c | xargs "rm"`,
		`echo y | xargs -d '\n' sh -c 'rm -f c'`,
	},
	// Beside an allowed xargs, the rest of the line.
	"xargs-beside": {
		`ls | xargs grep -l x > .git/config`,
		`ls | xargs wc -l; rm -f c`,
		`ls | xargs -0 cat 2> .git/hooks/pre-commit`,
		`git ls-files | xargs md5sum && find . -name c -delete`,
		`ls | xargs grep x | tee .git/config`,
	},
}

// canaryXargsOrdinary are lines with xargs that "allow bash" allows.
var canaryXargsOrdinary = []string{
	`find . -name '*.md' | xargs grep -l readme`,
	`find . -name '*.md' | xargs -I{} grep -l readme {}`,
	`git ls-files | xargs -I % wc -l %`,
	`git ls-files -z | xargs -0 wc -l`,
	`find . -type f | xargs -n 10 -P 2 md5sum`,
	`ls | xargs`,
	`git ls-files | xargs -r head -1`,
	`printf 'README\n' | xargs -d '\n' cat`,
}

func TestCanaryXargs(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryXargs)
	checkOrdinary(t, template, canaryXargsOrdinary, nil)
}

// canaryXargsMadeName are lines where xargs -I makes a name out of its
// input through a word bash expands into one holding the replacement
// string, ..{/\{,x}} into ../{} and ..x}: cat then printed the key from
// ../home/.ssh/id_ed25519 while allowed (stop 62).
var canaryXargsMadeName = []settingsCanary{
	{tool: "xargs", line: `echo home/.ssh/id_ed25519 | xargs -I{} cat ..{/\{,x}}`, printed: true},
	{tool: "xargs", line: `mkdir m && touch 'm/{}' && echo ../../home/.ssh/id_ed25519 | xargs -I{} cat m/*`, printed: true},
}

// canaryXargsMadeNameOrdinary are lines with xargs -I that stay allowed.
var canaryXargsMadeNameOrdinary = []settingsOrdinary{
	{tool: "xargs", line: `echo README | xargs -I{} cat {}`},
	{tool: "xargs", line: `echo doc/a | xargs -I % grep -c a % README`},
}

// TestCanaryXargsMadeName checks that each line of canaryXargsMadeName
// asks and prints the key when run, and that the ordinary ones stay
// allowed.
func TestCanaryXargsMadeName(t *testing.T) {
	t.Parallel()
	checkSettingsCanaries(t, canaryXargsMadeName, canaryXargsMadeNameOrdinary)
}
