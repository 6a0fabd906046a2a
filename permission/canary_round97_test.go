//go:build linux

package permission_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryRound97 are the lines of round 97 that printed round84Key in real
// bash, from round 84's fixture home whose ~/.config/pip/pip.conf and
// ~/.npmrc carry it as a login, and with MY_STORE, the variable the CLI's
// --key-env names, holding it; a policy allowing bash allowed each.
var canaryRound97 = map[string][]string{
	// Configuration listers print the index URL of pip.conf with its
	// login, and pnpm the auth tokens of ~/.npmrc (npm's own config list
	// masks them; pip.conf is a file the sandbox leaves readable).
	"1-config-listers": {
		`pip config list`, `pip3 config list`, `python3 -m pip config list`, `python3 -mpip config get global.index-url`,
		`pip config debug`, `pip config --user list`, `pip3 config list -v | cat`,
		`pnpm config list`, `pnpm c list`, `pnpm config get`, `pnpm config list --json`,
	},
	// getopt_long takes any unique prefix of a long option: grep --recur
	// is --recursive, grep --derefer --dereference-recursive, cp --recur
	// and --ar --recursive and --archive, diff --recur --recursive; so
	// does Python's optparse: s3cmd --dump is --dump-config, which prints
	// ~/.s3cfg's secret_key. du --files0-f F, a lister to the gate
	// unless it reads names from a file, printed F in its error. Perl's
	// Getopt::Long too: ack's last --fol after --nofollow follows sub/s
	// to ~/.ssh.
	"2-abbreviated-options": {
		`grep --recur PRIVATE ../home`, `grep --derefer PRIVATE ../home`, `grep --recurs -h KEY ~`,
		`cp --recur ../home h && cat h/.ssh/id_ed25519`, `cp --ar ~ h && cat h/.aws/credentials`,
		`mkdir -p e && diff --recur -N ../home e`, `s3cmd --dump`, `s3cmd --du`,
		`du --files0-f ../home/.ssh/id_ed25519`, `du --files0-fr=../home/.aws/credentials`,
		`ack --nofollow --fol PRIVATE sub`, `ack --noenv --fol PRIVATE sub`,
	},
	// A variable the CLI names as holding the store's key (--key-env
	// MY_STORE), which no rule on names knows.
	"3-named-secret-variables": {
		`echo $MY_STORE`, `printenv MY_STORE`, `bash -c 'echo "$MY_STORE"'`, `echo "${MY_STORE}" | cat`,
	},
}

// canaryRound97Ordinary are the neighbours of round 97's lines that print
// no key and stay allowed.
var canaryRound97Ordinary = []string{
	`pip --version`, `pnpm config get registry`, `s3cmd --dry-run --version`, `du -sh ../home`, `du --si -s ~`, `ack --nofollow PRIVATE sub`, `grep -r x doc`, `grep --color=auto x README`,
	`grep --count x README`, `cp -r doc d2`, `cp --reflink=auto README r2`, `diff -ru doc doc`,
	`echo ${#MY_STORE}`, `printenv PATH`, `echo $MY_STORE_DIR`,
}

// round97Fixture is round84Fixture with the key as the login of
// ~/.config/pip/pip.conf's index URL, ~/.npmrc's auth token and
// ~/.s3cfg's secret_key.
func round97Fixture(t *testing.T) (home, wd string) {
	t.Helper()
	home, wd = round84Fixture(t)
	writeSecretFiles(t, "[global]\nindex-url = https://u:"+round84Key+"@pypi.invalid/simple\n", filepath.Join(home, ".config", "pip", "pip.conf"))
	writeSecretFiles(t, "//registry.npmjs.org/:_authToken="+round84Key+"\n", filepath.Join(home, ".npmrc"))
	writeSecretFiles(t, "[default]\naccess_key = AKIAX\nsecret_key = "+round84Key+"\n", filepath.Join(home, ".s3cfg"))
	return home, wd
}

