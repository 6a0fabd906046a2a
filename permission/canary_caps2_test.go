//go:build linux

package permission_test

import (
	"os"
	"strings"
	"testing"
)

// capsRunfile is a program the analysis does not model that runs the
// script its operand names, as a project's own tool on PATH may.
const capsRunfile = "#!/bin/sh\nexec sh \"$1\"\n"

// canaryCapsWritten are lines that write a file a program the analysis
// does not model runs, with a text longer than the analysis keeps: the
// text of cat a b b (or what cat a b c appends), past the bound, was
// dropped, the file was spelled without the commands it held, and each
// printed the key in real bash and was allowed.
func canaryCapsWritten() []string {
	long, long2 := "#"+strings.Repeat("x", 33000), "#"+strings.Repeat("x", 25000)
	return []string{
		`printf 'cat sub/' > a; printf 's/id_ed25519\n` + long + `\n' > b; cat a b b > x; runfile x`,
		`printf '` + long2 + `\n' > c; printf 'cat sub/' > a; printf 's/id_ed25519\n' > b; cat c c > x; cat a b c >> x; runfile x`,
	}
}

// canaryCapsWrittenOrdinary stay allowed: short scripts the line writes
// and the runner runs, and a long text written but not handed to it.
var canaryCapsWrittenOrdinary = []string{
	`echo 'echo hi' > x; runfile x`,
	`printf 'echo ' > a; printf 'hi\n' > b; cat a b > x; runfile x`,
	`printf 'echo hi\n#` + strings.Repeat("x", 33000) + `\n' > b; cat b b > x; wc -l x`,
}

// TestCanaryCapsWritten checks that a line whose written text passes the
// analysis' bound before it names the key asks, and prints the key in
// real bash with runfile on PATH.
func TestCanaryCapsWritten(t *testing.T) {
	t.Parallel()
	tools := runnerTools(t, map[string]string{"runfile": capsRunfile})
	env := append(round94Env(), "PATH="+tools+":"+os.Getenv("PATH"))
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	lines := canaryCapsWritten()
	for _, line := range lines {
		if out := runRound84(t, line, env...); !strings.Contains(out, round84Key) {
			t.Errorf("%.60q… printed no key when run: %.200q", line, out)
		}
	}
	for _, line := range canaryCapsWrittenOrdinary {
		if out := runRound84(t, line, env...); strings.Contains(out, round84Key) {
			t.Errorf("ordinary line %.60q… printed the key: %.200q", line, out)
		}
	}
	wantDecisions(t, decide, lines, canaryCapsWrittenOrdinary)
}

// cdChain returns n cd commands to missing directories joined by ||.
func cdChain(n int) string {
	return strings.ReplaceAll(manyWords("cd d%d 2>/dev/null", n), "null cd", "null || cd")
}

// canaryCapsCwds are lines whose cd candidates pass maxCwds before the cd
// into sub: sub was dropped, the read judged by its text alone (s is a
// link to ~/.ssh), and each printed the key in real bash and was allowed.
func canaryCapsCwds() []string {
	return []string{
		`{ ` + cdChain(4) + ` || cd sub; }; cat s/id_ed25519`,
		`{ ` + cdChain(20) + ` || cd sub; }; cat s/id_ed25519`,
		`cd doc; { ` + cdChain(8) + ` || cd ../sub; }; head -1 s/id_ed25519`,
	}
}

// canaryCapsCwdsOrdinary stay allowed: fewer candidate directories.
func canaryCapsCwdsOrdinary() []string {
	return []string{
		`{ ` + cdChain(2) + ` || cd doc; }; cat a`,
		`cd doc && cat a && cd .. && cat README`,
	}
}

// TestCanaryCapsCwds checks that a line past the bound of candidate
// working directories asks.
func TestCanaryCapsCwds(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryCapsCwds(), nil)
	wantQuietAndAllowed(t, decide, canaryCapsCwdsOrdinary())
}

// canaryCapsDirsUnknown are lines that change to a directory the analysis
// cannot follow (through /proc/self/cwd) and read a relative
// path through a link there: only the path's text was judged, s/id_ed25519
// looks like no secret, and each printed the key in real bash and was
// allowed.
var canaryCapsDirsUnknown = []string{
	`cd /proc/self/cwd/sub; cat s/id_ed25519 s/../a/credentials`,
	`cd /proc/self/cwd/sub; cat s/id_ed25519`,
	`cd /proc/self/cwd/sub && head -1 s/id_ed25519`,
}

// canaryCapsDirsUnknownOrdinary stay allowed: a file of the directory
// itself read after such a cd.
var canaryCapsDirsUnknownOrdinary = []string{`cd l/doc; cat a`, `cd -P doc/.. && cat README`}

// TestCanaryCapsDirsUnknown checks that a relative path through a
// directory read after a cd the analysis cannot follow asks.
func TestCanaryCapsDirsUnknown(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryCapsDirsUnknown, nil)
	wantQuietAndAllowed(t, decide, canaryCapsDirsUnknownOrdinary)
}
