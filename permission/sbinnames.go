package permission

import "sync"

// sbinNames are the base names of programs that systems keep in an sbin
// directory: those of Debian's /usr/sbin and the daemons, disk, network,
// boot and account tools Fedora and Arch keep there. Where /usr/sbin is a
// link to /usr/bin (Arch, Fedora 42 and later) no program lies in an sbin
// directory, so adminPrograms judges these names wherever they lie.
var sbinNames = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{
		// Debian 12's /usr/sbin.
		"accessdb", "add-shell", "addgnupghome", "addgroup", "adduser", "agetty", "applygnupgdefaults", "arp",
		"arpd", "badblocks", "blkdeactivate", "blkdiscard", "blkid", "blkzone", "blockdev", "bridge", "capsh",
		"chcpu", "chgpasswd", "chmem", "chpasswd", "chroot", "cpgr", "cppw", "ctrlaltdel", "dcb", "debugfs",
		"delgroup", "deluser", "devlink", "dmsetup", "dmstats", "dpkg-fsys-usrunmess", "dpkg-preconfigure",
		"dpkg-reconfigure", "dumpe2fs", "e2freefrag", "e2fsck", "e2image", "e2label", "e2mmpstatus", "e2scrub",
		"e2scrub_all", "e2undo", "e4crypt", "e4defrag", "escapesrc", "faillock", "filefrag", "findfs", "fsck",
		"fsck.cramfs", "fsck.ext2", "fsck.ext3", "fsck.ext4", "fsck.minix", "fsfreeze", "fstab-decode", "fstrim",
		"genccode", "gencmn", "genl", "gennorm2", "gensprep", "getcap", "getpcaps", "getty", "groupadd", "groupdel",
		"groupmems", "groupmod", "grpck", "grpconv", "grpunconv", "halt", "hwclock", "iconvconfig", "icupkg",
		"ifconfig", "init", "install-sgmlcatalog", "installkernel", "invoke-rc.d", "ip", "ipmaddr", "iptunnel",
		"isosize", "killall5", "ldattach", "ldconfig", "locale-gen", "losetup", "make-ssl-cert",
		"mii-tool", "mke2fs", "mkfs", "mkfs.bfs", "mkfs.cramfs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.minix",
		"mkhomedir_helper", "mklost+found", "mkswap", "nameif", "newusers", "nologin", "pam-auth-update",
		"pam_getenv", "pam_namespace_helper", "pam_timestamp_check", "pg_updatedicts", "pivot_root", "plipconfig",
		"policy-rc.d", "poweroff", "pwck", "pwconv", "pwhistory_helper", "pwunconv", "rarp", "readprofile", "reboot",
		"remove-shell", "resize2fs", "rmt", "rmt-tar", "route", "rtacct", "rtcwake", "rtmon", "runlevel", "runuser",
		"service", "setcap", "shadowconfig", "shutdown", "slattach", "start-stop-daemon", "sulogin", "swaplabel",
		"swapoff", "swapon", "switch_root", "sysctl", "tarcat", "tc", "telinit", "tipc", "tune2fs", "unix_chkpwd",
		"unix_update", "update-ca-certificates", "update-catalog", "update-icon-caches", "update-java-alternatives",
		"update-locale", "update-passwd", "update-rc.d", "update-shells", "update-xmlcatalog", "useradd", "userdel",
		"usermod", "validlocale", "vdpa", "vigr", "vipw", "wipefs", "zic", "zramctl",
		// Disks, file systems, volumes and boot.
		"fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "partprobe", "mkfs.xfs", "mkfs.btrfs",
		"mkfs.vfat", "mkfs.fat", "mkdosfs", "mkfs.exfat", "mkfs.ntfs", "mkntfs", "fsck.vfat", "fsck.fat", "dosfsck",
		"fsck.xfs", "xfs_repair", "xfs_growfs", "xfs_admin", "xfs_db", "btrfsck", "cryptsetup", "lvm", "lvcreate",
		"lvremove", "lvextend", "lvresize", "lvreduce", "vgcreate", "vgremove", "vgextend", "vgchange", "pvcreate",
		"pvremove", "pvmove", "mdadm", "hdparm", "sdparm", "smartctl", "nvme", "zpool", "zfs", "mount.nfs",
		"umount.nfs", "exportfs", "grub-install", "grub-mkconfig", "grub2-install", "grub2-mkconfig", "update-grub",
		"update-initramfs", "mkinitramfs", "dracut", "mkinitcpio", "efibootmgr", "kexec", "modprobe", "insmod",
		"rmmod", "depmod", "modinfo", "kpartx", "multipath", "tgtadm", "iscsiadm", "quotacheck", "quotaon",
		"quotaoff", "setquota", "edquota", "xfs_quota", "tune.exfat",
		// Networks and firewalls.
		"iptables", "ip6tables", "iptables-restore", "iptables-save", "ip6tables-restore", "ip6tables-save",
		"iptables-legacy", "iptables-nft", "nft", "ebtables", "arptables", "ipset", "conntrack", "ethtool", "iw",
		"iwconfig", "iwlist", "brctl", "vconfig", "dhclient", "dhcpcd", "ifup", "ifdown", "ifquery", "wpa_supplicant",
		"tcpdump", "arping", "ipvsadm", "xtables-multi", "xtables-nft-multi", "firewalld", "ufw",
		// Daemons and their control programs.
		"sshd", "nginx", "httpd", "apache2", "apachectl", "apache2ctl", "a2enmod", "a2dismod", "a2ensite",
		"a2dissite", "a2enconf", "a2disconf", "php-fpm", "mysqld", "mariadbd", "dnsmasq", "named", "rndc", "unbound",
		"haproxy", "squid", "postfix", "postmap", "postsuper", "sendmail", "exim", "exim4", "dovecot", "cron", "crond",
		"anacron", "atd", "rsyslogd", "syslog-ng", "logrotate", "chronyd", "ntpd", "ntpdate", "sntp", "xinetd",
		"vsftpd", "smbd", "nmbd", "cupsd", "cupsaccept", "cupsreject", "cupsenable", "cupsdisable", "lpadmin",
		"avahi-daemon", "dbus-daemon", "openvpn", "pppd", "criu", "auditd", "auditctl", "ausearch", "aureport",
		// Security policy and accounts.
		"setenforce", "semanage", "semodule", "restorecon", "setsebool", "setfiles", "load_policy",
		"apparmor_parser", "aa-complain", "aa-enforce", "aa-disable", "visudo", "alternatives",
		"update-alternatives", "pam_tally2", "pwmconfig", "sensors-detect", "vipw", "chpasswd", "lchsh", "lchfn",
		"lusermod", "luseradd", "luserdel", "lgroupadd", "lgroupdel",
	} {
		m[n] = true
	}
	return m
})
