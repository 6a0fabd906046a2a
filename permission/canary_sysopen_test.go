//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// canarySysopen are lines that change the running system which "allow
// bash" allowed at stop 51, each run in real bash with fakes first on
// PATH that record their words in HOME, as the real programs change state
// outside the workdir. SBIN is a fake sbin directory on PATH, whose
// programs the analysis does not model (rt51admin, and rt51link, a link
// in a bin directory to it); the others are programs of the name tables
// and the control-program family.
var canarySysopen = map[string][]string{
	"1-sbin": {
		`rt51admin -D`,
		`nice rt51admin -D`,
		`timeout 5 rt51admin -k stop`,
		`SBIN/rt51admin -D`,
		`rt51link -D`,
		`bash -c 'rt51admin -D'`,
		`make -v >/dev/null && rt51admin -D`,
	},
	"2-names": {
		`criu dump -t 1`,
		`cgcreate -g cpu:x`,
		`coredumpctl debug`,
		`passwd -S -d me`,
		`apachectl -t -k stop`,
		`pm2 list`,
		`forever list`,
		`setcap cap_net_raw+ep ./x`,
		`ss -K dst 1.2.3.4`,
		`coreutils --coreutils-prog=kill -9 1`,
	},
	"3-control": {
		`etcdctl del x`,
		`wpctl set-volume 1 0`,
		`bluetoothctl power off`,
		`iscsiadm -m node --logout`,
	},
}

// canarySysopenOrdinary are lines beside them that "allow bash" must still
// allow: programs the analysis does not model outside an sbin directory
// (rt51tool), or in one that is a link to a bin directory (rt51merged, as
// on Arch and Fedora), and the forms that only show state.
var canarySysopenOrdinary = []string{
	"rt51tool x", "rt51merged x", "rt51admin --help", "criu check", "coredumpctl list", "passwd -S me",
	"apachectl -t", "etcdctl get x", "wpctl status", "ss -tlnp", "lsof -i", "make", "ps aux", "top -bn1",
	"systemctl status x", "docker ps", "go build ./...",
}

func TestCanarySysopen(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	bin := fakeHomeBin(t, "criu", "cgcreate", "coredumpctl", "passwd", "apachectl", "pm2", "forever", "setcap", "ss",
		"coreutils", "etcdctl", "wpctl", "bluetoothctl", "iscsiadm", "rt51tool")
	dir := t.TempDir()
	sbin, merged := filepath.Join(dir, "sbin"), filepath.Join(dir, "m", "bin")
	for _, d := range []string{sbin, merged} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fake, err := os.ReadFile(filepath.Join(bin, "rt51tool"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(sbin, "rt51admin"), filepath.Join(merged, "rt51merged")} {
		if err := os.WriteFile(p, fake, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(sbin, "rt51admin"), filepath.Join(bin, "rt51link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("bin", filepath.Join(dir, "m", "sbin")); err != nil {
		t.Fatal(err)
	}
	pathDir := strings.Join([]string{bin, sbin, filepath.Join(dir, "m", "sbin")}, ":")
	env := func(home string) []string {
		e := canaryEnv(home)
		for i, kv := range e {
			if p, ok := strings.CutPrefix(kv, "PATH="); ok {
				e[i] = "PATH=" + pathDir + ":" + p
			}
		}
		return e
	}
	for class, lines := range canarySysopen {
		for _, line := range lines {
			line = strings.ReplaceAll(line, "SBIN", sbin)
			root := canaryFixture(t, template)
			home := filepath.Join(root, "home")
			if out := authorize(t, canaryGateEnv(t, root, env(home)), line); out.Run {
				t.Errorf("class %s: %q was allowed", class, line)
			}
			before := canarySnapshot(t, root)
			out := runLine(t, root, line, time.Minute, pathDir)
			if p := changed(before, canarySnapshot(t, root)); !strings.HasPrefix(p, home+string(filepath.Separator)) {
				t.Errorf("class %s: %q changed nothing in the home when run (%q):\n%s", class, line, p, out)
			}
		}
	}
	root := canaryFixture(t, template)
	g := canaryGateEnv(t, root, env(filepath.Join(root, "home")))
	for _, line := range canarySysopenOrdinary {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
}
