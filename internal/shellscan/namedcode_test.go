package shellscan

import (
	"strings"
	"testing"
)

// TestCodeOfAnyName checks that a file without an extension that the line
// writes in the working directory before node, perl or make runs there,
// and a makefile fragment before make, is code they may load: the
// project's app.js may require("./cfg"), its tool.pl require
// "./settings", its Makefile include local.cfg. A directory mkdir makes
// is no code; a file with another extension is left to the script that
// reads it, as python's open is (notes.txt is open).
func TestCodeOfAnyName(t *testing.T) {
	for _, tc := range []struct {
		line   string
		opaque bool
	}{
		{`echo 'require("fs").unlinkSync("c")' > cfg && node app.js`, true},
		{`echo 'require("fs").unlinkSync("c")' > notes.txt && node tool.js`, false},
		{`cp kit/cfg cfg && node app.js`, true},
		{`echo x | tee .env && make`, true},
		{`echo x > c?g && node app.js`, true},
		{`echo x > config.mk.d && make`, true},
		{`echo x > sub/mk && cp sub/mk t && make -f t/sub/mk`, false},
		{`echo x > out.txt && npm test`, false},
		{`echo 'all:; rm -f ../c' > sub/config && make -C sub`, true},
		{`echo 'require("fs").unlinkSync("c")' > scripts/cfg && node scripts/build.js`, true},
		{`echo x > out/y && node x.js`, false},
		{`echo x > out/y && make -C sub`, false},
		{`echo 'run make, then git status' > n && tool n`, false},
		{`echo 'unlink "c"; 1' > settings && perl tool.pl`, true},
		{`printf 'all:\n\trm -f c\n' > local.cfg && make`, true},
		{`cp kit/cfg sub/cfg && cd sub && node app.js`, true},
		{`echo x > .env && make test`, true},
		{`echo '{}' > x.json && node app.js`, false},
		{`mkdir -p build out && make && node app.js`, false},
		{`make > build.log 2>&1`, false},
		{`node app.js > out.log 2> err.txt`, false},
		{`perl tool.pl > out.txt`, false},
		{`node app.js && echo x > notes.txt`, false},
		{`echo x > notes.txt && python3 x.py`, false},
	} {
		a := Analyze(tc.line, Options{Home: "/h", Workdir: "/w"})
		code := false
		for _, r := range a.Reasons {
			code = code || strings.Contains(r, "which the line writes")
		}
		if code != tc.opaque {
			t.Errorf("%q: opaque for written code %v, want %v (%q)", tc.line, code, tc.opaque, a.Reasons)
		}
	}
}
