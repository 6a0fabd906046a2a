//go:build linux

package permission_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryRound90 are the lines of gatesec68 (on round 84's fixture: the
// key in ~/.ssh/id_ed25519 and ~/.aws/credentials, sub/s a link to
// ~/.ssh, the project beside the home) that read the key when run in real
// bash and that a policy allowing bash allowed.
var canaryRound90 = map[string][]string{
	// A recursive reader walks what a substitution, a variable holding
	// one or xargs's input makes when the line runs: data the line makes,
	// which the gate allowed as it allows cat $(git ls-files), may be the
	// home or a link leading there.
	"1-run-time-tree": {
		`grep -r PRIVATE $(echo ../home)`,
		`grep -rh PRIVATE $(printf '../%s' home)`,
		`grep -r PRIVATE $(find . -name s)`,
		`d=$(echo ../home); grep -r PRIVATE "$d"`,
		`grep --recursive PRIVATE $(echo ../home/.aws)`,
		`echo ../home | xargs grep -r PRIVATE`,
	},
	// grep's -d recurse is -r under another name.
	"4-grep-directories-recurse": {
		`grep -d recurse PRIVATE ../home`,
		`grep --directories=recurse PRIVATE ../home`,
		`grep --dir recurse PRIVATE ../home`,
		`grep -drecurse PRIVATE ../home/.aws`,
		`grep -id recurse private ../home`,
		`grep -d recurse PRIVATE $(echo ../home)`,
	},
	// ugrep -S (3.x's --dereference) follows links with -r, and a
	// configuration file ugrep reads when told (--config: ./.ugrep)
	// may hold dereference-recursive; ug reads it without being told.
	"2-ugrep-follows": {
		`ugrep -rS PRIVATE sub`,
		`ugrep -r -S PRIVATE sub`,
		`ugrep -Sr PRIVATE .`,
		`printf 'dereference-recursive\n' > .ugrep; ugrep --config PRIVATE sub`,
		`printf 'dereference-recursive\n' > .ugrep; ug PRIVATE sub`,
		`printf 'dereference-recursive\n' > .ugrep; ug PRIVATE`,
	},
	// ack reads the .ackrc of its directory (and ~/.ackrc, $ACKRC,
	// --ackrc's file) before its words: --follow there follows links.
	"3-ack-options-file": {
		`echo --follow > .ackrc; ack PRIVATE sub`,
		`echo --follow > r; ack --ackrc=r PRIVATE sub`,
		`echo --follow > .ackrc; ack PRIVATE`,
		`echo --follow > .ackrc; cd sub && ack PRIVATE`,
	},
}

// canaryRound90Ordinary stay allowed: readers of data the line makes
// that do not walk trees, recursive readers of known paths, a variable
// that names a credential location printed (not read), and ack told to
// leave links alone.
var canaryRound90Ordinary = []string{
	`cat $(echo README)`, `grep -r x doc`,
	`echo $GNUPGHOME`, `echo "$GNUPGHOME" "$KUBECONFIG"`,
	`ugrep -r PRIVATE sub`, `ugrep -r x doc`, `ug x doc`, `ack x doc`, `ack --nofollow PRIVATE sub`,
	`echo --follow > .ackrc; ack --nofollow PRIVATE sub`, `grep -d skip PRIVATE ../home`, `grep -d recurse x doc`,
}

// TestCanaryRound90 checks round 90's lines on round 84's fixture.
func TestCanaryRound90(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "ugrep", "ack")
	checkSecretRound(t, canaryRound90, canaryRound90Ordinary, false)
}

// TestRound90VariableOfLocationRead checks that a read beneath a
// variable that names a credential location still asks, now that
// printing the variable does not: the read, or the names echo hands to
// a reader.
func TestRound90VariableOfLocationRead(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		`cat $GNUPGHOME/private-keys-v1.d/k.key`, `echo $GNUPGHOME/private-keys-v1.d/k | xargs cat`,
		`cat $(echo $GNUPGHOME)/private-keys-v1.d/k.key`, `echo $GNUPGHOME > f; xargs cat < f`,
		`echo "$(cat $GNUPGHOME/private-keys-v1.d/k.key)"`, `echo "$(<~/.ssh/id_ed25519)"`,
	} {
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}

// round90Kubeconfig is a kubeconfig whose user's token is round 84's key.
const round90Kubeconfig = `apiVersion: v1
kind: Config
clusters:
- cluster: {server: "https://127.0.0.1:1"}
  name: c
users:
- name: u
  user: {token: ` + round84Key + `}
contexts:
- context: {cluster: c, user: u}
  name: x
current-context: x
`

// TestCanaryRound90HomePrinters checks programs that print a credential
// they keep in the home: kubectl config view --flatten printed the
// kubeconfig's token, and curl -n and wget sent the login ~/.netrc keeps
// for the host, which curl -v and wget -d printed (the Authorization
// header), in real bash; each
// asks under the secret-read rule, and their neighbours stay allowed.
func TestCanaryRound90HomePrinters(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "curl", "wget", "base64", "kubectl")
	// The server asks for a login, as wget waits for one to send it.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	defer srv.Close()
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, "machine 127.0.0.1 login u password "+round84Key+"\n", filepath.Join(home, ".netrc"))
	writeSecretFiles(t, round90Kubeconfig, filepath.Join(home, ".kube", "config"))
	writeSecretFiles(t, "readme\n", filepath.Join(wd, "README"))
	run := func(line string) string {
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "/bin/bash", "-c", line)
		cmd.Dir, cmd.Env = wd, canaryEnv(home)
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		`curl -sv -n ` + srv.URL + ` 2>&1 | grep -o 'Basic [^[:space:]]*' | cut -c7- | base64 -d`,
		`curl -sv --netrc-optional ` + srv.URL + ` 2>&1 | grep -o 'Basic [^[:space:]]*' | cut -c7- | base64 -d`,
		`wget -d -O /dev/null ` + srv.URL + ` 2>&1 | grep -o 'Authorization: Basic [^[:space:]]*' | head -1 | cut -d' ' -f3 | base64 -d`,
		`wget -qd -O /dev/null ` + srv.URL + ` 2>&1 | grep -o 'Authorization: Basic [^[:space:]]*' | head -1 | cut -d' ' -f3 | base64 -d`,
		`kubectl config view --flatten`, `kubectl config view --minify --flatten`,
	} {
		if out := run(line); !strings.Contains(out, round84Key) {
			t.Errorf("%q did not print the key when run: %q", line, out)
		}
		if v := decide(line); v.Decision != permission.Ask || v.RuleID != permission.RuleBashSecretRead {
			t.Errorf("%q: %v %s (%s), want an ask of %s", line, v.Decision, v.RuleID, v.Reason, permission.RuleBashSecretRead)
		}
	}
	for _, line := range []string{`curl -s ` + srv.URL, `wget -O - ` + srv.URL + ` 2>&1`, `wget -d --no-netrc -O /dev/null ` + srv.URL + ` 2>&1`,
		`kubectl config view`, `kubectl config view --minify`} {
		if out := run(line); strings.Contains(out, round84Key) {
			t.Errorf("ordinary line %q printed the key", line)
		}
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("ordinary line %q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}
