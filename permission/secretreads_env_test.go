package permission_test

import (
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// A variable of the environment with which a tool moves its credentials
// out of the home (GNUPGHOME, GH_CONFIG_DIR, CLOUDSDK_CONFIG …) stands for
// the location it moves: a read of a path beneath it asks when the same
// path beneath the home is a secret location (gatecred67; in bash under
// bwrap with each variable set to a directory of keys, each of these
// lines printed the key and the gate allowed it).
func TestBashSecretReadsEnvLocationsGatecred67(t *testing.T) {
	home, wd := secretHome(t)
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		`cat $GNUPGHOME/private-keys-v1.d/*`, `cat $GNUPGHOME/private-keys-v1.d/k.key`, `cat "$GNUPGHOME/trustdb.gpg"`,
		`head "${GNUPGHOME}/secring.gpg"`, `cat "$GH_CONFIG_DIR/hosts.yml"`, `cat "$CLOUDSDK_CONFIG/credentials.db"`,
		`cat "$AZURE_CONFIG_DIR/msal_token_cache.json"`, `cat "$PASSWORD_STORE_DIR/x.gpg"`, `grep -h . $DOCKER_CERT_PATH/key.pem`,
		`cat "$PULUMI_HOME/credentials.json"`, `cat $KAGGLE_CONFIG_DIR/kaggle.json`, `cat "$HF_HOME/token"`,
		`cat "$COMPOSER_HOME/auth.json"`, `cat "$CARGO_HOME/credentials.toml"`, `cat "$XDG_DATA_HOME/keyrings/login.keyring"`,
		// Through a pipe, a loop variable, a variable bound to the
		// environment's.
		`cat $GNUPGHOME/private-keys-v1.d/k.key | base64`, `for f in "$GNUPGHOME"/private-keys-v1.d/*; do cat "$f"; done`,
		`d=$GNUPGHOME; cat $d/private-keys-v1.d/k.key`, `grep -h . "${GH_CONFIG_DIR}"/hosts.yml`,
	} {
		if v := decide(line); v.Decision != permission.Ask || v.RuleID != permission.RuleBashSecretRead {
			t.Errorf("%q: %v %s (%s), want an ask of %s", line, v.Decision, v.RuleID, v.Reason, permission.RuleBashSecretRead)
		}
	}
	// Paths beneath such a directory that hold no credentials, variables
	// that move none, a listing, and a variable the line binds itself.
	for _, line := range []string{
		`cat "$CARGO_HOME/config.toml"`, `ls $CARGO_HOME/bin`, `cat "$TMPDIR/x"`, `ls $GOPATH`, `cat "$GOPATH/src/x/main.go"`,
		`ls "$GNUPGHOME"`, `ls -la $GNUPGHOME/private-keys-v1.d`, `cat "$XDG_CONFIG_HOME/git/config"`, `cat "$HF_HOME/models/x.json"`,
		`ssh-add -L`,
	} {
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("%q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}

// The locations the environment of the bash line moves credentials to
// are secret by their own names too: with GNUPGHOME and XDG_CONFIG_HOME
// set elsewhere, a line that spells out the path reads the key
// (gatecred67). The environment is GateOptions.BashEnv's, or the gate
// process's when it is not set.
func TestBashSecretReadsEnvValuesGatecred67(t *testing.T) {
	home, wd := secretHome(t)
	elsewhere := t.TempDir()
	gpg, cfg, kube := filepath.Join(elsewhere, "gpg"), filepath.Join(elsewhere, "cfg"), filepath.Join(elsewhere, "kube.yaml")
	writeSecretFiles(t, "x\n", filepath.Join(gpg, "private-keys-v1.d/k.key"), filepath.Join(cfg, "gh/hosts.yml"),
		filepath.Join(cfg, "git/config"), kube)
	env := []string{"GNUPGHOME=" + gpg, "XDG_CONFIG_HOME=" + cfg, "KUBECONFIG=/nonexistent/a:" + kube, "CARGO_HOME=relative"}
	withEnv := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home,
		BashEnv: func() []string { return env }})
	t.Setenv("GNUPGHOME", gpg)
	own := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home})
	decide := func(g *permission.Gate, line string) permission.Verdict {
		t.Helper()
		v, err := g.Decide(t.Context(), secretCall(line))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, line := range []string{"cat " + gpg + "/private-keys-v1.d/k.key", "grep -r . " + gpg, "cat " + cfg + "/gh/hosts.yml", "cat " + kube} {
		if v := decide(withEnv, line); v.Decision != permission.Ask || v.RuleID != permission.RuleBashSecretRead {
			t.Errorf("BashEnv: %q: %v %s (%s), want an ask of %s", line, v.Decision, v.RuleID, v.Reason, permission.RuleBashSecretRead)
		}
	}
	if line := "cat " + gpg + "/private-keys-v1.d/k.key"; decide(own, line).Decision != permission.Ask {
		t.Errorf("gate's own environment: %q allowed, want an ask", line)
	}
	for _, line := range []string{"cat " + cfg + "/git/config", "ls " + gpg} {
		if v := decide(withEnv, line); v.Decision != permission.Allow {
			t.Errorf("BashEnv: %q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	// A value that holds the workdir or the home is no store of its own.
	wide := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home,
		BashEnv: func() []string { return []string{"GNUPGHOME=/", "DOCKER_CONFIG=" + wd, "PASSWORD_STORE_DIR=" + home} }})
	for _, line := range []string{"cat README.md", "cat ../notes.txt", "cat /etc/hosts"} {
		if v := decide(wide, line); v.Decision != permission.Allow {
			t.Errorf("GNUPGHOME=/: %q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	// Without the variables (BashEnv without them), the paths are
	// ordinary files.
	bare := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home,
		BashEnv: func() []string { return []string{"PATH=/usr/bin:/bin"} }})
	if line := "cat " + gpg + "/private-keys-v1.d/k.key"; decide(bare, line).Decision != permission.Allow {
		t.Errorf("no GNUPGHOME: %q asked, want it allowed", line)
	}
}

// A variable whose value is a URL with a password in it holds a
// credential whatever its name says (HTTPS_PROXY=http://u:pw@proxy, a
// PIP_INDEX_URL with a token): a line that prints it asks, as one printing
// GITHUB_TOKEN does, and the sandbox keeps it from commands (review of
// round 127). The same variables without a password, and variables the
// line does not print, stay allowed.
func TestBashPrintsCredentialValues(t *testing.T) {
	home, wd := secretHome(t)
	env := []string{"HTTPS_PROXY=http://u:pw@proxy.invalid:3128", "PIP_INDEX_URL=https://__token__:tok@pypi.invalid/simple",
		"http_proxy=http://proxy.invalid:3128", "PIP_EXTRA_INDEX_URL=https://pypi.invalid/simple", "PATH=/usr/bin:/bin"}
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home,
		BashEnv: func() []string { return env }})
	for _, c := range []struct {
		line string
		want permission.Decision
	}{
		{`echo $HTTPS_PROXY`, permission.Ask},
		{`echo "x=${PIP_INDEX_URL}"`, permission.Ask},
		{`printenv HTTPS_PROXY`, permission.Ask},
		{`echo $http_proxy`, permission.Allow},
		{`echo "$PIP_EXTRA_INDEX_URL"`, permission.Allow},
		{`curl -s https://example.invalid/ -o /dev/null`, permission.Allow},
	} {
		v, err := g.Decide(t.Context(), secretCall(c.line))
		if err != nil {
			t.Fatal(err)
		}
		if v.Decision != c.want || c.want == permission.Ask && v.RuleID != permission.RuleBashSecretRead {
			t.Errorf("%q: %v %s (%s), want %v", c.line, v.Decision, v.RuleID, v.Reason, c.want)
		}
	}
}
