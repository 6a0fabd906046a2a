//go:build linux

package permission_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryWrittenLink are lines that write, through a symbolic link the
// project holds (the file itself or a directory on its way), the file a
// later command of the line runs as code under another name. The
// analysis judges a write by the name the line shows (mk, pj, b/tsc), so
// each was allowed and wrote ../home when run (stop 62).
var canaryWrittenLink = []struct {
	tool, line, link, to string
	files                map[string]string
}{
	{"make", `echo 'all: ; touch ../home/pwned' > e/mk && make`, "e/mk", "../GNUmakefile", map[string]string{"e/.keep": ""}},
	{"npm", `cat kit/package.json > pj && npm test`, "pj", "package.json", writtenNameJSON},
	{"npm", `python3 -m json.tool kit/package.json pj && npm test`, "pj", "package.json", writtenNameJSON},
	{"npm", `printf '#!/bin/sh\ntouch ../home/pwned\n' > b/tsc && npx tsc`, "b", "node_modules/.bin",
		map[string]string{"package.json": `{"name": "p"}`, "node_modules/.bin/tsc": "#!/bin/sh\necho ok\n"}},
	{"npm", `sed -i 's,echo ok,touch ../home/pwned,' b/t?c && npx tsc`, "b", "node_modules/.bin",
		map[string]string{"package.json": `{"name": "p"}`, "node_modules/.bin/tsc": "#!/bin/sh\necho ok\n"}},
	// Round 129: a ".." after a link steps back from where the link led
	// (nf/.. is node_modules), a pattern matches the link, and a line
	// whose other paths fill the analysis's list left no room for the
	// name the link leads to.
	{"npm", `printf '#!/bin/sh\ntouch ../home/pwned\n' > nf/../.bin/tsc && npx tsc`, "nf", "node_modules/foo",
		map[string]string{"package.json": `{"name": "p"}`, "node_modules/.bin/tsc": "#!/bin/sh\necho ok\n", "node_modules/foo/.keep": ""}},
	{"npm", `cat kit/package.json | tee ?j >/dev/null && npm test`, "pj", "package.json", writtenNameJSON},
	{"npm", `printf '#!/bin/sh\ntouch ../home/pwned\n' | tee [b]/tsc >/dev/null && npx tsc`, "b", "node_modules/.bin",
		map[string]string{"package.json": `{"name": "p"}`, "node_modules/.bin/tsc": "#!/bin/sh\necho ok\n"}},
	// The program run is, through a link of the project, the file the
	// line wrote (a workspace package's program in node_modules/.bin).
	{"npm", `printf '#!/bin/sh\ntouch ../home/pwned\n' > tools/tool.sh && npx mytool`, "node_modules/.bin/mytool", "../../tools/tool.sh",
		map[string]string{"package.json": `{"name": "p"}`, "tools/tool.sh": "#!/bin/sh\necho ok\n", "node_modules/.bin/.keep": ""}},
	{"sh", `printf '#!/bin/sh\ntouch ../home/pwned\n' > tools/tool.sh && ./runme`, "runme", "tools/tool.sh",
		map[string]string{"tools/tool.sh": "#!/bin/sh\necho ok\n"}},
	// The line's /proc/self/cwd is the workdir, not the gate's.
	{"npm", `cat kit/package.json > /proc/self/cwd/pj && npm test`, "pj", "package.json", writtenNameJSON},
	{"npm", "cat " + strings.Repeat("package.json ", 1021) + "> /dev/null; cat kit/package.json > pj && npm test", "pj", "package.json", writtenNameJSON},
}

// canaryWrittenLinkOrdinary are writes in a project that holds links,
// not through them, and lines that write through one where no later
// command of the line runs what it wrote, which stay allowed.
var canaryWrittenLinkOrdinary = []struct {
	line, link, to string
}{
	{`echo 'all: ; @echo ok' > GNUmakefile.txt && make -v`, "d", "."},
	{`echo x > doc/README.md && cat README.md`, "README.md", "doc/README.md"},
	{`echo '# x' > README.md`, "README.md", "doc/README.md"},
	{`sed -i 's/x/y/' CLAUDE.md`, "CLAUDE.md", "doc/README.md"},
	{`printf 'y\n' >> d/README.md`, "d", "doc"},
	// A line of more commands that runs none of what it wrote.
	{`sed -i 's/x/y/' CLAUDE.md && git diff --stat`, "CLAUDE.md", "doc/README.md"},
	{`echo '# y' > README.md; cat README.md | wc -l`, "README.md", "doc/README.md"},
	{`printf 'y\n' >> d/README.md && ls d && git status --short`, "d", "doc"},
	{`cat doc/README.md | tee ?EADME.md > /dev/null && git diff --stat`, "README.md", "doc/README.md"},
	{`printf 'y\n' >> d/../doc/README.md && git diff --stat`, "d", "doc"},
}

// TestCanaryWrittenLink checks that each line of canaryWrittenLink asks
// and writes the home when run, and that the ordinary ones stay allowed.
func TestCanaryWrittenLink(t *testing.T) {
	t.Parallel()
	for i, c := range canaryWrittenLink {
		t.Run(fmt.Sprintf("%s/%d", c.tool, i), func(t *testing.T) {
			t.Parallel()
			home, wd, ok := decidedIn(t, c.tool, c.line, c.link+" -> "+c.to, permission.Ask, func(home, wd string) {
				writeTreeMode(t, wd, c.files, 0o755)
				linkIn(t, wd, c.link, c.to)
			})
			if !ok {
				return
			}
			out := runIn(t, home, wd, c.line)
			if _, err := os.Stat(filepath.Join(home, "pwned")); err != nil {
				t.Errorf("%q with %s -> %s did not write ../home/pwned when run (%v):\n%s", c.line, c.link, c.to, err, out)
			}
		})
	}
	for i, c := range canaryWrittenLinkOrdinary {
		t.Run(fmt.Sprintf("ordinary/%d", i), func(t *testing.T) {
			t.Parallel()
			home, wd := unlinkedFixture(t)
			writeTreeMode(t, wd, map[string]string{"doc/README.md": "# x\n"}, 0o644)
			linkIn(t, wd, c.link, c.to)
			if v := secretDecider(t, home, wd)(c.line); v.Decision != permission.Allow {
				t.Errorf("%q with %s -> %s: %v (%s), want it allowed", c.line, c.link, c.to, v.Decision, v.Reason)
			}
		})
	}
}
