//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"
)

// GNU chmod takes an option word made of mode letters (-x, -w+x, -s+x) as
// its mode, and then every operand is a file, as it is after --ref (an
// abbreviation of --reference), after chattr's -i and for setfacl. The
// analysis took the first operand for the mode instead, so the file was not seen as written or made
// executable: a data file of the project could be made a program and run,
// and a protected file's mode changed. Each line makes notes.txt, a
// project file that is not executable, a program and runs it; it removes
// the canary.
var canaryChmodMode = map[string][]string{
	"mode-option-then-run": {
		"chmod -w+x notes.txt && ./notes.txt",
		"chmod -v -s+x notes.txt; ./notes.txt",
		"chmod -X+x notes.txt; ./notes.txt",
		"chmod -w,+x notes.txt && ./notes.txt",
		"chmod -c -w+x -- notes.txt && ./notes.txt",
	},
	"mode-option-glob-or-runner": {
		"chmod -w+x note* && ./notes.txt",
		"chmod -t+x notes.txt && env ./notes.txt",
		"chmod -w+x notes.txt && timeout 5 ./notes.txt",
		"chmod -x+x notes.txt && nohup ./notes.txt",
	},
	// --ref is getopt's abbreviation of --reference: there is no mode
	// operand either, and bin/ls's mode is 0755.
	"reference-abbreviated": {
		"chmod --ref=bin/ls notes.txt && ./notes.txt",
		"chmod --refer=bin/ls notes.txt; ./notes.txt",
		"chmod -v --referen=bin/ls notes.txt && timeout 5 ./notes.txt",
	},
}

// Mode changes the canary cannot see, since they leave the bytes as they
// are: each writes a protected path or a program the line then runs.
var chmodModeRefused = []string{
	"chmod -w .git/config",
	"chmod -x .git/hooks/pre-commit",
	"chmod -v -w+x .git/hooks/pre-commit",
	"chmod -x node_modules/.bin/tsc && npx tsc",
	"chown --ref=README .git/config",
	"chgrp --refe=README .git/hooks",
	"chattr -i .git/config",
	"chattr -V +i .git/hooks/pre-commit",
	"setfacl -b .git/config",
	"setfacl -k -R .git/hooks",
}

var chmodModeOrdinary = []string{
	"chmod +x notes.txt",
	"chmod -x README",
	"chmod -w README sub/.keep",
	"chmod -R go-w sub",
	"chmod 600 README",
	"chmod -x README && ls -l README",
	"chmod --reference=README sub/.keep",
	"chown --ref=README sub/.keep",
	"setfacl -m u::rw README",
}

func TestCanaryChmodModeOption(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	work := filepath.Join(template, "work")
	if err := os.WriteFile(filepath.Join(work, "notes.txt"), []byte("/bin/rm -f c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(work, "node_modules", ".bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "node_modules", ".bin", "tsc"), []byte("#!/bin/sh\necho tsc\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	checkCanaryRoundIn(t, template, canaryChmodMode)
	root := canaryFixture(t, template)
	for _, line := range chmodModeRefused {
		refusedEverywhere(t, root, line)
	}
	checkOrdinary(t, template, chmodModeOrdinary, nil)
}
