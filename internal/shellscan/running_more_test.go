package shellscan

import "testing"

// A second read of round 47: forms the running-system model took for
// ones that only show state, which still change it. nft runs every
// command of its words joined (list ruleset ; flush ruleset), xdotool
// every command of its chain (version key …), rc-update takes -v before
// its command, NetBSD's sysctl -r is raw output and takes no pattern,
// zpool events -c clears the event log, fkill and kill-port kill by
// name or port as pkill and fuser -k do, modprobe -D and -R do not make
// -r a dry run, pg_ctl's operation is not the value of -D, OpenBSD's
// route exec runs a command, and hyprctl --batch anywhere runs its own.
func TestRunningChangesStateBesideShowing(t *testing.T) {
	for _, line := range []string{
		`nft list ruleset \; flush ruleset`, "nft list ruleset ';' add rule inet f c drop",
		"nft list ruleset $'\\n' flush ruleset", "nft list ruleset -f x.nft", "nft describe x -i",
		"xdotool version key ctrl+alt+Delete", "xdotool help key super", "xdotool --version windowkill",
		"rc-update -v del sshd default", "rc-update --verbose add x default", "rc-update -u", "rc-update show -u",
		"sysctl -r kern.hostname=x", "sysctl -ar kern.x=1", "sysctl --pattern x=1 -a",
		"zpool events -c", "zpool events -vc", "zpool events -v -c",
		"fkill node", "kill-port 3000", "killport 3000", "npx kill-port 3000",
		"modprobe -R x -r", "modprobe -D -r x", "modprobe --resolve-alias x --remove", "modprobe -D -rv x",
		"pg_ctl -D status stop", "pg_ctl -l status -D d start", "pg_ctl -o status -D d restart", "pg_ctl status stop",
		"pg_ctl --pgdata status kill TERM 1", "pg_ctlcluster 16 status stop", "pg_ctlcluster 16 main stop -o status",
		"pg_ctlcluster -m status 16 main stop", "route exec rm -rf /home/u", "route -T 1 exec make",
		"route nameserver em0 1.1.1.1", "route sourceaddr 1.2.3.4", "hyprctl monitors --batch 'dispatch exit'",
		"hyprctl clients --batch keyword x y",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"nft list ruleset", "nft list table inet filter", "nft describe tcp dport", "nft monitor", "nft -v",
		"nft --help", "xdotool version", "xdotool help", "xdotool --version", "rc-update", "rc-update show",
		"rc-update -v", "rc-update -v show", "rc-update --verbose show default", "rc-update show -v", "sysctl -r net -a",
		"sysctl -ar net", "sysctl --pattern net -a", "zpool events", "zpool events -v", "zpool status -x",
		"modprobe -D x", "modprobe -R x", "modprobe -n -r x", "modprobe -c", "modprobe -r -c",
		"pg_ctl status", "pg_ctl -D .pgdata status", "pg_ctl status -D d", "pg_ctl --version", "pg_ctl -V",
		"pg_ctlcluster 16 main status", "pg_ctlcluster 16/main status", "route -n", "route get default",
		"route show", "route -n monitor", "hyprctl monitors", "hyprctl clients",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// Programs round 47 did not name, of the classes it models: terminals
// typed into from outside (kitty @ send-text, as tmux send-keys), DNS,
// boot loader, home areas, devices, power, CPU and GPU settings, mounts,
// system extensions and the console.
func TestRunningMorePrograms(t *testing.T) {
	for _, line := range []string{
		"kitty @ send-text 'rm -rf ~\\n'", "kitten @ send-text x", "kitty +kitten @ launch sh", "kitty @ --to unix:/x ls",
		"kitty @", "wezterm cli send-text x", "wezterm cli spawn -- sh", "wezterm cli kill-pane",
		"systemd-resolve --flush-caches", "systemd-resolve --set-dns=1.1.1.1 --interface=eth0", "systemd-resolve --fl",
		"bootctl install", "bootctl remove", "homectl deactivate me", "portablectl attach x", "systemd-sysext merge",
		"udevadm trigger", "udevadm control --reload", "udevadm info --cleanup-db", "udevadm info -c", "powerprofilesctl set performance", "powerprofilesctl launch sh",
		"tuned-adm profile x", "cpupower frequency-set -g powersave", "nvidia-smi -pm 1", "nvidia-smi -r",
		"nvidia-smi --gpu-reset", "nvidia-smi -pl 100", "nvidia-smi -q -f /home/u/.bashrc", "systemd-mount /dev/x /mnt",
		"systemd-umount /mnt", "setterm -blank 0", "setleds +num", "kbdrate -r 30", "deallocvt",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"kitty @ ls", "kitty @ get-text", "kitty --version", "wezterm cli list", "wezterm --version",
		"systemd-resolve --status", "systemd-resolve example.com", "bootctl", "bootctl status", "homectl list",
		"portablectl list", "systemd-sysext status", "udevadm info /dev/sda", "udevadm monitor", "powerprofilesctl",
		"powerprofilesctl get", "tuned-adm active", "cpupower frequency-info", "nvidia-smi", "nvidia-smi -L",
		"nvidia-smi -q", "nvidia-smi --query-gpu=name,memory.used --format=csv", "nvidia-smi -i 0 -q -d MEMORY",
		"systemd-mount --list", "setleds",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