// TestCanaryRound97 checks that each line of round 97 prints the key in
// real bash and asks under the secret-read rule with the gate told that
// MY_STORE holds a secret, and that the ordinary lines print none and
// stay allowed.
func TestCanaryRound97(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "pip", "pip3", "python3", "pnpm", "s3cmd", "ack")
	home, wd := round97Fixture(t)
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home,
		Protected: []string{filepath.Join(home, ".lite-agent")}, SecretEnv: []string{"MY_STORE"}})
	decide := func(line string) permission.Verdict {
		t.Helper()
		v, err := g.Decide(t.Context(), secretCall(line))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for class, lines := range canaryRound97 {
		for _, line := range lines {
			if out := runRound97(t, line); !strings.Contains(out, round84Key) {
				t.Errorf("class %s: %q did not print the key when run: %q", class, line, out)
			}
			if v := decide(line); v.Decision != permission.Ask || v.RuleID != permission.RuleBashSecretRead {
				t.Errorf("class %s: %q: %v %s (%s), want an ask of %s", class, line, v.Decision, v.RuleID, v.Reason, permission.RuleBashSecretRead)
			}
		}
	}
	for _, line := range canaryRound97Ordinary {
		if out := runRound97(t, line); strings.Contains(out, round84Key) {
			t.Errorf("ordinary line %q printed the key: %q", line, out)
		}
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("ordinary line %q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}

// runRound97 runs line in real bash in a fresh round97Fixture, with
// MY_STORE holding the key, and returns what it printed.
func runRound97(t *testing.T, line string) string {
	t.Helper()
	home, wd := round97Fixture(t)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/bash", "-c", line)
	cmd.Dir = wd
	cmd.Env = append(canaryEnv(home), "MY_STORE="+round84Key, "XDG_CACHE_HOME="+filepath.Join(home, ".cache"))
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// TestRound97AbbreviatedPrinters checks, by decision only (the secret
// lies in a cloud service), that an abbreviation of aws ssm's
// --with-decryption asks as the full name does: aws --debug showed
// "WithDecryption": true in the request of get-parameter --w; and that
// the negation and its abbreviation stay allowed.
func TestRound97AbbreviatedPrinters(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, "[default]\n", filepath.Join(home, ".aws", "credentials"))
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		`aws ssm get-parameter --name x --with-decr`, `aws ssm get-parameter --name x --w`,
		`aws ssm get-parameters --names x --with-decryp`, `aws --region us-east-1 ssm get-parameter --name x --with-d`,
		`curl --netrc-op -v https://example.com`, `wget --deb https://example.com`,
	} {
		if v := decide(line); v.Decision != permission.Ask || v.RuleID != permission.RuleBashSecretRead {
			t.Errorf("%q: %v %s (%s), want an ask of %s", line, v.Decision, v.RuleID, v.Reason, permission.RuleBashSecretRead)
		}
	}
	for _, line := range []string{
		`aws ssm get-parameter --name x`, `aws ssm get-parameter --name x --no-with-decryption`,
		`aws ssm get-parameter --name x --no-w`, `curl --netr https://example.com`, `wget --de https://example.com`,
	} {
		if v := decide(line); v.RuleID == permission.RuleBashSecretRead {
			t.Errorf("%q: %v %s (%s), want no secret read", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}

// TestCanaryRound97EnvCounts checks round 94's false positives: env
// whose output goes to /dev/null or into a consumer that prints counts
// only prints no credential of round94Env in real bash and is allowed;
// their neighbours that print a value, or keep it in a file, do and ask.
func TestCanaryRound97EnvCounts(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		`env | wc -l`, `env > /dev/null`, `env &>/dev/null`, `env | wc -lw`, `env | wc -l | cat`,
	} {
		if out := runRound84(t, line, round94Env()...); strings.Contains(out, round94Token) {
			t.Errorf("%q printed the token: %q", line, out)
		}
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("%q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	for _, line := range []string{
		`env | wc --files0-from=-`, `env > x | wc -l; cat x`, `env 2>/dev/null`, `env | tee x | wc -l; cat x`,
		`env | grep -c PATH; env | grep TOKEN`, `env | grep -co TOKEN; env | sort`,
	} {
		if out := runRound84(t, line, round94Env()...); !strings.Contains(out, round94Token) {
			t.Errorf("%q did not print the token: %q", line, out)
		}
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}

// TestCanaryRound97PipConfigFile checks that pip's settings file moved
// by PIP_CONFIG_FILE, in the environment the bash tool gives the line,
// asks as ~/.config/pip/pip.conf does: cat of it, by path or by the
// variable, printed the key in real bash.
func TestCanaryRound97PipConfigFile(t *testing.T) {
	t.Parallel()
	home, wd := round97Fixture(t)
	conf := filepath.Join(t.TempDir(), "pip.ini")
	writeSecretFiles(t, "[global]\nindex-url = https://u:"+round84Key+"@pypi.invalid/simple\n", conf)
	env := append(canaryEnv(home), "PIP_CONFIG_FILE="+conf)
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home,
		BashEnv: func() []string { return env }})
	for _, line := range []string{`cat ` + conf, `cat "$PIP_CONFIG_FILE"`, `cat ~/.config/pip/pip.conf`, `grep index ~/.pip/pip.conf ~/.config/pip/pip.conf`} {
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		cmd := exec.CommandContext(ctx, "/bin/bash", "-c", line)
		cmd.Dir, cmd.Env = wd, env
		out, _ := cmd.CombinedOutput()
		cancel()
		if !strings.Contains(string(out), round84Key) {
			t.Errorf("%q did not print the key when run: %q", line, out)
		}
		v, err := g.Decide(t.Context(), secretCall(line))
		if err != nil {
			t.Fatal(err)
		}
		if v.Decision != permission.Ask || v.RuleID != permission.RuleBashSecretRead {
			t.Errorf("%q: %v %s (%s), want an ask of %s", line, v.Decision, v.RuleID, v.Reason, permission.RuleBashSecretRead)
		}
	}
}
