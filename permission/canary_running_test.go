//go:build linux

package permission_test

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRunningProcs are lines that signal or reprioritize a process the
// line did not start, with no path outside the workdir on the line: each
// was allowed by the "allow bash" scenario at stop 46. They run in real
// bash against a victim the test started (a copy of sleep under a unique
// name, holding the file held of the workdir open), standing for the
// user's editor or lite-agent itself; PID and NAME are its process id and
// name. (kill -9 -1 and kill 0, which would hit every process of the
// user, are only decided, in internal/shellscan's table.)
var canaryRunningProcs = []string{
	`kill -9 PID`,
	`kill -STOP PID`,
	`kill -0 -s 9 PID`,
	`kill -s 0 -s KILL PID`,
	`timeout 5 kill PID`,
	`pkill -f NAME`,
	`killall NAME`,
	`skill -KILL -c NAME`,
	`fuser -k held`,
	`renice -n 19 -p PID`,
	`logsave /dev/null pkill -f NAME`,
}

// canaryRunningState are lines that stop services and schedules, change
// kernel, clock, network and system settings, or type into or set the
// clipboard of the user's desktop, each allowed by "allow bash" at stop
// 46. They run in real bash with the fake home as HOME and, first on
// PATH, fakes of the programs (the real ones would change this machine)
// that record their words in HOME, as the real ones change state outside
// the workdir.
var canaryRunningState = map[string][]string{
	"1-services": {
		`loginctl terminate-user me`,
		`loginctl kill-session 1`,
		`atrm 1`,
		`journalctl --vacuum-time=1s`,
		`journalctl --rotate`,
	},
	"2-system": {
		`sysctl -w vm.swappiness=10`,
		`sysctl vm.swappiness=10`,
		`sysctl -p`,
		`date -s 2020-01-01`,
		`date 010100002020`,
		`hwclock -w`,
		`hostnamectl set-hostname x`,
		`timedatectl set-time 2020-01-01`,
		`ip route del default`,
		`iptables -F`,
		`nft flush ruleset`,
		`modprobe -r x`,
		`swapoff -a`,
		`mount -a`,
		`ldconfig`,
		`dmesg -C`,
		`nmcli radio wifi off`,
		`shutdown -h now`,
		`reboot`,
		`log erase --all`,
		`xcodebuild -runFirstLaunch`,
	},
	"3-desktop": {
		`xdotool key ctrl+q`,
		`echo x | xclip -i`,
		`echo x | xsel -b`,
		`echo x | pbcopy`,
		`echo x | wl-copy`,
		`wall hello`,
		`write root`,
		`gsettings set org.gnome.desktop.interface gtk-theme x`,
		`xdg-settings set default-web-browser x.desktop`,
		`xdg-mime default x.desktop text/plain`,
		`setxkbmap dvorak`,
		`pactl set-sink-mute 0 1`,
	},
	// The host's name, accounts, VPNs, disks, a window manager's
	// commands, and a program of Windows that WSL's PATH finds.
	"4-more": {
		`hostname evil`,
		`usermod -aG docker me`,
		`tailscale down`,
		`wg-quick down wg0`,
		`zfs destroy pool/ds`,
		`swaymsg exit`,
		`powershell.exe -c Stop-Process -Name code`,
	},
	// Servers and service managers (ipcrm -a, which removes the shared
	// memory a running PostgreSQL uses, is only decided).
	"5-servers": {
		`pg_ctl stop`,
		`pg_ctlcluster 16 main stop`,
		`redis-cli flushall`,
		`pm2 kill`,
		`supervisorctl stop all`,
		`nginx -s stop`,
		`rc-service nginx stop`,
	},
	// Through a wrapper, and among the words of a command the analysis
	// does not model.
	"6-wrappers": {
		`nice sysctl -w vm.swappiness=10`,
		`timeout 5 hwclock -w`,
		`logsave /dev/null sysctl -w vm.swappiness=10`,
		`logsave /dev/null xdotool key ctrl+q`,
	},
}

// canaryRunningOrdinary are lines beside the attacks that "allow bash"
// must still allow: they only show state, or signal a job the line
// itself started.
var canaryRunningOrdinary = []string{
	"kill %1", "sleep 1 & kill $!", `sleep 1 & kill -TERM "$!"; wait`, "kill -0 1", "kill -l", "pgrep -f x",
	"systemctl status x", "systemctl --user is-active x", "sysctl -a", "sysctl vm.swappiness", "crontab -l",
	"journalctl -u x --no-pager", "date +%s", "date -d yesterday", "ip addr", "iptables -L", "xclip -o",
	"xsel -o", "pbpaste", "gsettings get a b", "loginctl list-sessions", "timeout -s KILL 5 sleep 1", "hostname -f",
	"tailscale status", "zfs list", "pg_ctl status", "redis-cli ping", "nginx -t",
}

