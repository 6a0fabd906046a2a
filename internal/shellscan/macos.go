package shellscan

import (
	"slices"
	"strings"
)

// macosTools maps each program only macOS has that runs code the line
// does not show or changes state outside the workdir with no path on the
// line (preferences, launch agents, the keychain, disks, installed
// packages, system settings) to the first words that only show state:
// defaults read is understood, defaults write is not. A program with no
// such word is opaque with any arguments (open hands its operands to
// whatever application is registered for them, and open -a starts one).
var macosTools = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"open":           nil,
		"automator":      nil,
		"installer":      {"-pkginfo", "-dominfo", "-volinfo", "-help", "-vers"},
		"osascript":      nil,
		"launchctl":      {"list", "print", "print-cache", "print-disabled", "blame", "version", "help", "managerpid", "manageruid", "managername", "error"},
		"kextload":       nil,
		"kextunload":     nil,
		"kmutil":         {"showloaded", "print-diagnostics", "inspect", "log"},
		"csrutil":        {"status"},
		"spctl":          {"--status", "-a", "--assess", "--list", "-t", "--type", "--raw", "--context"},
		"systemsetup":    nil, // -get… is checked below
		"networksetup":   nil, // -get…, -list… and -print… are checked below
		"pmset":          {"-g"},
		"profiles":       {"list", "show", "status", "help", "version", "validate"},
		"diskutil":       {"list", "info", "activity", "listFilesystems"},
		"hdiutil":        {"info", "imageinfo", "verify", "help", "pmap"},
		"pkgutil":        {"--pkgs", "--pkgs-plist", "--files", "--pkg-info", "--pkg-info-plist", "--file-info", "--file-info-plist", "--export-plist", "--payload-files", "--check-signature", "--groups", "--group-pkgs", "--lsbom", "--help"},
		"softwareupdate": {"-l", "--list", "--history", "--list-full-installers", "-h", "--help"},
		"defaults":       {"read", "read-type", "domains", "find", "export", "help"},
		"security":       {"find-identity", "find-certificate", "verify-cert", "help", "list-keychains", "default-keychain", "login-keychain", "show-keychain-info", "cms"},
		"tmutil":         {"status", "listbackups", "latestbackup", "destinationinfo", "machinedirectory", "isexcluded", "version", "help", "listlocalsnapshots", "listlocalsnapshotdates", "compare", "uniquesize", "calculatedrift"},
		"mdutil":         {"-s"},
		"shortcuts":      {"list", "help"},
		"xcode-select":   {"-p", "--print-path", "-v", "--version", "-h", "--help"},
		"xcrun":          {"-f", "--find", "--show-sdk-path", "--show-sdk-version", "--show-sdk-build-version", "--show-sdk-platform-path", "--show-sdk-platform-version", "--show-toolchain-path", "--version", "-h", "--help"},
		"tccutil":        nil,
		"mas":            {"list", "search", "info", "outdated", "version", "help", "account"},
		"ipconfig":       {"getifaddr", "getoption", "getpacket", "getsummary", "getv6packet", "ifcount", "getiflist", "getra"},
		"lsregister":     {"-dump"},
		"dscacheutil":    {"-q", "-a", "-statistics", "-cachedump", "-buckets", "-entries"},
		"nvram":          nil, // reading a variable is checked below
		"scutil":         nil, // --set is checked below
		"dscl":           nil, // the operation after the datasource is checked below
		"swift":          nil, // inline code is checked below
		// Users and the screen lock, the network location (scselect with
		// no argument lists them), the default application for a type
		// (the one open runs), the Dock.
		"sysadminctl": nil,
		"scselect":    nil, // no argument is checked below
		"duti":        {"-x", "-d", "-l", "-h", "-V"},
		"dockutil":    {"--list", "--find", "--version", "--help", "-L"},
	}
}}

