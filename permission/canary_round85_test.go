//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryRound85 is review67g's attack on gatestr67's reader of command
// strings (round 82) and gatecred67's programs a build writes (round 83):
// spellings of the classes they closed that they missed. Real bash under
// bwrap (hyperfine 1.15, sh is dash; go 1.19 and 1.26) ran each line and
// changed the canary or the home's .bashrc; "allow bash" allowed each.
var canaryRound85 = map[string][]string{
	// A cd behind command or eval in a string: the reader only took a
	// cd named first for one (hyperfine runs the string with sh, which
	// has command and eval; -Sbash has builtin too).
	"1-cd-behind-builtin": {
		`hyperfine -r1 'command cd; echo x >> .bashrc'`,
		`hyperfine -r1 'eval cd; echo x >> .bashrc'`,
		`hyperfine -r1 -Sbash 'builtin cd; echo x >> .bashrc'`,
		`hyperfine -r1 'command -- cd && echo x >> .bashrc'`,
	},
	// ${x=r} and ${x:=r} assign as x=r does: the program word made of
	// the variable is rm, past the deny rule.
	"2-default-assignment": {
		`hyperfine -r1 ': ${x:=r}; "$x"m -f c'`,
		`hyperfine -r1 ': ${x=r}; "$x"m -f c'`,
		`hyperfine -r1 'echo ${x:=r} >/dev/null; "$x"m -f c'`,
		// eval's string sets it.
		`hyperfine -r1 'eval x=r; "$x"m -f c'`,
		`hyperfine -r1 'eval ": \${x:=r}"; "$x"m -f c'`,
	},
	// A shell in the string that reads its commands from what the string
	// feeds it: a pipe or a redirection of the string's own, not the
	// line's (the reader judged sh with no operand as given nothing).
	"3-shell-fed-in-string": {
		`hyperfine -r1 'printf "r%s -f c" m | sh'`,
		`hyperfine -r1 'printf "r%s -f c" m > s; sh < s'`,
		`hyperfine -r1 'printf "r%s -f c" m > s; bash < s'`,
		`hyperfine -r1 'printf "r%s -f c" m | (sh)'`,
		`hyperfine -r1 'printf "r%s -f c" m > s; exec < s; sh'`,
	},
	// A file the string wrote, run by its path.
	"5-string-runs-what-it-wrote": {
		`hyperfine -r1 'printf "r%s -f c" m > s; chmod +x s; ./s'`,
		`hyperfine -r1 'printf "r%s -f c" m > s; chmod +x s; $PWD/s'`,
		`hyperfine -r1 'printf "r%s -f c" m >> s && chmod 755 s && sub/../s'`,
	},
	// A string in a string: the command string of a command the reader
	// guessed in a string (a nested hyperfine) was read, but its
	// redirections and its cd were dropped with the guessed command's
	// paths.
	"6-string-in-string": {
		`hyperfine -r1 "hyperfine -r1 'echo x >> ~/.bashrc'"`,
		`hyperfine -r1 "hyperfine -r1 'cd; echo x >> .bashrc'"`,
		`hyperfine -r1 "timeout 5 hyperfine -r1 'cd; echo x >> .bashrc'"`,
		`hyperfine -r1 "hyperfine -r1 'echo x >> .git/config'"`,
	},
	// A program the line wrote, run by its absolute name through $PWD:
	// the run and the write were compared as "$PWD/s" against "s".
	"4-written-program-by-pwd": {
		`cp /bin/rm s && "$PWD"/s -f c`,
		`cp /bin/rm s && $PWD/s -f c`,
		`cp /bin/rm s && ${PWD}/s -f c`,
		`cp /bin/rm s && "$PWD/s" -f c`,
	},
}