// fakeRunningTools are the programs canaryRunningState runs from a fake.
var fakeRunningTools = []string{"loginctl", "atrm", "journalctl", "sysctl", "date", "hwclock", "hostnamectl",
	"timedatectl", "ip", "iptables", "nft", "modprobe", "swapoff", "mount", "ldconfig", "dmesg", "nmcli", "shutdown",
	"reboot", "log", "xcodebuild", "xdotool", "xclip", "xsel", "pbcopy", "wl-copy", "wall", "write", "gsettings",
	"xdg-settings", "xdg-mime", "setxkbmap", "pactl", "hostname", "usermod", "tailscale", "wg-quick", "zfs", "swaymsg",
	"powershell.exe", "pg_ctl", "pg_ctlcluster", "redis-cli", "pm2", "supervisorctl", "nginx", "rc-service"}

func TestCanaryRunningState(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	bin := fakeHomeBin(t, fakeRunningTools...)
	for class, lines := range canaryRunningState {
		for _, line := range lines {
			root := canaryFixture(t, template)
			refusedEverywhere(t, root, line)
			before := canarySnapshot(t, root)
			out := runLine(t, root, line, time.Minute, bin+":/usr/sbin:/sbin")
			if p := changed(before, canarySnapshot(t, root)); !strings.HasPrefix(p, filepath.Join(root, "home")+string(filepath.Separator)) {
				t.Errorf("class %s: %q changed nothing in the home when run (%q):\n%s", class, line, p, out)
			}
		}
	}
	checkOrdinary(t, template, canaryRunningOrdinary, nil)
}

func TestCanaryRunningProcesses(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "sleep", "pkill", "killall", "skill", "fuser", "renice")
	template := canaryTemplate(t)
	for _, line := range canaryRunningProcs {
		root := canaryFixture(t, template)
		v := startVictim(t, filepath.Join(root, "work", "held"))
		line := strings.NewReplacer("PID", strconv.Itoa(v.cmd.Process.Pid), "NAME", v.name).Replace(line)
		refusedEverywhere(t, root, line)
		out := runLine(t, root, line, time.Minute, "/usr/sbin:/sbin")
		if !v.harmed(t) {
			t.Errorf("%q left the victim alone when run:\n%s", line, out)
		}
	}
}

// A victim is a process the test started, as the user's editor is one
// the agent did not start.
type victim struct {
	cmd  *exec.Cmd
	name string
	nice string
	done chan struct{}
}

// startVictim starts a copy of sleep under a unique name, with the file
// held (created) open as its standard input, and kills it when the test
// ends.
func startVictim(t *testing.T, held string) *victim {
	t.Helper()
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	name := "rt47v" + hex.EncodeToString(b) // at most 15 bytes: the whole process name
	exe := filepath.Join(t.TempDir(), name)
	src, err := os.Open(sleep)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(exe, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	in, err := os.Create(held)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	v := &victim{cmd: exec.Command(exe, "600"), name: name, done: make(chan struct{})}
	v.cmd.Stdin = in
	if err := v.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		v.cmd.Wait()
		close(v.done)
	}()
	t.Cleanup(func() {
		v.cmd.Process.Kill()
		<-v.done
	})
	v.nice = v.niceness(t)
	return v
}

// niceness returns the victim's nice value, from /proc.
func (v *victim) niceness(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(v.cmd.Process.Pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 17 {
		t.Fatalf("short /proc stat: %q", s)
	}
	return f[16] // field 19 of stat: the nice value
}

// harmed reports whether the line signalled the victim (it ended, was
// stopped, or a signal waits to be taken) or changed its priority. It is
// asked once the line has run (see runLineUntil), so that a signal has
// been sent: it waits, with no bound of its own, until the victim is
// either seen harmed or back asleep in sleep's wait with no signal
// pending (a victim a signal woke is running until it has ended).
func (v *victim) harmed(t *testing.T) bool {
	t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	var hung <-chan time.Time // only so that a hang fails before the binary's timeout
	if dl, ok := t.Deadline(); ok {
		hung = time.After(time.Until(dl) * 9 / 10)
	}
	for {
		select {
		case <-v.done:
			return true
		case <-hung:
			t.Fatal("the victim neither ended nor settled before the test's deadline")
		case <-tick.C:
		}
		state, pending, ok := v.status()
		switch {
		case !ok || state == "Z" || state == "X":
			<-v.done // it has ended: Wait returns
			return true
		case state == "T" || state == "t" || pending:
			return true // stopped, or a signal is on its way
		case v.niceness(t) != v.nice:
			return true
		case state == "S":
			return false
		}
	}
}

// status returns the victim's state letter from /proc and whether a
// signal is pending for it (SigPnd or ShdPnd not zero); not ok once it
// has gone.
func (v *victim) status() (state string, pending, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(v.cmd.Process.Pid) + "/status")
	if err != nil {
		return "", false, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		k, val, _ := strings.Cut(l, ":")
		val = strings.TrimSpace(val)
		switch k {
		case "State":
			state, _, _ = strings.Cut(val, " ")
		case "SigPnd", "ShdPnd":
			if strings.Trim(val, "0") != "" {
				pending = true
			}
		}
	}
	return state, pending, state != ""
}
