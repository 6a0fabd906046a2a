package shellscan

import "testing"

// Round 47: lines that change the running system, not files: they signal
// processes the line did not start, stop services and edit schedules,
// change kernel, clock, network and session settings, and type into or
// set the clipboard of the user's desktop. Each is opaque; the lines
// beside them that only show state, or signal a job the line itself
// started, are not.
func TestRunningStateIsOpaque(t *testing.T) {
	for _, line := range []string{
		// Processes.
		"kill -9 -1", "kill 0", "kill -s 0 -s 9 1", "kill -0 -s 9 1", "kill -n 0 -9 1", "kill -TERM 1234", "kill -- -1", "kill -s KILL 1", "kill -9 -1234", "kill 1 %1",
		"/bin/kill vim", "env kill 1", "nice kill -9 -1", "timeout 1 kill 0", "command kill 1",
		"pkill -f vim", "pkill lite-agent", "pkill -u me", "killall node", "killall -u me", "killall5 -9",
		"skill -9 vim", "snice +5 vim", "xkill -id 1", "fuser -k 8080/tcp", "fuser -mk x", "fuser --kill x",
		"renice -n 19 -p 1234", "renice +1 1", "sleep 9 & kill -9 -$!", "kill $$", "kill $PPID",
		"logsave /dev/null kill -9 -1", "logsave /dev/null pkill -f vim", "runner 'killall node'",
		// Services and schedules.
		"systemctl stop nginx", "systemctl --user stop pipewire", "systemctl --user enable --now x.service",
		"systemctl poweroff", "systemctl -H host status x", "systemctl status x --host=h", "systemctl --prop status stop x",
		"systemctl -p status stop x", "systemctl help x", "systemctl edit x", "crontab -r", "crontab cron.txt",
		"crontab -", "crontab -e", "crontab -l -r", "crontab -u me cron.txt", "atrm 1", "at now", "batch",
		"loginctl terminate-user me", "loginctl kill-session 1", "loginctl lock-session", "loginctl enable-linger",
		"journalctl --vacuum-time=1s", "journalctl --vacuum-size 1", "journalctl --vac=1s", "journalctl --rotate",
		"journalctl --flush", "tmux kill-server", "screen -X quit", "docker stop x", "service nginx stop",
		"systemd-run --user sleep 100", "launchctl unload x.plist",
		// Kernel, clock, network and system settings.
		"sysctl -w vm.swappiness=10", "sysctl vm.swappiness=10", "sysctl -p", "sysctl --system", "sysctl -f x.conf",
		"sysctl --load=x.conf", "sysctl -qw a=1", "hostnamectl set-hostname x", "hostnamectl hostname x",
		"timedatectl set-time 2020-01-01", "timedatectl set-ntp false", "localectl set-locale LANG=C",
		"date -s 2020-01-01", "date --set=2020-01-01", "date --se 2020-01-01", "date -us 2020-01-01",
		"date 010100002020", "date -u 0101", "hwclock -w", "hwclock --systohc", "hwclock -s",
		"update-alternatives --set editor nano", "update-alternatives --auto editor", "alternatives --config java",
		"ldconfig", "modprobe -r x", "modprobe x", "insmod x.ko", "rmmod x", "depmod -a", "kexec -e",
		"swapoff -a", "swapon -a", "mount -a", "mount -t tmpfs none x", "umount x", "fusermount -u x",
		"ip link set eth0 down", "ip addr add 1.2.3.4/24 dev eth0", "ip -b cmds", "ip -batch cmds",
		"ip netns exec x sh", "ip route flush all", "ip l s eth0 down", "ip -n x link del y",
		"ifconfig eth0 down", "ifconfig eth0 1.2.3.4", "route add default gw 1.2.3.4", "route del default",
		"iptables -F", "iptables -A INPUT -j DROP", "iptables -L -Z", "iptables -nvLZ", "iptables --flush",
		"iptables --fl", "iptables -L --modprobe=./x", "iptables -P INPUT DROP", "ip6tables -X", "iptables-restore", "nft flush ruleset",
		"nft 'flush ruleset'", "nft -f x.nft", "ufw disable", "ufw allow 22", "nmcli radio wifi off",
		"nmcli networking off", "nmcli con down x", "nmcli d disconnect eth0", "rfkill block all", "dmesg -C",
		"dmesg -c", "dmesg --clear", "dmesg -n 1", "log erase --all", "log config --mode level:off",
		"shutdown -h now", "shutdown -h", "reboot", "poweroff", "halt", "init 0", "telinit 6",
		"xcodebuild -runFirstLaunch", "xcodebuild -downloadAllPlatforms", "xcodebuild -license accept",
		"xcodebuild -license", "logsave /dev/null sysctl -w a=1", "logsave /dev/null reboot -f",
		// The desktop session.
		"xdotool key ctrl+q", "xdotool search --name x windowkill", "ydotool type x", "wtype x", "xte 'key a'",
		"setxkbmap dvorak", "xmodmap -e 'keycode 38 = b'", "xmodmap x.map", "xset s off", "xinput disable 10",
		"xrandr --output HDMI-1 --off", "gsettings set a b c", "gsettings reset-recursively a",
		"gsettings --schemadir d set a b c", "xdg-settings set default-web-browser x.desktop",
		"xdg-mime default x.desktop text/plain", "echo x | xclip -i", "echo x | xclip -selection clipboard",
		"echo x | xclip", "xclip -o -i", "echo x | xsel -b", "xsel -b -i < README", "xsel -bi", "xsel -c",
		"echo x | pbcopy", "echo x | wl-copy", "wl-copy x", "wl-copy --clear", "wl-paste --watch rm x",
		"wl-paste -w x", "wl-paste --wat x", "wall hello", "echo hi | wall", "write root", "echo hi | write root pts/0",
		"xdg-screensaver lock", "gnome-session-quit --force", "wmctrl -c x", "wmctrl -k on", "pactl set-sink-mute 0 1",
		"pactl unload-module 1", "amixer set Master mute", "amixer -s", "brightnessctl set 0", "qdbus org.x /x y",
		"xscreensaver-command -exit",
		// More of each class: accounts and the console, the hostname,
		// VPNs and network tools, disks, firmware, window managers
		// (whose commands run programs), and the programs of Windows
		// that WSL's PATH finds.
		"hostname evil", "hostname -F x", "hostname -b x", "passwd -d me", "passwd", "chsh -s /bin/sh", "usermod -aG x me",
		"chfn -f x", "eject", "chvt 2", "loadkeys dvorak", "tailscale down", "tailscale logout", "wg-quick down wg0",
		"wg set wg0 peer x remove", "zellij kill-all-sessions -y", "zellij run -- sh", "byobu kill-server",
		"kwriteconfig5 --file kdeglobals --key x y", "xfconf-query -c x -p /y -s 1", "xfconf-query -c x -p /y -rR",
		"xdg-desktop-menu install x.desktop", "xdg-user-dirs-update", "ntpdate pool.ntp.org", "chronyc makestep",
		"chronyc", "resolvectl dns eth0 1.1.1.1", "networkctl down eth0", "zfs destroy pool/ds", "zpool import x",
		"lvremove -f vg/lv", "cryptsetup close x", "udisksctl power-off -b x",
		"tc qdisc add dev eth0 root netem delay 100ms", "ethtool -s eth0 speed 10", "ethtool -p eth0",
		"iw dev wlan0 disconnect", "rtcwake -m mem -s 60", "pm-suspend", "xbacklight -set 0", "light -S 0",
		"ddcutil setvcp 10 0", "kscreen-doctor output.1.disable", "swaymsg exit", "swaymsg exec foot",
		"i3-msg 'exec xterm'", "i3-msg -t command exit", "hyprctl dispatch exit", "bspc quit",
		"awesome-client 'awesome.quit()'", "gnome-extensions disable x", "fwupdmgr update", "needrestart -r a",
		"apt-mark hold x", "powershell.exe -c 'Remove-Item x'", "cmd.exe /c del x", "wsl.exe --shutdown",
		"taskkill.exe /F /IM code.exe", "/mnt/c/Windows/System32/cmd.exe /c del x", "../x.exe",
		"/mnt/c/Windows/System32/WindowsPowerShell/v1.0/powershell.exe -c Stop-Process -Name code", "schtasks.exe /Create /TN x /TR y", "reg.exe add HKCU\\x",
		"logsave /dev/null zfs destroy pool/ds", "logsave /dev/null date -s 2020-01-01",
		"ipcrm -a", "ipcrm -m 1", "pg_ctl stop", "pg_ctl -D d stop", "pg_ctlcluster 16 main stop", "mysqladmin shutdown",
		"mysqladmin status shutdown", "mysqladmin -u root shutdown", "redis-cli flushall", "redis-cli -r 5 flushall",
		"redis-cli shutdown", "mongosh --eval 'db.dropDatabase()'", "nginx", "nginx -s stop", "nginx -q",
		"apachectl stop", "apache2ctl graceful", "supervisorctl stop all", "supervisorctl", "pm2 kill", "pm2 delete all",
		"pm2 startup", "forever stopall", "rabbitmqctl stop_app", "rc-service nginx stop", "rc-update del x",
		"sv down x", "update-rc.d x disable", "chkconfig x off", "initctl stop x", "logsave /dev/null nginx -s stop",
		"logsave /dev/null log erase --all", "logsave /dev/null ip link set eth0 down", "logsave /dev/null route add x",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"kill %1", "kill -9 %1", "kill -s TERM %+", "kill %%", "kill -l", "kill -l 9", "kill -L", "kill -0 1234",
		"kill -s 0 1", "kill", "sleep 1 & kill $!", `sleep 1 & kill "$!"`, "sleep 1 & kill -9 ${!}",
		"sleep 1 & kill -TERM $! && wait", "pgrep vim", "pgrep -f x", "pidof vim", "ps aux", "fuser x",
		"fuser -v 8080/tcp", "timeout 5 sleep 1", "timeout -s KILL 5 sleep 1", "pkill --version",
		"helm install kill ./chart", "make write", "logsave log date +%s", "mytool ip 1.2.3.4", "mytool route x", "git log",
		"systemctl status x", "systemctl --user status x", "systemctl is-active x", "systemctl list-units",
		"systemctl --no-pager -l status x", "systemctl show -p ActiveState x", "systemctl show --property=Id x",
		"systemctl -n5 status x", "systemctl", "systemctl cat x", "systemctl --version", "crontab -l",
		"crontab -l -u me", "atq", "loginctl", "loginctl list-sessions", "loginctl show-user me",
		"journalctl -u x", "journalctl --since today", "journalctl -n 50 --no-pager", "journalctl --list-boots",
		"sysctl -a", "sysctl vm.swappiness", "sysctl -n kern.ostype", "sysctl -ar net", "sysctl -r net -a",
		"hostnamectl", "hostnamectl status", "timedatectl", "timedatectl list-timezones", "localectl status",
		"date", "date +%s", "date -u +%Y", "date -d yesterday", "date -d @1 +%F", "date --date=now", "date -Iseconds",
		"date -r README", "date -R", "date -j -f %s 1 +%F", "hwclock", "hwclock -r", "update-alternatives --display editor",
		"update-alternatives --query editor", "ldconfig -p", "modprobe -c", "modprobe -n -r x", "depmod -n",
		"lsmod", "swapon", "swapon --show", "mount", "mount -l", "ip addr", "ip a", "ip route", "ip -j addr show",
		"ip -4 route get 1.1.1.1", "ip -br link", "ip -n x addr show", "ip monitor", "ifconfig", "ifconfig -a",
		"ifconfig eth0", "route -n", "iptables -L", "iptables -nvL", "iptables -t nat -S", "iptables --list",
		"iptables -C INPUT -p tcp --dport 22 -j ACCEPT", "iptables-save", "nft list ruleset", "ufw status",
		"nmcli", "nmcli con show", "nmcli c show", "nmcli device status", "nmcli -t -f NAME con show",
		"nmcli device wifi list", "nmcli radio", "nmcli networking connectivity", "rfkill", "rfkill list",
		"dmesg", "dmesg -T", "dmesg --level=err", "dmesg -l err", "log show", "log stream",
		"xcodebuild -version", "xcodebuild -license check", "xcodebuild -scheme x build", "runlevel",
		"xdotool --version", "setxkbmap -query", "setxkbmap -print us", "xmodmap", "xmodmap -pm", "xset q",
		"xrandr", "xrandr --listmonitors", "xinput", "xinput list", "gsettings get a b", "gsettings list-schemas",
		"dconf help", "xdg-settings get default-web-browser", "xdg-mime query default text/plain", "xclip -o",
		"xclip -o -selection clipboard", "xsel -o", "xsel -b -o", "xsel --output", "pbpaste", "wl-paste",
		"wl-paste -n", "notify-send hi", "xdg-screensaver status", "wmctrl -l", "wmctrl -lp", "pactl list",
		"pactl info", "amixer", "amixer get Master", "brightnessctl", "brightnessctl get", "qdbus",
		"xscreensaver-command -time", "uptime", "hostname", "hostname -f", "hostname -I", "hostname --fqdn",
		"passwd -S", "chsh -l", "tailscale status", "tailscale ip -4", "wg show", "zellij ls", "chronyc tracking",
		"resolvectl status", "networkctl", "zfs list", "zpool status", "tc qdisc show", "tc -s qdisc",
		"ethtool eth0", "ethtool -i eth0", "iw dev", "apt-mark showhold", "swaymsg -t get_tree",
		"i3-msg -t get_workspaces", "hyprctl monitors", "bspc query -N", "xfconf-query -c x -p /y",
		"gnome-extensions list", "fwupdmgr get-devices", "./app.exe", "build/app.exe",
		"bridge link", "cryptsetup status x", "ipcs", "pg_ctl status", "pg_ctlcluster 16 main status",
		"mysqladmin status", "mysqladmin ping", "redis-cli ping", "redis-cli info", "nginx -t", "nginx -V",
		"apachectl configtest", "supervisorctl status", "pm2 --version", "forever --help", "rabbitmqctl status",
		"rc-service nginx status", "rc-service -l", "rc-update", "rc-update show", "sv status x", "chkconfig --list",
		"initctl list", "mytool --theme light x", "ssh-keyscan hostname x",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