func TestCanaryRound85(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "hyperfine")
	template := checkCanaryRound(t, canaryRound85)
	// Strings that cd within the workdir, feed a command that is no
	// shell, or run the project's own programs stay ordinary.
	checkOrdinary(t, template, []string{
		`hyperfine -r1 'command -v wc && wc -l README'`,
		`hyperfine -r1 'cat README | wc -l'`,
		`hyperfine -r1 'sort < README'`,
		`hyperfine -r1 'command cd sub; ls'`,
		`hyperfine -r1 ': ${N:=3}; echo $N'`,
		`hyperfine -r1 'eval echo hi'`,
		`hyperfine -r1 'make > log; wc -l log'`,
		`hyperfine -r1 'chmod +x bin/ls && bin/ls'`,
		`hyperfine -r1 "hyperfine -r1 'wc -l README'"`,
		`hyperfine -r1 "timeout 5 hyperfine -r1 'cd sub; ls'"`,
		`"$PWD"/bin/ls`,
		`echo "$PWD/README"`,
		`cp README r2 && wc -l "$PWD"/r2`,
	}, nil)
}

// The go command's -C before its subcommand (go -C sub build cmd/pack)
// builds in sub as go build -C sub does, and a program a build writes run
// through $PWD is run by name: with go 1.26 (go 1.19, the fixture's, has
// no -C), go -C sub build cmd/pack && hyperfine -N -r1 'sub/pack c c' and
// go build cmd/pack && "$PWD"/pack c c wrote an archive over the canary
// in bash under bwrap; both were allowed.
func TestRound85GoBuildSpellings(t *testing.T) {
	t.Parallel()
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: t.TempDir(), HomeDir: t.TempDir()})
	for _, line := range []string{
		`go -C sub build cmd/pack && hyperfine -N -r1 'sub/pack c c'`,
		`go -C=sub build cmd/pack && hyperfine -N -r1 'sub/pack c c'`,
		`go build cmd/pack && "$PWD"/pack c c`,
		`go build -o t cmd/pack && $PWD/t c c`,
		`go build -o t cmd/pack && "${PWD}/t" c c`,
		// Not the workdir's own packages: above it, by an absolute
		// path, after a cd.
		`go build -o t ../x && ./t`, `go build -o t /usr/lib/go/src/cmd/pack && ./t c c`,
		`cd sub && go build -o t . && ./t`, `go -C .. build -o t . && ../t`,
	} {
		if out := authorize(t, g, line); out.Run {
			t.Errorf("%q was allowed: %+v", line, out.Verdict)
		}
	}
	// A program built of the workdir's own packages is the project's,
	// as go run . runs it (these asked: the line runs ./app, a program
	// it writes).
	for _, line := range []string{`go -C sub vet ./...`, `go build ./... && ./app --help`, `go -C sub test ./...`,
		`go build -o app . && ./app --help`, `go build -o bin/app ./cmd/app && ./bin/app --version`,
		`go build -o app main.go && ./app`, `go test -c -o x.test . && ./x.test -test.v`} {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
}

// A command substitution that prints a variable of the environment that
// moves a credential location (printenv GNUPGHOME, env | sed …) stands for
// that location, as $GNUPGHOME does (gatecred67 read only the
// reference): bash under bwrap with GNUPGHOME, KUBECONFIG and
// GH_CONFIG_DIR set printed each key; the gate allowed each line.
func TestRound85EnvLocationSubstitutions(t *testing.T) {
	home, wd := secretHome(t)
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		`cat $(printenv GNUPGHOME)/private-keys-v1.d/k.key`,
		`cat "$(printenv GNUPGHOME)"/private-keys-v1.d/k.key`,
		`d=$(printenv GNUPGHOME); cat $d/private-keys-v1.d/k.key`,
		`cat $(env | sed -n s/^GNUPGHOME=//p)/private-keys-v1.d/k.key`,
		`cat $(printenv KUBECONFIG)`,
		`cat "$(printenv GH_CONFIG_DIR)/hosts.yml"`,
	} {
		if v := decide(line); v.Decision != permission.Ask || v.RuleID != permission.RuleBashSecretRead {
			t.Errorf("%q: %v %s (%s), want an ask of %s", line, v.Decision, v.RuleID, v.Reason, permission.RuleBashSecretRead)
		}
	}
	for _, line := range []string{`cat $(printenv PWD)/README.md`, `printenv KUBECONFIG`,
		`ls $(printenv GNUPGHOME)`, `cat "$(printenv CARGO_HOME)/config.toml"`} {
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("%q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}
