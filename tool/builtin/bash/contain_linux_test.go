//go:build linux

package bash_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin/bash"
)

// waitGo is a process that waits for the file go and then writes pwned:
// it acts after the call that started it returned unless it was killed.
const waitGo = `until [ -e go ]; do sleep 0.05; done; echo late > pwned`

// The lines of escapes leave the line's process group and session in the
// ways a program can: setsid(1) in its forms, a double fork into a new
// session (python's and perl's daemonisers, start-stop-daemon) and a
// chain of processes each of which starts the next in a new process group
// or session and exits at once, so that its pid changes faster than /proc
// can be read. Each case runs once per -count.
var escapes = map[string]struct {
	line  string
	hop   string   // the content of hop.sh, when the line runs it
	needs []string // the programs the line runs
}{
	"setsid-f":        {line: `setsid -f bash -c '` + waitGo + `'; echo started`, needs: []string{"setsid"}},
	"setsid-bg":       {line: `setsid bash -c '` + waitGo + `' & sleep 0.2`, needs: []string{"setsid"}},
	"subshell-setsid": {line: `(setsid bash -c '` + waitGo + `' &); sleep 0.2`, needs: []string{"setsid"}},
	"nohup-disown":    {line: `nohup bash -c '` + waitGo + `' & disown; sleep 0.2`, needs: []string{"nohup"}},
	"python-daemon": {line: `python3 -c 'import os, time
if os.fork(): os._exit(0)
os.setsid()
if os.fork(): os._exit(0)
while not os.path.exists("go"): time.sleep(0.05)
open("pwned", "w").write("late")
'; sleep 0.2`, needs: []string{"python3"}},
	"perl-setsid": {line: `perl -MPOSIX -e 'fork and exit; POSIX::setsid(); fork and exit;
select(undef, undef, undef, 0.05) until -e "go"; open F, ">pwned"; print F "late"'; sleep 0.2`, needs: []string{"perl"}},
	"start-stop-daemon": {line: `start-stop-daemon --start --background --chdir "$PWD" --pidfile ssd.pid --make-pidfile --exec /bin/bash -- -c '` + waitGo + `'; sleep 0.2`,
		needs: []string{"start-stop-daemon"}},
	"hop-new-groups": {line: `bash hop.sh & sleep 0.5; echo leaving`,
		hop: "[ -e go ] && { echo late > pwned; exit; }\nset -m\nbash hop.sh &\n"},
	"hop-new-sessions": {line: `bash hop.sh & sleep 0.5; echo leaving`,
		hop: "[ -e go ] && { echo late > pwned; exit; }\nsetsid bash hop.sh &\n", needs: []string{"setsid"}},
}

// Nothing a line starts outlives its call, however it leaves the line's
// process group and session: the call's processes are in a cgroup of
// their own, killed when it ends. Where no cgroup can be made the test is
// skipped, saying why.
func TestBashContainsEscapes(t *testing.T) {
	for name, c := range escapes {
		t.Run(name, func(t *testing.T) {
			tooltest.Need(t, tooltest.CanaryTools, c.needs...)
			b, dir := cgroupBash(t, bash.Options{})
			escaped(t, b, dir, c.line, c.hop)
		})
	}
}

// cgroupBash returns the bash tool with opts and ContainCgroup and its
// workdir, skipping t where no cgroup can be made.
func cgroupBash(t *testing.T, opts bash.Options) (tool.Tool, string) {
	t.Helper()
	opts.Containment = bash.ContainCgroup
	if opts.Workdir == "" {
		opts.Workdir = t.TempDir()
	}
	b, err := bash.Tool(opts)
	var ce *bash.ContainmentError
	if errors.As(err, &ce) {
		t.Skipf("cgroup containment not tested: %v (it needs a writable cgroup v2: root, or a cgroup systemd delegated)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b, opts.Workdir
}

// escaped runs line through b in dir (with hop.sh holding hop, if set)
// and fails t if a process of the line acts after the call returned.
func escaped(t *testing.T, b tool.Tool, dir, line, hop string) {
	t.Helper()
	if hop != "" {
		if err := os.WriteFile(filepath.Join(dir, "hop.sh"), []byte(hop), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in, _ := json.Marshal(map[string]string{"command": line})
	r := <-goCall(context.Background(), b, string(in))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.at > 5*time.Second {
		t.Errorf("the call took %v", r.at)
	}
	time.Sleep(200 * time.Millisecond)
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Fatalf("a process of the line wrote after the call returned (output %q)", r.res.Content)
	}
}
