package shellscan

import "testing"

// Programs only macOS has run code the line does not show or change state
// outside the workdir with no path on the line; under "allow bash" each
// ran as an unknown program. The lines that only show state stay
// understood. py is the python launcher and python3 -m uv pip is uv pip.
func TestMacOSProgramsThatRunCodeOrWriteOutsideAreOpaque(t *testing.T) {
	for _, line := range []string{
		`open -a Terminal x.sh`, `open x.app`, `open README.md`, `open -n -a Calculator`, `OPEN x.command`,
		`osascript x.scpt`, `osascript -l JavaScript x.js`, `automator x.workflow`, `shortcuts run x`,
		`defaults write com.apple.dock x -bool true`, `defaults delete com.apple.dock`, `defaults import x f`,
		`launchctl load x.plist`, `launchctl bootstrap gui/501 x.plist`, `launchctl setenv X y`,
		`security add-generic-password -s x -a y -w z`, `security find-generic-password -s x -w`, `security dump-keychain`,
		`hdiutil attach x.dmg`, `diskutil eraseDisk JHFS+ x disk2`, `pkgutil --forget com.x`,
		`installer -pkg x.pkg -target /`, `softwareupdate -i -a`, `tmutil disable`, `mdutil -i off /`,
		`dscl . -create /Users/x`, `dscl . -passwd /Users/x y`, `xcrun swift x.swift`, `xcrun python3 -c 1`,
		`xcode-select -s /Applications/X.app`, `xcode-select --install`, `swift -e 'print(1)'`, `swift`, `swift repl`,
		`networksetup -setdnsservers Wi-Fi 1.1.1.1`, `scutil --set HostName x`, `pmset sleepnow`,
		`csrutil disable`, `spctl --master-disable`, `nvram boot-args=x`, `nvram -d x`, `systemsetup -setremotelogin on`,
		`kextload x`, `kmutil load -p x`, `profiles install -path x`, `nice defaults write x y z`, `logsave l launchctl load x`,
		`py -c 1`, `py -3 -c 1`, `py -m pip install x`, `python3 -m uv pip install x`, `Python3 -m uv pip sync r.txt`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); !opaqueOrFoundByPath(a) {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		`sw_vers`, `defaults read com.apple.dock`, `defaults domains`, `plutil -lint x.plist`,
		`pbpaste > x`, `mdfind x`, `say hi`, `launchctl list`, `security find-identity -v -p codesigning`,
		`hdiutil info`, `diskutil list`, `pkgutil --pkgs`, `softwareupdate -l`, `tmutil status`, `mdutil -s /`,
		`dscl . -read /Users/u`, `dscl . -list /Users`, `xcrun --show-sdk-path`, `xcrun -f clang`, `xcode-select -p`,
		`swift build`, `swift test`, `swift x.swift`, `networksetup -listallhardwareports`, `scutil --get HostName`,
		`pmset -g`, `csrutil status`, `spctl --status`, `nvram -p`, `systemsetup -getremotelogin`, `shortcuts list`,
		`py x.py`, `python3 -m uv pip list`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// BSD sed (macOS's) takes the word after a bare -i as the backup suffix:
// in sed -i ” '1w ~/x' f the script is 1w ~/x, which the GNU reading took
// for a file name. Both readings are checked.
func TestBSDSedInPlaceSuffixWord(t *testing.T) {
	for _, line := range []string{
		`sed -i '' '1w /Users/u/.zshrc' x`, `sed -i '' 's/a/b/w /Users/u/.zshrc' x`, `sed -Ei '' '1w ../x' f`,
		`sed -n -i '' 'w /tmp/x' f`, `sed -i '' 'w/tmp/x' f`, `sed -i '' '$w/tmp/x' f`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		`sed -i '' s/a/b/ x`, `sed -i -e 's/a/b/' x`, `sed -E -i '' 's/a/b/' x`,
		`sed -i '' -e 's/a/b/' x`, `sed -i s/a/b/ x`, `sed -i s/a/b/ README`, `sed -i s/a/b/ notes.txt`,
		`sed -i s/a/b/ new.txt`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// More of macOS: caffeinate runs its command as nice does, so the command
// is judged; csh and tcsh with no argument read commands from standard
// input (pbpaste | tcsh); jsc is JavaScriptCore's shell; tccutil, mas,
// ipconfig set, lsregister, and dscacheutil change state outside
// the workdir.
func TestMacOSWrappersShellsAndSettings(t *testing.T) {
	for _, line := range []string{
		`caffeinate -i tclsh`, `caffeinate -t 60 python3 -c 1`, `caffeinate -i brew install jq`, `caffeinate defaults write a b c`,
		`pbpaste | tcsh`, `pbpaste | csh`, `echo x | fish`, `jsc -e x`, `echo x | jsc`,
		`tccutil reset All`, `mas install 1`, `ipconfig set en0 DHCP`, `lsregister -f x.app`, `dscacheutil -flushcache`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		`caffeinate -i make`, `caffeinate -s`, `caffeinate -t 60 go test ./...`, `tcsh --version`, `mas list`,
		`ipconfig getifaddr en0`, `dscacheutil -q host -a name x`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// A show-state option does not make the others harmless: softwareupdate
// -l -i -a installs, security list-keychains -s sets the search list and
// launchctl examine runs a program.
func TestMacOSShowOptionsDoNotCoverTheRest(t *testing.T) {
	for _, line := range []string{
		`softwareupdate -l -i -a`, `mdutil -s -i off /`, `pmset -g -a sleep 0`, `xcode-select -p -s /x`,
		`pkgutil --pkgs --forget com.x`, `spctl --status --master-disable`, `xcrun -f clang --run x`,
		`security list-keychains -d user -s x.keychain`, `security default-keychain -s x.keychain`, `launchctl examine x`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		`security list-keychains`, `security default-keychain`, `spctl -a -vv -t exec x.app`, `softwareupdate -l`,
		`pkgutil --pkgs`, `security find-identity -v -s x`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// A case-insensitive APFS volume folds ſ (long s) to s and the Kelvin sign
// to k, as it folds letter case: \u017fh -c runs sh.
func TestProgramNamesWithNonASCIIFoldsAreJudgedAsTheProgram(t *testing.T) {
	for _, line := range []string{"pbpaste | \u017fh", "pbpaste | ba\u017fh", "\u017fwift -e x", "\u017fhortcuts run x", "\u212Ash -c \"$x\"", "\u212Aind create cluster", "\u017fudo -s"} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
}