// macosState returns why the macOS program name args runs code the line
// does not show or changes state outside the workdir, or "".
func macosState(name string, args []word) string {
	show, ok := macosTools.get()[name]
	if !ok {
		return ""
	}
	first := ""
	for _, a := range args {
		if a.dynamic {
			return name + " gets a word only known when it runs"
		}
	}
	if len(args) > 0 {
		first = args[0].text
	}
	switch name {
	case "systemsetup", "networksetup":
		ok := len(args) > 0
		for _, a := range args {
			if strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "-get") && !strings.HasPrefix(a.text, "-list") && !strings.HasPrefix(a.text, "-print") && a.text != "-help" && a.text != "-version" {
				ok = false
			}
		}
		if ok {
			return ""
		}
	case "nvram":
		ok := true
		for _, a := range args {
			if strings.Contains(a.text, "=") || a.text == "-d" || a.text == "-c" || a.text == "-f" || strings.HasPrefix(a.text, "-") && a.text != "-p" && a.text != "-x" {
				ok = false
			}
		}
		if ok {
			return ""
		}
	case "scselect":
		if len(args) == 0 {
			return ""
		}
	case "scutil":
		// scutil --get HostName, scutil --dns; with no argument, or only
		// -d or -v, it reads commands from its standard input.
		ok, mode := true, false
		for _, a := range args {
			switch a.text {
			case "--set", "--renew", "--nc", "--prefs":
				ok = false
			case "--get", "--dns", "--proxy", "--nwi", "-r", "-w":
				mode = true
			}
		}
		if ok && mode {
			return ""
		}
	case "dscl":
		// dscl [options] datasource -read|-list|… path
		for i, a := range args {
			if !strings.HasPrefix(a.text, "-") || i == 0 && a.text == "-" {
				if i+1 < len(args) && contains([]string{"-read", "-readall", "-readpl", "-readpli", "-list", "-search", "-diff", "-help"}, args[i+1].text) {
					return ""
				}
				break
			}
		}
	case "swift":
		// swift build, swift test and swift x.swift run the project's own
		// code, as go does; -e runs inline code and - or no argument reads it.
		// With options only (swift -Onone) it reads code as with none.
		ok := len(args) > 0 && (!strings.HasPrefix(first, "-") || onlyVersion(args))
		for _, a := range args {
			if a.text == "-e" || a.text == "-" || strings.HasPrefix(a.text, "-e") && len(a.text) > 2 && !strings.HasPrefix(a.text, "-enable") {
				ok = false
			}
		}
		if ok && first != "repl" {
			return ""
		}
		return "swift runs inline code or code from its standard input"
	case "security":
		// list-keychains -s, default-keychain -s and login-keychain -s set
		// what they show; cms -o writes the file it names.
		sets := strings.HasSuffix(first, "keychain") || strings.HasSuffix(first, "keychains")
		sets = sets && slices.ContainsFunc(args, func(a word) bool { return a.text == "-s" }) ||
			first == "cms" && slices.ContainsFunc(args, func(a word) bool { return strings.HasPrefix(a.text, "-o") })
		if contains(show, first) && !sets {
			return ""
		}
	case "defaults":
		// defaults export DOMAIN PATH writes PATH; "-" is standard output.
		if contains(show, first) && (first != "export" || len(args) == 3 && args[2].text == "-") {
			return ""
		}
	case "xcrun":
		// xcrun [--sdk S] [--toolchain T] [-v] [-n] [-l] runs the tool it
		// is given with its arguments; a show option, or --find with one
		// tool name, only prints.
		showing, find, operands := false, false, 0
		for i := 0; i < len(args); i++ {
			switch t := args[i].text; {
			case t == "--sdk" || t == "-sdk" || t == "--toolchain" || t == "-toolchain":
				i++
			case t == "-f" || t == "--find":
				showing, find = true, true
			case contains(show, t):
				showing = true
			case contains([]string{"-v", "--verbose", "-n", "--no-cache", "-l", "--log"}, t):
			case strings.HasPrefix(t, "-"):
				operands += 2 // an option the model does not know
			default:
				operands++
			}
		}
		if showing && (operands == 0 || find && operands == 1) {
			return ""
		}
	default:
		if first != "" && contains(show, first) && strings.HasPrefix(first, "-") {
			// Options choose what to do (softwareupdate -l -i -a installs):
			// every one must only show state.
			if !slices.ContainsFunc(args, func(a word) bool {
				return strings.HasPrefix(a.text, "-") && !contains(show, a.text) && !contains([]string{"-v", "-vv", "-vvv", "--verbose"}, a.text)
			}) {
				return ""
			}
		} else if first != "" && contains(show, first) {
			return ""
		}
	}
	if first != "" && !strings.HasPrefix(first, "-") {
		return name + " " + clipName(first) + " runs code the line does not show or changes state outside the workdir (macOS)"
	}
	return name + " runs code the line does not show or changes state outside the workdir (macOS)"
}
