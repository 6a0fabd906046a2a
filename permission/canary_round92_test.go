//go:build linux

package permission_test

import (
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// A glob a command string reads after its cd: the string's paths are taken
// from where its cd went (scopeCwds, round 88), but its glob words were
// looked for from the line's directories only. Real bash under bwrap
// (hyperfine 1.15, its sh dash) printed the home's ~/.ssh/id_ed25519 for
// each line below, and "allow bash" allowed each before (round 92).
func TestRound92StringGlobAfterCd(t *testing.T) {
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, "PRIVATE\n", filepath.Join(home, ".ssh", "id_ed25519"))
	writeSecretFiles(t, "x\n", filepath.Join(wd, "README"), filepath.Join(wd, "sub", ".keep"))
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		`hyperfine --show-output -r1 'cd ~; cat .s*/id_ed25519'`,
		`hyperfine --show-output -r1 'cd ..; cat h*/.ssh/id*'`,
		`hyperfine --show-output -r1 'cd ..; cat home/.ss?/id_ed25519'`,
		`hyperfine --show-output -r1 'cd ..; grep -r PRIVATE h*'`,
		`hyperfine --show-output -r1 'cd ..; wc -c */.ssh/*'`,
		`hyperfine --show-output -r1 'cd sub; cat ../../*/.ssh/id_ed25519'`,
	} {
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	// Globs that stay in the project, after a cd or not, stay allowed.
	for _, line := range []string{
		`hyperfine -r1 'cd sub; ls *'`,
		`hyperfine -r1 'cd sub && cd .. && wc -l R*'`,
		`hyperfine -r1 'wc -l *'`,
		`hyperfine -r1 'cd sub; cat ../R*'`,
	} {
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("ordinary line %q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}

// grep -r given a pattern and no path reads the tree of the directory it
// runs in: real bash under bwrap printed ~/.ssh/id_ed25519 for cd ../home
// && grep -r PRIVATE, on the line and in a string hyperfine runs, and
// "allow bash" allowed each (the line's cd was followed, but no path was
// read where it went) (round 92).
func TestRound92RecursiveGrepOfCwd(t *testing.T) {
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, "PRIVATE\n", filepath.Join(home, ".ssh", "id_ed25519"))
	writeSecretFiles(t, "x\n", filepath.Join(wd, "README"), filepath.Join(wd, "sub", ".keep"))
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		`cd ../home && grep -r PRIVATE`,
		`cd ../home; grep -R PRIVATE`,
		`cd ../home; grep -d recurse PRIVATE`,
		`cd ../home; grep --recursive PRIVATE`,
		`hyperfine --show-output -r1 'cd ../home && grep -r PRIVATE'`,
		`hyperfine --show-output -r1 'cd; grep -rh PRIVATE'`,
		`hyperfine --show-output -r1 'cd ../home && grep -d recurse PRIVATE'`,
	} {
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	for _, line := range []string{
		`grep -r TODO`, `grep -rn foo`, `rg foo`, `cd sub && grep -r foo`, `hyperfine -r1 'grep -r foo'`,
		`grep -rl foo | xargs wc -l`, `cd ../home; grep PRIVATE`,
	} {
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("ordinary line %q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}

// A wrapper (env, timeout, nice, nohup) before a credential printer in a
// command string: real bash under bwrap (kubectl 1.x, a ~/.kube/config
// with a token) printed the token for each line, and "allow bash"
// allowed each: the string's wrapper was analyzed as a guessed command,
// whose accesses, the printer's read of its credential file among them,
// were dropped (round 92).
func TestRound92WrappedCredentialPrinterInString(t *testing.T) {
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, "token: x\n", filepath.Join(home, ".kube", "config"), filepath.Join(home, ".config", "gh", "hosts.yml"))
	writeSecretFiles(t, "x\n", filepath.Join(wd, "README"))
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		`hyperfine --show-output -r1 'env kubectl config view --raw'`,
		`hyperfine --show-output -r1 'timeout 5 kubectl config view --raw'`,
		`hyperfine --show-output -r1 'nice kubectl config view --raw'`,
		`hyperfine --show-output -r1 'nohup kubectl config view --raw'`,
		`hyperfine --show-output -r1 'env gh auth token'`,
		`hyperfine --show-output -r1 'env gcloud auth print-access-token'`,
	} {
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	for _, line := range []string{
		`hyperfine -r1 'env kubectl get pods'`, `hyperfine -r1 'timeout 5 gh pr list'`, `hyperfine -r1 'nice wc -l README'`,
		`timeout 5 kubectl get pods`,
	} {
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("ordinary line %q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}
