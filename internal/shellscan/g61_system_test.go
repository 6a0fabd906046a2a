package shellscan

import "testing"

// Programs outside sbin directories that write the system's state when
// run as root (or the home otherwise): each was allowed before gate61.
func TestG61SystemWriters(t *testing.T) {
	opaque := []string{
		`add-apt-repository ppa:x/y`, `apt-add-repository ppa:x/y`, `apt-key add k.asc`, `apt-key del ABCD`,
		`apt-cdrom add`, `apt-mark hold vim`, `chage -d 0 bob`, `dbus-uuidgen --ensure`,
		`dbus-update-activation-environment --systemd X=1`, `dbus-cleanup-sockets`, `deb-systemd-helper enable x.service`,
		`deb-systemd-invoke restart x.service`, `debconf-set-selections sel.txt`, `debconf-communicate`,
		`debconf-copydb a b`, `dpkg-trigger x`, `dpkg-divert --add x`, `dpkg-statoverride --add root root 755 x`,
		`fc-cache -f`, `fc-cache`, `localedef -i en_US -f UTF-8 en_US.UTF-8`, `mandb`, `mandb -c`,
		`py3compile -p python3-foo`, `py3compile --package=python3-foo`, `py3compile`, `py3clean -p python3-foo`,
		`pycompile -p x`, `p7zip -d a.7z`, `pkcon install vim`, `pkcon refresh`, `h2ph -a sys/socket.h`, `libnetcfg`,
		`ipcmk -M 100`, `setupcon`, `texhash`, `mktexlsr`, `updmap-sys`, `updmap`, `fmtutil-sys --all`,
		`tlmgr install x`, `install-info x.info`, `systemd-firstboot --hostname=x`, `systemd-machine-id-setup`,
		`systemd-repart`, `systemd-sysext merge`, `pg_createcluster 15 x`, `pg_dropcluster 15 main`,
		`pg_conftool 15 main set port 5433`, `pg_renamecluster 15 a b`,
		`lpoptions -d x`, `lpoptions -o sides=two-sided-long-edge`, `update-desktop-database`, `update-usbids`,
		`update-pciids`, `update-mime`, `update-grub`, `update-initramfs -u`, `ucf x y`, `ucfr pkg x`,
		`debconf-set-selections "$f"`, `apt-key "$c" k`,
	}
	clean := []string{
		`chage -l bob`, `apt-key list`, `apt-mark showhold`, `dpkg-divert --list`, `dpkg-statoverride --list`,
		`pg_conftool 15 main show port`, `pkcon search x`, `localedef --list-archive`, `lpoptions -l`,
		`lpoptions`, `dbus-uuidgen`, `py3compile src/`, `update-alternatives --help`, `fc-cache --version`,
		`tlmgr info x`, `systemd-sysext list`, `debconf-set-selections -c sel.txt`, `ucfq x`, `pg_lsclusters`,
		`fc-list`, `debconf-show x`,
	}
	checkRT57Lines(t, opaque, clean)
}
