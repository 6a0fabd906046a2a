//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// A glob a command string reads after its cd: the string's paths are taken
// from where its cd went (scopeCwds, round 88), but its glob words were
// looked for from the line's directories only. Real bash under bwrap
// (hyperfine 1.15, its sh dash) printed the home's ~/.ssh/id_ed25519 for
// each line below, and "allow bash" allowed each before (round 92).
func TestRound92StringGlobAfterCd(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, "token: x\n", filepath.Join(home, ".kube", "config"), filepath.Join(home, ".config", "gh", "hosts.yml"))
	writeSecretFiles(t, "x\n", filepath.Join(wd, "README"))
	decide := secretDecider(t, home, wd)
	wantDecisions(t, decide, []string{
		`hyperfine --show-output -r1 'env kubectl config view --raw'`,
		`hyperfine --show-output -r1 'timeout 5 kubectl config view --raw'`,
		`hyperfine --show-output -r1 'nice kubectl config view --raw'`,
		`hyperfine --show-output -r1 'nohup kubectl config view --raw'`,
		`hyperfine --show-output -r1 'env gh auth token'`,
		`hyperfine --show-output -r1 'env gcloud auth print-access-token'`,
	}, []string{
		`hyperfine -r1 'env kubectl get pods'`, `hyperfine -r1 'timeout 5 gh pr list'`, `hyperfine -r1 'nice wc -l README'`,
		`timeout 5 kubectl get pods`,
	})
}

// A command string given to an unmodelled program may also be a file it
// writes: gatestr68's withoutScripts left such a word out of the paths
// the program may write, and a project link whose name has a blank ("cat
// x" leading to the home, "wc g" to .git) made it one outside the
// workdir. Real bash under bwrap (hyperfine 1.15) wrote the home's
// .bashrc and .git/hooks/pre-commit with these lines, each allowed before
// (round 92); the canary fixture has no link named so, hence a fixture of
// this test's own.
// canaryRound92 are lines of the canary fixture: real bash under bwrap
// (hyperfine 1.15) wrote the home's .bashrc with each, and "allow bash"
// allowed each before (round 92).
var canaryRound92 = map[string][]string{
	// xxd IN OUT writes OUT: gatestr68's readsOnly took every operand of
	// a reader of fileCommands in a command string as a read, xxd's
	// second among them.
	"1-xxd-writes-its-second-operand-in-a-string": {
		`hyperfine -r1 'xxd README link'`,
		`hyperfine -r1 'cd ../home; xxd ../work/README .bashrc'`,
		`hyperfine -r1 'xxd -c 8 README link'`,
		`hyperfine -r1 'cd sub; xxd ../README ../link'`,
	},
}

func TestCanaryRound92(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "hyperfine", "xxd")
	template := checkCanaryRound(t, canaryRound92)
	checkOrdinary(t, template, []string{
		`hyperfine -r1 'xxd README'`, `hyperfine -r1 'xxd README out.hex'`, `xxd README out.hex`,
	}, nil)
}

func TestCanaryRound92StringWordIsAlsoAPath(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "hyperfine")
	template := canaryTemplate(t)
	for _, line := range []string{
		`hyperfine -r1 --export-json 'cat x/.bashrc' true`,
		`hyperfine -r1 --export-markdown 'cat x/.bashrc' 'cat x/.bashrc'`,
		`hyperfine -r1 --export-markdown 'wc g/hooks/pre-commit' true`,
		`hyperfine -r1 --export-csv 'wc g/config' true`,
	} {
		root := canaryFixture(t, template)
		home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
		for name, to := range map[string]string{"cat x": home, "wc g": filepath.Join(wd, ".git")} {
			if err := os.Symlink(to, filepath.Join(wd, name)); err != nil {
				t.Fatal(err)
			}
		}
		allowedBy := allowingScenarios(t, root, line)
		before := canarySnapshot(t, root)
		runBashUntil(t, root, line, 30*time.Second, func() bool { return damaged(t, root, before) })
		if p := changed(before, canarySnapshot(t, root)); p == "" {
			t.Errorf("%q did no damage when run", line)
		}
		if len(allowedBy) > 0 {
			t.Errorf("%q was allowed by %v", line, allowedBy)
		}
	}
	checkOrdinary(t, template, []string{
		`hyperfine -r1 'cd sub && cd .. && wc -l README'`,
		`hyperfine -r1 --export-json out.json 'wc -l README'`,
		`hyperfine -r1 'wc -l sub/.keep' 'cat README'`,
	}, nil)
}

