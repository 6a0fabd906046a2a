//go:build linux

package permission_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/permission"
)

// round94Token is the value of the credential variables round 94's
// lines run with: a line that prints it printed a credential of the
// environment, as an agent's bash prints its own ANTHROPIC_API_KEY.
const round94Token = "ROUND94-ENV-TOKEN"

// canaryRound94 holds lines that print a credential the environment
// holds: each printed round94Token in real bash, and all but six (printf
// of a variable, ${X:-y}, a here-document, env -0, set, ps of $$, which
// the analysis could not follow) were allowed before (cat
// /proc/self/environ asked; echo $GITHUB_TOKEN, printenv and env did not).
var canaryRound94 = map[string][]string{
	"a credential variable expanded": {
		`echo $GITHUB_TOKEN`, `echo "${ANTHROPIC_API_KEY}"`, `printf '%s\n' "$OPENAI_API_KEY"`,
		`echo ${NPM_TOKEN:-none}`, `echo $AWS_SECRET_ACCESS_KEY > t.txt; cat t.txt`,
		`cat <<EOF
$PGPASSWORD
EOF`, `echo $DATABASE_URL`, `echo $GH_PAT`,
	},
	"the environment printed": {
		`env`, `env | grep TOKEN`, `env -0 | tr '\0' '\n'`, `printenv`, `printenv GITHUB_TOKEN`,
		`printenv -0 ANTHROPIC_API_KEY`, `set | grep TOKEN`, `ps e -o args= -p $$`, `ps axe | grep TOKEN`,
	},
	"inside a command string": {
		`bash -c 'echo $GITHUB_TOKEN'`, `sh -c printenv`, `hyperfine -N -r1 --show-output 'printenv -0'`,
		`hyperfine -r1 --show-output 'echo $GITHUB_TOKEN'`,
	},
}

// canaryRound94Ordinary are everyday lines round 94 must leave allowed.
var canaryRound94Ordinary = []string{
	`echo $HOME $PATH`, `printenv PATH`, `env GOOS=linux go version`, `echo ${#GITHUB_TOKEN}`,
	`set -e; echo ok`, `ps aux | head -3`, `echo $TOKENIZERS_PARALLELISM`, `echo $SSH_AUTH_SOCK`,
	`git commit --dry-run -m 'use $GITHUB_TOKEN in CI'`,
}

// runRound94 runs line in real bash in a fresh round-84 fixture whose
// environment holds credential variables, and returns its output.
func runRound94(t *testing.T, line string) string {
	t.Helper()
	home, wd := round84Fixture(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/bash", "-c", line)
	cmd.Dir = wd
	cmd.Env = canaryEnv(home)
	for _, name := range []string{"GITHUB_TOKEN", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "NPM_TOKEN",
		"AWS_SECRET_ACCESS_KEY", "PGPASSWORD", "GH_PAT"} {
		cmd.Env = append(cmd.Env, name+"="+round94Token)
	}
	cmd.Env = append(cmd.Env, "DATABASE_URL=postgres://u:"+round94Token+"@db/x")
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// TestCanaryRound94 checks that each line printing a credential of the
// environment prints it in real bash and asks (the secret-read rule, or
// the analysis for the six the analysis could not follow before), and that the ordinary lines print none and stay allowed.
func TestCanaryRound94(t *testing.T) {
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	for class, lines := range canaryRound94 {
		for _, line := range lines {
			if strings.HasPrefix(line, "hyperfine") {
				if _, err := exec.LookPath("hyperfine"); err != nil {
					continue // decided below all the same
				}
			}
			if out := runRound94(t, line); !strings.Contains(out, round94Token) && !strings.HasPrefix(line, "hyperfine") {
				t.Errorf("class %s: %q did not print the token when run: %q", class, line, out)
			}
			if v := decide(line); v.Decision != permission.Ask {
				t.Errorf("class %s: %q: %v %s (%s), want an ask", class, line, v.Decision, v.RuleID, v.Reason)
			}
		}
	}
	for _, line := range canaryRound94Ordinary {
		if out := runRound94(t, line); strings.Contains(out, round94Token) {
			t.Errorf("ordinary line %q printed the token: %q", line, out)
		}
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("ordinary line %q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}
