//go:build linux

package permission_test

import (
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound88 is gatestr68's: command strings spelled with what the
// analyzer reads on a line but the reader of command strings did not.
// Real bash under bwrap (hyperfine 1.15) ran each line and removed the
// canary or wrote the home's .bashrc; "allow bash" allowed each before.
var canaryRound88 = map[string][]string{
	// A brace expansion in the program's word of a string hyperfine runs
	// with bash (-Sbash, --shell=bash; its default sh, dash, expands no
	// braces): {r,}m -f c runs rm m -f c. The line's analyzer makes words
	// of brace expansions; the string's reader spelled the word as it was.
	"1-brace-expansion-in-bash-string": {
		`hyperfine -r1 -Sbash '{r,}m -f c'`,
		`hyperfine -r1 --shell=bash '{r,}m -f c'`,
		`hyperfine -r1 -Sbash 'r{m,} -f c'`,
	},
	// set -P or set -o physical in a string bash runs: each cd after it
	// resolves the link before "..", as the analyzer has bash -P -c do;
	// the string's reader took cd link2/.. for the workdir (link2 leads
	// to the home's .config; the home's .bashrc was written).
	"3-set-physical-in-string": {
		`hyperfine -r1 -Sbash 'set -P; cd link2/..; echo x >> .bashrc'`,
		`hyperfine -r1 -Sbash 'set -o physical; cd link2/..; echo x >> .bashrc'`,
		`hyperfine -r1 --shell=bash 'set -eP; cd link2/..; echo x >> .bashrc'`,
	},
	// An expansion the analysis does not know in the program's word of a
	// string: unset, it is empty (r${x}m is rm; $@, $* and $1 of the
	// string's shell are empty too). The line's analyzer makes such a
	// name opaque; the string's reader spelled nothing for it.
	"4-empty-expansion-in-string-program": {
		`hyperfine -r1 'r${x}m -f c'`,
		`hyperfine -r1 'true; r${x}m -f c'`,
		`hyperfine -r1 'r$@m -f c'`,
		`hyperfine -r1 'r$*m -f c'`,
		`hyperfine -r1 'r${1}m -f c'`,
		`hyperfine -r1 'r${HOME%%*}m -f c'`,
		`hyperfine -r1 'r${nope-}m -f c'`,
		`hyperfine -r1 -Sbash 'r${IFS:0:0}m -f c'`,
	},
}

// canaryRound88Copied are strings that make a program by copying,
// installing, linking or writing one and then run it (the brief's open
// question): real bash under bwrap removed the canary or wrote the home's
// .bashrc with each, and the gate refused each before this round too
// (the copy may make a symbolic link there, the string runs a file it
// writes, or a deny rule sees the command the copy is given); they guard
// the reader of command strings.
var canaryRound88Copied = map[string][]string{
	"2-string-runs-what-it-copied": {
		`hyperfine -r1 'cp /bin/sh t && ./t -c "cd; echo x >> .bashrc"'`,
		`hyperfine -r1 'cp /bin/sh t; ./t -c "r""m -f c"'`,
		`hyperfine -r1 'install -m755 /bin/sh t; ./t -c "r""m -f c"'`,
		`hyperfine -r1 'ln -sf /bin/sh t; ./t -c "r""m -f c"'`,
		`hyperfine -r1 'cat /bin/sh > t; chmod +x t; ./t -c "r""m -f c"'`,
		`hyperfine -r1 'cp /bin/sh t; mv t u; ./u -c "cd; echo x >> .bashrc"'`,
	},
}

func TestCanaryRound88(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "hyperfine")
	template := checkCanaryRound(t, canaryRound88)
	checkCanaryRoundIn(t, template, canaryRound88Copied)
	// A string's cd is its own: hyperfine runs the string in a shell of
	// its own, so cd sub && cd .. leaves the line where it was, and a
	// reader in it writes nothing (this asked: the words 1 and .. were
	// taken from the parent directory as files hyperfine may write).
	// Brace expansions of ordinary operands stay ordinary.
	checkOrdinary(t, template, []string{
		`hyperfine -r1 'cd sub && cd .. && wc -l README'`,
		`hyperfine --runs 1 'cd sub && cd .. && wc -l README'`,
		`hyperfine -r1 'cd sub && cd .. && ls'`,
		`hyperfine -r1 -Sbash 'wc -l {README,sub/.keep}'`,
		`hyperfine -r1 'cd sub; ls' && touch x`,
		`hyperfine -r1 -Sbash 'set -P; cd sub; ls'`,
		`hyperfine -r1 'set -e; cd sub/..; ls'`,
		`hyperfine -r1 'echo $x'`,
		`hyperfine -r1 './bin/ls $N'`,
	}, nil)
}

// A credential printer whose name or subcommand in a command string holds
// an expansion the analysis does not know: sh (dash, hyperfine's) ran gh
// auth token for hyperfine --show-output 'g${x}h auth token' (seen with a
// gh on PATH that prints its words; gh itself is not installed here), and
// the gate allowed it and command kub${x}ectl config view --raw: the
// string was not read as one, its first word naming no known program.
func TestRound88CredentialPrintersWithExpansions(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, "token: x\n", filepath.Join(home, ".kube", "config"), filepath.Join(home, ".config", "gh", "hosts.yml"))
	writeSecretFiles(t, "x\n", filepath.Join(wd, "README"))
	decide := secretDecider(t, home, wd)
	wantDecisions(t, decide, []string{
		`hyperfine --show-output -r1 'g${x}h auth token'`,
		`hyperfine --show-output -r1 'g"$x"h auth token'`,
		`hyperfine --show-output -r1 'command kub${x}ectl config view --raw'`,
		`hyperfine --show-output -r1 'kub$1ectl config view --raw'`,
	}, []string{`hyperfine -r1 'gh pr list'`, `hyperfine -r1 'echo $x'`})
	// A program spelled with an expansion joined to text may be several
	// words, whatever it names, once sh splits the expansion's value
	// (round 103: 'cat${PS4#+}sub/s/id_ed25519' runs cat on the key):
	// g${x}h pr list, allowed here before, asks.
	wantDecisions(t, decide, []string{`hyperfine -r1 'g${x}h pr list'`}, nil)
}
