package shellscan

import "testing"

// Second read of the macOS show-state words: defaults export and security
// cms -o write the file they are given (a protected one, too); scutil with
// only -d or -v, and swift with options only, read commands from standard
// input; xcrun runs the tool it is given unless a show option is all it
// does. Their show-state forms stay allowed.
func TestMacOSShowStateFormsThatWriteOrRun(t *testing.T) {
	for _, line := range []string{
		`defaults export com.x .lite-agent/permissions.json`, `defaults export com.x /Users/u/.zshrc`,
		`security cms -D -i a -o .git/hooks/pre-commit`, `security cms -D -i a -o/Users/u/.zshrc`,
		`pbpaste | scutil -d`, `pbpaste | scutil -v`, `pbpaste | scutil -d -v`,
		`pbpaste | swift -Onone`, `pbpaste | swift -I x`,
		`xcrun --find python3 evil.py`, `xcrun -f python3 -- evil.py`, `xcrun --show-sdk-path python3 x.py`,
		`xcrun --sdk macosx python3 x.py`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		`defaults export com.x -`, `defaults read com.x`, `security cms -D -i profile.mobileprovision`,
		`scutil --get HostName`, `scutil -r example.com`, `scutil --dns`, `scutil -d --get HostName`,
		`swift build -c release`, `swift --version`, `swift test`,
		`xcrun --show-sdk-path`, `xcrun --sdk macosx --show-sdk-path`, `xcrun -sdk iphoneos --show-sdk-version`,
		`xcrun -f clang`, `xcrun --find --sdk macosx clang`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}

// macOS programs the table missed that change settings outside the
// workdir with no path on the line: sysadminctl (users, screen lock),
// scselect (the network location), duti (the default application for a
// type, the one open runs), dockutil (the Dock). Their show-state forms
// stay allowed.
func TestMacOSSettingsProgramsTheTableMissed(t *testing.T) {
	for _, line := range []string{
		`sysadminctl -screenLock off -password x`, `sysadminctl -addUser x`, `scselect Work`, `duti -s com.x .sh all`,
		`duti settings.duti`, `dockutil --add /Applications/X.app`, `dockutil --remove all`, `/usr/sbin/SCSELECT Work`,
	} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{`scselect`, `duti -x html`, `duti -d public.html`, `dockutil --list`, `dockutil --version`} {
		if a := analyzeBash(line, "/Users/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
