package shellscan

import (
	"slices"
	"testing"
)

// Review of stop 51: programs that change the running system which the
// name tables missed: checkpointing processes (criu), control groups,
// debugging a crashed process's dump, passwd -d beside -S, apachectl
// passing -k stop to httpd beside -t, pm2 and forever starting their
// daemon on any command, file capabilities, ss -K, GNU's and suckless's
// multi-call binaries, and the open family of control programs (names
// ending in ctl or adm).
func TestRunningFamiliesAndMisses(t *testing.T) {
	for _, line := range []string{
		"criu dump -t 1", "criu restore", "criu", "criu check -o /home/u/x", "cgcreate -g cpu:x",
		"cgset -r cpu.shares=1 x", "cgdelete cpu:x", "cgclassify -g cpu:x 1", "coredumpctl debug", "coredumpctl gdb",
		"coredumpctl dump -o x", "coredumpctl list -o x", "coredumpctl info --output=x", "coredumpctl --debugger=sh debug",
		"passwd -S -d me", "passwd -d -S me", "passwd -Sd me", "passwd -S -l me", "passwd -S -R /x me", "passwd -S a b",
		"apachectl -t -k stop", "apachectl -k graceful", "apache2ctl -S -k stop", "apachectl -f x.conf -t",
		"pm2 list", "pm2 logs", "pm2 ls", "forever list", "setcap cap_net_raw+ep ./x", "setcap -r ./x",
		"ss -K dst 1.2.3.4", "ss -tK", "ss --kill", "ss -D /home/u/x", "ss --diag=x",
		"coreutils --coreutils-prog=kill -9 -1", "coreutils --coreutils-prog=rm -rf /home/u", "uu-coreutils kill 1",
		"sbase-box kill 1", "ubase-box reboot",
		"etcdctl del x", "etcdctl put x y", "etcdctl --endpoints=h get x", "etcdctl get x --prefix", "bluetoothctl",
		"bluetoothctl power off", "wpctl set-volume @DEFAULT_AUDIO_SINK@ 0", "istioctl install",
		"mdadm --stop /dev/md0", "iscsiadm -m node --logout", "ipvsadm -C", "foo_ctl stop", "foo-adm reset",
		"ETCDCTL del x", "etcdctl get $K", "logsave /dev/null criu dump -t 1", "nice criu dump",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"criu check", "criu check --all", "criu --version", "coredumpctl", "coredumpctl list", "coredumpctl info 1",
		"coredumpctl list --no-pager", "passwd -S", "passwd -S me", "passwd --status me", "passwd -Sa", "apachectl -t",
		"apachectl configtest", "apache2ctl -S", "apachectl -t -S", "pm2 --version", "forever --help", "ss -tlnp",
		"ss -s", "ss state established", "etcdctl get x", "etcdctl version", "etcdctl --help", "bluetoothctl show",
		"wpctl status", "wpctl get-volume @DEFAULT_AUDIO_SINK@", "bluetoothctl --help",
		"istioctl version", "systemctl status x", "kubectl get pods", "kubectl apply -f k.yaml",
		"ctl stop", "adm x", "mytool ctl", "docker ps", "nerdctl ps",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// The programs of the commands the analysis does not model are handed to
// the caller (Analysis.Unmodelled), which looks them up on PATH; those it
// models, and the forms known only to show state, are not.
func TestUnmodelledPrograms(t *testing.T) {
	for line, want := range map[string][]string{
		"losetup -D":                  {"losetup"},
		"nice fstrim -a":              {"fstrim"},
		"/usr/sbin/fstrim -a; fstrim": {"/usr/sbin/fstrim", "fstrim"},
		"fstrim && fstrim":            {"fstrim"},
		"make && update-locale x":     {"update-locale"},
		"bash -c 'locale-gen'":        {"locale-gen"},
		"./tool x":                    {"./tool"},
		"fstrim --help":               nil,
		"lsof -i":                     nil,
		"arp -a":                      nil,
		"pwck -r":                     nil,
		"ls; cat x; git status; go build ./...; echo hi; ps aux; sysctl -a; ip addr": nil,
		"logsave /dev/null ls": nil,
	} {
		a := Analyze(line, Options{Home: "/home/u", Workdir: "/w"})
		if !slices.Equal(a.Unmodelled, want) {
			t.Errorf("%q: Unmodelled %q, want %q", line, a.Unmodelled, want)
		}
	}
	for _, line := range []string{"arp -d 1.2.3.4", "pwck", "visudo", "sshd", "pmset sleepnow", "scutil --set HostName x",
		"diskutil eject disk2", "nvram x=y", "softwareupdate -i -a", "spctl --master-disable"} {
		if a := Analyze(line, Options{Home: "/home/u", Workdir: "/w"}); len(a.Unmodelled) == 0 && !a.Opaque {
			t.Errorf("%q: neither opaque nor handed to the caller", line)
		}
	}
}
