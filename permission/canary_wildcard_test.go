//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"
)

// canaryWildcardInjection are ordinary-looking lines whose glob, in a
// project that ships files named like options (a cloned repository's
// --checkpoint-action=exec=sh y and -delete), hands those names to the
// command as options: tar runs y, find deletes what it finds. Each does
// damage when run in the fixture below, so each must be refused by both
// scenarios.
var canaryWildcardInjection = map[string][]string{
	"wildcard-injection": {
		`tar cf /dev/null *[1y]`,
		`tar -cf out.tar *[1y]`,
		`find . -name c ?delete`,
		`find . -name c [-]d*`,
	},
}

// TestCanaryWildcardInjection runs the lines in a fixture whose project
// holds --checkpoint=1, --checkpoint-action=exec=sh y (y removes the
// canary) and -delete, as a cloned repository may.
func TestCanaryWildcardInjection(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	work := filepath.Join(template, "work")
	for name, body := range map[string]string{
		"--checkpoint=1": "", "--checkpoint-action=exec=sh y": "", "-delete": "", "y": "rm -f c\n",
	} {
		if err := os.WriteFile(filepath.Join(work, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkCanaryRoundIn(t, template, canaryWildcardInjection)
	checkOrdinary(t, template, []string{"tar cf /dev/null README", "ls *", "cat y", "find . -name '*.md'"}, nil)
}
