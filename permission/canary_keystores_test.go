//go:build linux

package permission_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryKeyStores are lines that change a store of keys, secrets, trusted
// certificates or models outside the workdir, with no path on the line:
// each was allowed by the "allow bash" scenario at stop 40. They run in
// real bash with the fake home as HOME and fakes of the programs first on
// PATH (the real ones would change this machine's trust stores), which
// record their words in HOME as the real ones change state there.
var canaryKeyStores = []string{
	`mkcert -install`,
	`mkcert localhost`,
	`trust anchor ca.pem`,
	`update-ca-certificates`,
	`pass insert -m x`,
	`pass -c x`,
	`secret-tool store --label=x a b`,
	`keyring set x y`,
	`ollama rm llama3`,
	`ollama serve`,
	`step certificate install ca.pem`,
	`step ca bootstrap --ca-url x --fingerprint y`,
	`gcloud components install x`,
	`pdm config x y`,
	`hatch config set x y`,
	`logsave /dev/null mkcert -install`,
}

// canaryKeyStoresOrdinary are their forms that only show state. (pass
// show x and secret-tool lookup a b, here at stop 40, print a password:
// since stop 51 they ask as reads of the store, and keyring get x y since
// gatesec68, see TestCredentialPrintersAsk.)
var canaryKeyStoresOrdinary = []string{
	"mkcert -CAROOT", "trust list", "pass", "keyring --list-backends",
	"ollama list", "ollama pull llama3", "ollama run llama3 hi", "step certificate inspect c.pem",
	"gcloud components list", "hatch config show", "keytool -list -v", "ssh-add -l", "ssh-add -L",
}

func TestCanaryKeyStores(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	bin := fakeHomeBin(t, "mkcert", "trust", "update-ca-certificates", "pass", "secret-tool", "keyring", "ollama",
		"step", "gcloud", "pdm", "hatch")
	for _, line := range canaryKeyStores {
		root := canaryFixture(t, template)
		refusedEverywhere(t, root, line)
		before := canarySnapshot(t, root)
		out := runLine(t, root, line, time.Minute, bin+":/usr/sbin:/sbin")
		if p := changed(before, canarySnapshot(t, root)); !strings.HasPrefix(p, filepath.Join(root, "home")+string(filepath.Separator)) {
			t.Errorf("%q changed nothing in the home when run (%q):\n%s", line, p, out)
		}
	}
	checkOrdinary(t, template, canaryKeyStoresOrdinary, nil)
}

// The real keytool writes the home's keystore (~/.keystore) when no
// -keystore is given, and the real ssh-add gives the running ssh-agent a
// key that then signs for every ssh of the user: both were allowed by
// "allow bash" at stop 40.
func TestCanaryKeyStoresForReal(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "keytool", "ssh-agent", "ssh-add", "ssh-keygen")
	template := canaryTemplate(t)

	root := canaryFixture(t, template)
	line := `keytool -genkeypair -alias x -keyalg EC -dname CN=x -storepass changeit -keypass changeit`
	refusedEverywhere(t, root, line)
	before := canarySnapshot(t, root)
	// Java takes the home from the password database, not HOME: the
	// fake home stands for it by user.home.
	out := runLine(t, root, line, 2*time.Minute, "", "JAVA_TOOL_OPTIONS=-Duser.home="+filepath.Join(root, "home"))
	if p := changed(before, canarySnapshot(t, root)); !strings.HasPrefix(p, filepath.Join(root, "home")+string(filepath.Separator)) {
		t.Errorf("%q changed nothing in the home when run (%q):\n%s", line, p, out)
	}

	root = canaryFixture(t, template)
	sock := filepath.Join(t.TempDir(), "agent.sock")
	agent := exec.Command("ssh-agent", "-D", "-a", sock)
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.Process.Kill(); agent.Wait() })
	env := "SSH_AUTH_SOCK=" + sock
	for deadline := time.Now().Add(10 * time.Second); ; {
		if out := runLine(t, root, "ssh-add -l", time.Minute, "", env); strings.Contains(string(out), "no identities") {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("ssh-agent did not start: %s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "canary", "-f", filepath.Join(root, "work", "k")).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	line = `ssh-add k`
	refusedEverywhere(t, root, line)
	runLine(t, root, line, time.Minute, "", env)
	if out := runLine(t, root, "ssh-add -l", time.Minute, "", env); !strings.Contains(string(out), "canary") {
		t.Errorf("%q gave the agent no key when run: %s", line, out)
	}
}

// make install of a project whose makefile installs by convention into
// $(PREFIX)/bin, with the prefix in the home (as ~/.local is for a user
// without root): allowed by "allow bash" at stop 40, though go install
// was not.
func TestCanaryMakeInstall(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "make")
	template := canaryTemplate(t)
	root := canaryFixture(t, template)
	mk := "PREFIX ?= $(HOME)/.local\nall:\n\techo built > tool\ninstall: all\n\tmkdir -p $(PREFIX)/bin && cp tool $(PREFIX)/bin/tool\n"
	if err := os.WriteFile(filepath.Join(root, "work", "Makefile"), []byte(mk), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"make install", "make -s install"} {
		refusedEverywhere(t, root, line)
		before := canarySnapshot(t, root)
		out := runLine(t, root, line, time.Minute, "")
		if p := changed(before, canarySnapshot(t, root)); !strings.HasPrefix(p, filepath.Join(root, "home")+string(filepath.Separator)) {
			t.Errorf("%q changed nothing in the home when run (%q):\n%s", line, p, out)
		}
		os.RemoveAll(filepath.Join(root, "home", ".local", "bin"))
	}
	checkOrdinary(t, template, []string{"make", "make all", "make -j2 test"}, nil)
}
