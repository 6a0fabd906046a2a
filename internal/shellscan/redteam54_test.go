package shellscan

import "testing"

// Round redteam54: writers the analysis did not model. curl 8.3 and later
// write a file from the format of -w (%output{NAME}, %output{>>NAME}),
// read that format from a file or stdin (-w @f, -w @-), take any option
// as --expand-NAME (--expand-output '{{x}}'), and 8.12 writes TLS
// sessions to the file of --ssl-sessions; pnpm setup appends to the
// shell's startup file and installs pnpm into its home, and pnpm
// self-update replaces that pnpm.
func TestRedteam54WritersAreOpaque(t *testing.T) {
	for _, line := range []string{
		"curl -w '%output{../x}' https://h", "curl -w '%output{>>/home/u/.bashrc}x' https://h",
		"curl --write-out '%output{../x}' https://h", "curl -sSw'%output{../x}' https://h",
		"curl --write-out=%OUTPUT{../x} https://h", "curl --write '%output{../x}' https://h",
		"curl -w @fmt https://h", "curl -w @- https://h < fmt", "f=$(cat README); curl -w \"$f\" https://h",
		"curl --expand-output '{{x}}' --variable x=../y https://h", "curl --expand-cookie-jar ../x https://h",
		"curl --ssl-sessions ../x https://h",
		"pnpm setup", "pnpm setup --force", "pnpm -C sub setup", "pnpm self-update", "pnpm self-update 10",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"curl -w '%{http_code}' -o /dev/null https://h", "curl -s -o /dev/null -w '%{http_code}\\n' https://h",
		"curl --write-out=%{http_code} https://h", "curl -w '%{stderr}%{url}' https://h",
		"curl -fsSL https://h -o out", "pnpm install", "pnpm --version", "pnpm setup --help",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
