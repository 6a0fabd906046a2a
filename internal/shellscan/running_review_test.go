package shellscan

import "testing"

// A second read of round 47: forms the running-system model took for
// ones that only show state, which still change it. nft runs every
// command of its words joined (list ruleset ; flush ruleset), xdotool
// every command of its chain (version key …), rc-update takes -v before
// its command, NetBSD's sysctl -r is raw output and takes no pattern,
// zpool events -c clears the event log, and fkill and kill-port kill by
// name or port as pkill and fuser -k do.
func TestRunningReviewChangesStateBesideShowing(t *testing.T) {
	for _, line := range []string{
		`nft list ruleset \; flush ruleset`, "nft list ruleset ';' add rule inet f c drop",
		"nft list ruleset $'\\n' flush ruleset", "nft list ruleset -f x.nft", "nft describe x -i",
		"xdotool version key ctrl+alt+Delete", "xdotool help key super", "xdotool --version windowkill",
		"rc-update -v del sshd default", "rc-update --verbose add x default", "rc-update -u", "rc-update show -u",
		"sysctl -r kern.hostname=x", "sysctl -ar kern.x=1", "sysctl --pattern x=1 -a",
		"zpool events -c", "zpool events -vc", "zpool events -v -c",
		"fkill node", "kill-port 3000", "killport 3000", "npx kill-port 3000",
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
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
