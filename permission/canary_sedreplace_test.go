//go:build linux

package permission_test

import (
	"strings"
	"testing"
)

// canarySedReplace print, through an s command's replacement, a path the
// command's input does not hold, with its slashes escaped so that no
// word of the line shows it: round 106 left these open. Each printed the
// key in real bash, in a project without links, and was allowed.
var canarySedReplace = []string{
	`cat $(ls README | sed 's/.*/..\/home\/.ssh\/id_ed25519/')`,
	`cat $(ls README | sed 's/.*/..\x2fhome\x2f.ssh\x2fid_ed25519/')`,
	`ls README | sed 's/.*/..\/home\/.ssh\/id_ed25519/' | xargs cat`,
	`cat $(ls README | sed -e 's/x/y/;s/.*/..\/home\/.ssh\/id_ed25519/')`,
}

// sedReplaceOrdinary stay allowed there.
var sedReplaceOrdinary = []string{
	`git ls-files | sed 's,^,./,' | xargs wc -l`, `sed 's/\/usr\/local/\/opt/' README`,
	`ls doc | sed 's/^/doc\//' | xargs wc -l`,
}

// TestCanarySedReplace checks that each line prints the key in real bash
// and asks, and that the ordinary lines stay allowed.
func TestCanarySedReplace(t *testing.T) {
	t.Parallel()
	home, wd := unlinkedFixture(t)
	decide := secretDecider(t, home, wd)
	for _, line := range canarySedReplace {
		if out := runIn(t, home, wd, line); !strings.Contains(out, round84Key) {
			t.Errorf("%q printed no key: %q", line, out)
		}
	}
	wantDecisions(t, decide, canarySedReplace, sedReplaceOrdinary)
}
