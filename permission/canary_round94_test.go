//go:build linux

package permission_test

import (
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
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
		`jq -n env`, `jq -n '$ENV.GITHUB_TOKEN'`, `jq -rn 'env | .NPM_TOKEN'`,
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
	`git commit --dry-run -m 'use $GITHUB_TOKEN in CI'`, `jq -n '{env: 1} | .env'`, `jq -n --arg x 1 '$x'`,
}

// round94Env is the environment round 94's lines run with: credential
// variables holding round94Token.
func round94Env() []string {
	var env []string
	for _, name := range []string{"GITHUB_TOKEN", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "NPM_TOKEN",
		"AWS_SECRET_ACCESS_KEY", "PGPASSWORD", "GH_PAT"} {
		env = append(env, name+"="+round94Token)
	}
	return append(env, "DATABASE_URL=postgres://u:"+round94Token+"@db/x")
}

// TestCanaryRound94 checks that each line printing a credential of the
// environment prints it in real bash and asks (the secret-read rule, or
// the analysis for the six the analysis could not follow before), and that the ordinary lines print none and stay allowed.
func TestCanaryRound94(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "hyperfine", "jq")
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	for class, lines := range canaryRound94 {
		for _, line := range lines {
			if out := runRound84(t, line, round94Env()...); !strings.Contains(out, round94Token) && !strings.HasPrefix(line, "hyperfine") {
				t.Errorf("class %s: %q did not print the token when run: %q", class, line, out)
			}
			if v := decide(line); v.Decision != permission.Ask {
				t.Errorf("class %s: %q: %v %s (%s), want an ask", class, line, v.Decision, v.RuleID, v.Reason)
			}
		}
	}
	for _, line := range canaryRound94Ordinary {
		if out := runRound84(t, line, round94Env()...); strings.Contains(out, round94Token) {
			t.Errorf("ordinary line %q printed the token: %q", line, out)
		}
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("ordinary line %q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}

// TestCanaryRound94StringCd guards gatestr68's relocation of a command
// string's relative paths to the directories its own cd leads to: each
// line printed the key in real bash, and with the relocation removed
// (scopeCwds) each was allowed.
func TestCanaryRound94StringCd(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "hyperfine")
	checkSecretRound(t, map[string][]string{"a command string's cd": {
		`hyperfine -r1 --show-output 'cd sub; cat ../../home/.ssh/id_ed25519'`,
		`hyperfine -r1 --show-output 'cd sub && cat s/id_ed25519'`,
		`hyperfine -r1 --show-output 'cd sub; grep -r PRIVATE ../../home'`,
		`hyperfine -r1 --show-output 'cd doc && cd ../sub && cat a/credentials'`,
	}}, nil, true)
}
