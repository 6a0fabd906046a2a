//go:build linux

package permission_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryRound99 are the lead's lines of stop 53 against round 94's rule:
// the environment printed by a command an unmodelled runner is given as
// one word (env, printenv, or a builtin a shell-running runner hands to
// sh: set, export, declare) or as a string whose program the guess did
// not know (ps e). Each printed round94Token in real bash and was
// allowed before.
var canaryRound99 = []string{
	`hyperfine -N -r1 --show-output env`, `hyperfine -N -r1 --show-output printenv`,
	`hyperfine -r1 --show-output env`, `hyperfine -r1 --show-output set`,
	`hyperfine -r1 --show-output export`, `hyperfine -S bash -r1 --show-output declare`,
	`hyperfine -Sbash -r1 --show-output 'declare -x'`, `hyperfine -r1 --show-output 'export -p'`,
	`hyperfine -r1 --show-output 'ps axeww'`, `hyperfine --shell=bash -r1 --show-output 'declare -p GITHUB_TOKEN'`,
	`hyperfine -S bash -r1 --show-output 'typeset -x'`,
	// A string without blanks is a command line too: operators,
	// redirections, a subshell, quotes or an escape around the name.
	`hyperfine -r1 --show-output 'true;env'`, `hyperfine -r1 --show-output 'set|cat'`,
	`hyperfine -r1 --show-output '(set)'`, `hyperfine -r1 --show-output 'set;'`,
	`hyperfine -r1 --show-output '\env'`, `hyperfine -r1 --show-output 'e"n"v'`,
	`hyperfine -r1 --show-output 'cat<sub/s/id_ed25519'`, `hyperfine -r1 --show-output 'cat<~/.aws/credentials'`,
	// The command as an option's value.
	`hyperfine -N -r1 --show-output --prepare=true --cleanup=env true`, `hyperfine -N -r1 --show-output -p env true`,
}

// canaryRound99Writes write the home's .bashrc through a string without
// blanks; each did in real bash and was allowed before.
var canaryRound99Writes = []string{
	`hyperfine -r1 'echo>>~/.bashrc'`, `hyperfine -r1 'cd;echo>>.bashrc'`, `hyperfine -N -r1 'tee -a ../home/.bashrc'`,
	`hyperfine -r1 '(touch ~/.bashrc)'`,
}

// canaryRound99Ordinary are the lines near them round 99 leaves allowed.
var canaryRound99Ordinary = []string{
	`hyperfine -N -r1 'printenv PATH'`, `hyperfine -r1 'export A=1; echo $A'`,
	`hyperfine -r1 'declare -i n=1'`, `hyperfine -r1 'ps aux'`, `hyperfine -r1 --show-output 'set -e; echo ok'`,
	// Subcommands of that name (envSubcommands): no environment printed.
	`poetry export -f requirements.txt`, `conda env export`, `kubectl set env deploy/web A=1`, `helm env`,
	// A name of that spelling given to an option that names things.
	`hyperfine -N -r1 --export-json x.json --command-name env true`, `git log --format=env -1`,
}

// TestCanaryRound99 checks each line printed the token in real bash and
// asks, and that the ordinary lines print none and stay allowed.
func TestCanaryRound99(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "hyperfine")
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryRound99, nil)
	for _, line := range canaryRound99Writes {
		home, wd := round84Fixture(t)
		cmd := exec.CommandContext(t.Context(), "/bin/bash", "-c", line)
		cmd.Dir, cmd.Env = wd, canaryEnv(home)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%q: %v: %s", line, err, out)
		}
		if _, err := os.Stat(filepath.Join(home, ".bashrc")); err != nil {
			t.Errorf("%q did not write the home's .bashrc when run: %v", line, err)
		}
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	wantQuietAndAllowed(t, decide, canaryRound99Ordinary)
}

// cargo runs a subcommand it does not have as cargo-NAME from PATH
// (cargo watch -s CMD runs CMD with sh), but cargo was among the programs
// known to take no command among their operands, so nothing in its words
// was read: cargo watch -s 'echo x >> ~/.bashrc' was allowed. The test
// puts a cargo-watch that runs its -s string as cargo-watch does on PATH
// and runs the line through the real cargo.
func TestRound99CargoExternalSubcommand(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "cargo")
	cargo, err := exec.LookPath("cargo")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	writeTreeMode(t, bin, map[string]string{"cargo-watch": "#!/bin/sh\nshift\nwhile [ $# -gt 0 ]; do\n\tcase $1 in -s|--shell) sh -c \"$2\"; shift 2 ;; *) shift ;; esac\ndone\n"}, 0o755)
	env := []string{"PATH=" + bin + ":" + filepath.Dir(cargo) + ":/usr/bin:/bin"}
	if h, err := os.UserHomeDir(); err == nil {
		env = append(env, "RUSTUP_HOME="+filepath.Join(h, ".rustup"), "CARGO_HOME="+filepath.Join(h, ".cargo"))
	}
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		`cargo watch -s 'echo x >> ~/.bashrc'`, `cargo watch --shell 'cd; touch .bashrc'`, `cargo -q watch -s 'touch ../home/.bashrc'`,
	} {
		home, wd := round84Fixture(t)
		cmd := exec.CommandContext(t.Context(), "/bin/bash", "-c", line)
		cmd.Dir, cmd.Env = wd, append(canaryEnv(home), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%q: %v: %s", line, err, out)
		}
		if _, err := os.Stat(filepath.Join(home, ".bashrc")); err != nil {
			t.Errorf("%q did not write the home's .bashrc when run: %v", line, err)
		}
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	wantDecisions(t, decide, nil, []string{`cargo build`, `cargo +nightly test`, `cargo run -- --help`, `cargo -C sub build`, `cargo nextest run`})
}

// wantPrintedAndAsked checks that each of asks prints the token or the key
// in real bash (see wantCredentialPrinted) and that decide asks for it,
// and that decide allows each of allows.
func wantPrintedAndAsked(t *testing.T, decide func(line string) permission.Verdict, asks, allows []string) {
	t.Helper()
	for _, line := range asks {
		wantCredentialPrinted(t, line)
	}
	wantDecisions(t, decide, asks, allows)
}

// wantQuietAndAllowed checks that each of lines, run in real bash in round
// 84's fixture with round 94's credential variables, prints no token and
// that decide allows it.
func wantQuietAndAllowed(t *testing.T, decide func(line string) permission.Verdict, lines []string) {
	t.Helper()
	for _, line := range lines {
		if out := runRound84(t, line, round94Env()...); strings.Contains(out, round94Token) {
			t.Errorf("ordinary line %q printed the token: %q", line, out)
		}
	}
	wantDecisions(t, decide, nil, lines)
}

// wantCredentialPrinted runs line in real bash in round 84's fixture with
// round 94's credential variables and fails unless it printed the token
// or the key.
func wantCredentialPrinted(t *testing.T, line string) {
	t.Helper()
	if out := runRound84(t, line, round94Env()...); !strings.Contains(out, round94Token) && !strings.Contains(out, round84Key) {
		t.Errorf("%q printed neither the token nor the key when run: %q", line, out)
	}
}
