package shellscan

import (
	"path"
	"strings"
	"testing"
)

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

// Brace expansion happens before tilde expansion and may make a path
// that leaves the directory the pattern starts in: each word it makes is
// judged as a path of its own. These were written as patterns within the
// workdir before.
func TestRedteam54BraceWordsArePaths(t *testing.T) {
	for line, want := range map[string]string{
		"rm -f {..,y}/x":          "/x",
		"rm -f x{,/../../y}":      "/y",
		"rm -f {../,}x":           "/x",
		"rm -f {~,.}/.bashrc":     "/home/u/.bashrc",
		"touch {~,.}/x":           "/home/u/x",
		"rm -f ~{,/x}":            "/home/u",
		"rm -f {/etc,.}/x":        "/etc/x",
		"rm -f {a,{..,b}}/x":      "/x",
		"cp README {..,.}/x":      "/x",
		"tee {..,.}/x < README":   "/x",
		"sed -i 1d {..,sub}/x":    "/x",
		"rm -f {\"..\",y}/x":      "/x",
		"rm -rf {$HOME,.}/.cache": "/home/u/.cache",
	} {
		a := analyzeBash(line, "/home/u", "/w")
		found := false
		for _, acc := range a.accesses {
			if p := absPath(acc.path, "/w"); p == want && !acc.pattern && acc.mode != modeRead {
				found = true
			}
		}
		if !found && len(a.reasons) == 0 {
			t.Errorf("%q: no write of %s among %+v", line, want, a.accesses)
		}
	}
	for _, line := range []string{
		"mkdir -p src/{a,b}", "cp x{,.bak}", "touch {a,b}.txt", "rm -f {a,b}/*.o", "rm {1..3}.log",
		"rm -f {'~',.}/x", "rm -f {..}/x",
	} {
		a := analyzeBash(line, "/home/u", "/w")
		for _, acc := range a.accesses {
			if p := absPath(acc.path, "/w"); !strings.HasPrefix(p, "/w/") {
				t.Errorf("%q writes %s (%+v)", line, p, acc)
			}
		}
	}
	if a := analyzeBash("rm -f x{1..300}", "/home/u", "/w"); len(a.reasons) == 0 {
		t.Errorf("a brace expansion into 300 words is not opaque")
	}
}

// absPath is p made absolute from dir, cleaned.
func absPath(p, dir string) string {
	if !path.IsAbs(p) {
		p = path.Join(dir, p)
	}
	return path.Clean(p)
}