// Reads a command string makes after its cd that the gate judges by the
// words of the line (an option's value, a loop's list) or from where a
// command runs: gatestr68's scopeCwds took the string's directories out of
// the line's, so these were judged from the workdir only. Real bash under
// bwrap (hyperfine 1.15) printed ~/.ssh/id_ed25519 for each line, each
// allowed before (round 92).
func TestRound92StringReadsFromItsOwnDirs(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, "PRIVATE\n", filepath.Join(home, ".ssh", "id_ed25519"))
	writeSecretFiles(t, "x\n", filepath.Join(wd, "README"), filepath.Join(wd, "sub", ".keep"))
	decide := secretDecider(t, home, wd)
	for _, line := range []string{
		`hyperfine --show-output -r1 'cd ../home; diff --from-file=.ssh/id_ed25519 /dev/null'`,
		`hyperfine --show-output -r1 'cd ../home/.ssh; for f in *; do cat "$f"; done'`,
		`hyperfine --show-output -r1 'cd ../home/.ssh; for f in id_ed25519; do cat $f; done'`,
	} {
		if v := decide(line); v.Decision != permission.Ask {
			t.Errorf("%q: %v %s (%s), want an ask", line, v.Decision, v.RuleID, v.Reason)
		}
	}
	for _, line := range []string{
		`hyperfine -r1 'cd sub && cd .. && wc -l README'`, `hyperfine -r1 'cd sub; ls' && touch x`,
		`hyperfine -r1 'cd sub; true' && touch x`, `hyperfine -r1 'cd sub; wc -l .keep'`,
		`hyperfine -r1 'cd sub; for f in *; do wc -l "$f"; done'`,
	} {
		if v := decide(line); v.Decision != permission.Allow {
			t.Errorf("ordinary line %q: %v %s (%s), want it allowed", line, v.Decision, v.RuleID, v.Reason)
		}
	}
}

// curl takes an unambiguous abbreviation of a long option: --netrc-o,
// --netrc-opt and --netrc-optiona are --netrc-optional. Real curl 7.88
// under bwrap, given a home's .netrc for 127.0.0.1 and -v, printed the
// Authorization header (u:SECRETPW) to a local server for each, and the
// gate allowed each, knowing only the whole option (round 92).
func TestRound92CurlNetrcAbbreviated(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, "machine 127.0.0.1 login u password SECRETPW\n", filepath.Join(home, ".netrc"))
	writeSecretFiles(t, "x\n", filepath.Join(wd, "README"))
	decide := secretDecider(t, home, wd)
	wantDecisions(t, decide, []string{
		`curl --netrc-o -v http://127.0.0.1:18992/`,
		`curl --netrc-opt -v http://127.0.0.1:18992/`,
		`curl --netrc-optiona -v http://127.0.0.1:18992/`,
		`hyperfine --show-output -r1 'curl --netrc-opt -v http://127.0.0.1:18992/'`,
	}, []string{`curl -v http://127.0.0.1:18992/`, `curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:18992/`})
}

// A recursive read after a cd the analysis cannot follow: cd -P link2/..
// (link2 leads to the home's .config) went to the home, and real bash
// under bwrap printed ~/.ssh/id_ed25519 for each line; the gate allowed
// each, the tail "." naming no credential (round 92; before gatesec68
// and gatestr68 too).
func TestRound92TreeReadInUnknownDir(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, "PRIVATE\n", filepath.Join(home, ".ssh", "id_ed25519"))
	writeSecretFiles(t, "x\n", filepath.Join(home, ".config", "x"), filepath.Join(wd, "README"), filepath.Join(wd, "sub", ".keep"))
	if err := os.Symlink(filepath.Join(home, ".config"), filepath.Join(wd, "link2")); err != nil {
		t.Fatal(err)
	}
	decide := secretDecider(t, home, wd)
	wantDecisions(t, decide, []string{
		`cd -P link2/..; grep -r PRIVATE`,
		`cd -P link2/..; grep -r PRIVATE .`,
		`cd -P link2/..; grep -R PRIVATE ./`,
		`cd -; grep -r PRIVATE .`,
	}, []string{`cd sub; grep -r x .`, `cd -P sub; grep -r x`, `grep -r x .`, `cd -; ls`})
}
