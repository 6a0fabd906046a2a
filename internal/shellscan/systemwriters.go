package shellscan

import (
	"strings"
)

// Programs outside sbin directories that, run as root (as the agent may
// be), write the system's state: its package sources and keys
// (add-apt-repository, apt-key add, apt-cdrom, apt-mark hold), debconf's
// database, dpkg's triggers and diversions, the locale archive
// (localedef), compiled modules of system packages (py3compile -p),
// caches of fonts, manuals (mandb, catman), MIME types, desktop files and TeX trees
// (fc-cache, mandb, update-desktop-database, texhash, updmap-sys), the
// info directory, the machine id, PostgreSQL's clusters, printers'
// defaults (lpoptions -d), the console's keymap (setupcon), System V IPC
// (ipcmk), ucf's registry of configuration files, and every update-* script (update-pciids, update-usbids …).
// Run as another user several write the home instead (fc-cache's
// ~/.cache/fontconfig, updmap's ~/.texlive). The analysis models none of
// them: each is opaque but for the forms that only show state (gate61:
// each was allowed).

// systemReads maps a system writer to the words that make a run of it
// only show state: its first operand (apt-key list) or any option (chage
// -l). A writer not in the map has no such form.
var systemReads = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"apt-key":                  {"list", "finger", "fingerprint", "export", "exportall"},
		"apt-mark":                 {"showauto", "showmanual", "showhold", "showinstall", "showremove", "showpurge"},
		"chage":                    {"-l", "--list"},
		"dpkg-divert":              {"--list", "--listpackage", "--truename"},
		"dpkg-statoverride":        {"--list"},
		"pg_conftool":              {"show"},
		"localedef":                {"--list-archive"},
		"debconf-set-selections":   {"-c", "--checkonly"},
		"systemd-sysext":           {"list", "status"},
		"systemd-confext":          {"list", "status"},
		"systemd-machine-id-setup": {"--print"},
		"tlmgr":                    {"info", "search", "list", "version", "--version"},
		"pkcon": {"search", "resolve", "get-details", "get-files", "get-updates", "get-packages", "what-provides",
			"backend-details", "get-roles", "get-groups", "get-filters", "get-transactions", "get-time",
			"get-categories", "get-update-detail", "depends-on", "required-by"},
	}
}}

// systemWriterNames are the system writers of the comment above, besides
// the update-* scripts.
var systemWriterNames = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`add-apt-repository apt-add-repository apt-key apt-cdrom apt-mark chage
		dbus-uuidgen dbus-update-activation-environment dbus-cleanup-sockets deb-systemd-helper deb-systemd-invoke
		debconf debconf-set-selections debconf-communicate debconf-copydb debconf-apt-progress dpkg-trigger
		dpkg-maintscript-helper dpkg-divert dpkg-statoverride localedef mandb catman fc-cache py3compile py3clean pycompile
		pyclean pypycompile pypyclean h2ph libnetcfg pkcon p7zip ipcmk setupcon texhash mktexlsr updmap updmap-sys
		updmap-user fmtutil fmtutil-sys fmtutil-user texconfig texconfig-sys tlmgr install-info systemd-firstboot
		systemd-machine-id-setup systemd-repart systemd-sysext systemd-confext pg_createcluster pg_dropcluster
		pg_renamecluster pg_upgradecluster pg_restorecluster pg_backupcluster pg_conftool pg_buildext
		lpoptions ucf ucfr`) {
		m[n] = true
	}
	return m
}}

// systemWritersOpaque makes the line opaque when name is a system writer
// (see above) and args are not a form that only shows state.
func (an *analyzer) systemWritersOpaque(name string, args []word) {
	// update-alternatives and pg_ctlcluster are modelled with the
	// services' control programs, whose forms that show state read.
	if !systemWriterNames.get()[name] && !strings.HasPrefix(name, "update-") || name == "update-alternatives" || onlyVersion(args) {
		return
	}
	why := name + " is a system administration program: it writes the system's state (or, run as another user, the home), which the analysis does not model"
	reads := systemReads.get()[name]
	switch name {
	case "py3compile", "pycompile", "pypycompile", "py3clean", "pyclean", "pypyclean":
		// They compile (or clean) the files they are given, but a
		// system package's with -p, and every public module with none.
		operands := 0
		for _, a := range args {
			if a.dynamic || a.text == "-p" || strings.HasPrefix(a.text, "--package") || strings.HasPrefix(a.text, "-p") {
				an.opaque(why)
				return
			}
			if !strings.HasPrefix(a.text, "-") {
				operands++
			}
		}
		if operands == 0 {
			an.opaque(why)
		}
		return
	case "lpoptions":
		for _, a := range args {
			t := a.text
			if a.dynamic || strings.HasPrefix(t, "-d") || strings.HasPrefix(t, "-o") || strings.HasPrefix(t, "-r") ||
				strings.HasPrefix(t, "-x") {
				an.opaque(why)
				return
			}
		}
		return
	case "dbus-uuidgen":
		for _, a := range args {
			if a.dynamic || strings.HasPrefix(a.text, "--ensure") {
				an.opaque(why)
				return
			}
		}
		return
	}
	if len(reads) == 0 {
		an.opaque(why)
		return
	}
	for _, a := range args {
		if a.dynamic {
			break
		}
		for _, r := range reads {
			if a.text == r && (strings.HasPrefix(r, "-") || firstOperand(args) == r || name == "pg_conftool") {
				return
			}
		}
	}
	an.opaque(why)
}
