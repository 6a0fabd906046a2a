//go:build linux

package bash_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
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
// process group and session: the call's processes are in a cgroup or a
// PID namespace of their own, killed when it ends. Where one cannot be
// made here its cases are skipped, saying why.
func TestBashContainsEscapes(t *testing.T) {
	for _, mode := range strongContainments {
		for name, c := range escapes {
			t.Run(mode.name+"/"+name, func(t *testing.T) {
				tooltest.Need(t, tooltest.CanaryTools, c.needs...)
				b, dir := containedBash(t, bash.Options{Containment: mode.c})
				escaped(t, b, dir, c.line, c.hop)
			})
		}
	}
}

// strongContainments are the containments nothing leaves.
var strongContainments = []struct {
	name string
	c    bash.Containment
}{{"cgroup", bash.ContainCgroup}, {"pidns", bash.ContainPIDNamespace}}

// containedBash returns the bash tool with opts and its workdir, skipping
// t where opts.Containment is not available here.
func containedBash(t *testing.T, opts bash.Options) (tool.Tool, string) {
	t.Helper()
	if opts.Workdir == "" {
		opts.Workdir = t.TempDir()
	}
	b, err := bash.Tool(opts)
	var ce *bash.ContainmentError
	if errors.As(err, &ce) {
		t.Skipf("not tested: %v (a cgroup needs a writable cgroup v2: root, or a cgroup systemd delegated; "+
			"a PID namespace needs util-linux's unshare and, but for root, unprivileged user namespaces)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b, opts.Workdir
}

// A contained command's output, exit code and end are what they are
// uncontained: its background jobs die with it, and one that runs too
// long is killed with them.
func TestBashContainedResults(t *testing.T) {
	for _, mode := range strongContainments {
		t.Run(mode.name, func(t *testing.T) {
			b, dir := containedBash(t, bash.Options{Containment: mode.c, Timeout: 2 * time.Second})
			for line, want := range map[string]string{
				`echo out; echo err >&2; exit 3`: "out\nerr\n[exit code 3]",
				`true`:                           "(no output)",
				`exit 4`:                         "Error: command exited with code 4",
				`sleep 30 & echo started`:        "started",
				`sleep 30`:                       "Error: command timed out after 2000ms",
			} {
				start := time.Now()
				if got := call(t, b, map[string]string{"command": line}).Content; got != want {
					t.Errorf("%s: %q, want %q", line, got, want)
				}
				if d := time.Since(start); d > 8*time.Second {
					t.Errorf("%s took %v", line, d)
				}
			}
			// The background job died with the line: nothing holds the
			// pipe, nothing writes.
			escaped(t, b, dir, `(sleep 0.5; `+waitGo+`) & echo bg`, "")
		})
	}
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

// A run_in_background command is contained on its own: what it started
// that left its session lives while it runs, whatever other calls do, and
// dies with it when it is stopped.
func TestBackgroundContainsWhatLeftTheSession(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "setsid")
	for _, mode := range strongContainments {
		t.Run(mode.name, func(t *testing.T) {
			finished := make(chan bash.Completion, 4)
			bg, err := bash.NewBackground(bash.BackgroundOptions{OnExit: func(c bash.Completion) { finished <- c }})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { bg.Close() })
			b, dir := containedBash(t, bash.Options{Containment: mode.c, Background: bg})
			kill := byName(t, bash.BackgroundTools(bg), "KillBackground")
			daemon := `setsid -f bash -c 'while :; do [ -e ping ] && { rm ping; echo > pong; }; [ -e go ] && { echo late > pwned; exit; }; sleep 0.05; done'; sleep 30`
			res := call(t, b, map[string]any{"command": daemon, "run_in_background": true})
			m := startedRE.FindStringSubmatch(res.Content)
			if m == nil {
				t.Fatalf("start: %q", res.Content)
			}
			if got := call(t, b, map[string]string{"command": "echo foreground"}).Content; got != "foreground" {
				t.Fatalf("foreground call: %q", got)
			}
			if err := os.WriteFile(filepath.Join(dir, "ping"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if _, err := os.Stat(filepath.Join(dir, "pong")); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the background command's daemon died with a foreground call")
				}
			}
			call(t, kill, map[string]any{"id": m[1]})
			select {
			case c := <-finished:
				if !c.Killed {
					t.Errorf("completion %+v", c)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the background command did not end")
			}
			escaped(t, b, dir, "true", "")
		})
	}
}

// recordingSandbox leaves a command as it is and records the program it
// was asked to wrap.
type recordingSandbox struct{ programs []string }

func (s *recordingSandbox) Wrap(cmd *exec.Cmd) error {
	s.programs = append(s.programs, cmd.Args[0])
	return nil
}

// With a sandbox, ContainPIDNamespace leaves the containing to it: the
// sandbox wraps the shell, not unshare(1).
func TestBashPIDNamespaceLeavesASandboxAlone(t *testing.T) {
	sb := &recordingSandbox{}
	b, _ := containedBash(t, bash.Options{Containment: bash.ContainPIDNamespace, Sandbox: sb})
	if got := call(t, b, map[string]string{"command": "echo $$"}).Content; got == "1" {
		t.Errorf("the shell is pid 1 of a namespace of its own")
	}
	if len(sb.programs) != 1 || filepath.Base(sb.programs[0]) == "unshare" {
		t.Errorf("the sandbox wrapped %q", sb.programs)
	}
}
