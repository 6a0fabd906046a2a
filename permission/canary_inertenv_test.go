//go:build linux

package permission_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryInertEnvironment are attacks that set the variables the analysis
// lets a line set (shellscan's inert environment) beside what does the
// damage, or set them with values that are more than a word, or set one
// more variable that is not inert, and attacks that use what a plain
// read -r took from its input. Each does damage when run in the
// fixture, so each must still be refused by both scenarios.
var canaryInertEnvironment = map[string][]string{
	"inert-beside-damage": {
		`LANG=C rm -f c`,
		`env LC_ALL=C find . -name c -delete`,
		`export TZ=UTC; echo x > .git/config`,
		`DEBUG=1 bash -c 'rm -f c'`,
		`NODE_ENV=production CI=true node -e 'require("fs").unlinkSync("c")'`,
	},
	"one-more-variable": {
		`GOOS=linux GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f c; false' git status`,
		`env CI=true GIT_CONFIG_PARAMETERS="'core.fsmonitor=rm -f c; false'" git status`,
		`export FORCE_COLOR=1 BASH_ENV=./y; echo 'rm -f c' > y && bash -c :`,
		`echo 'require("fs").unlinkSync("c")' > y.js && CI=true NODE_OPTIONS='--require ./y.js' npm --version`,
	},
	"plain-read": {
		`echo c | while read -r f; do rm -f "$f"; done`,
		`echo .git/config | while IFS= read -r f; do echo x > "$f"; done`,
		`echo 'a[$(rm -f c)]' | while read -r x; do (( x )); done`,
		`read -r x <<< 'a[$(rm -f c)]'; echo $((x))`,
		`echo c | while IFS=, read -r f g; do find . -name "$f" -delete; done`,
		`read -r x <<< 'rm -f c'; $x`,
	},
	"values-beyond-a-word": {
		`LANG=$(rm -f c) ls`,
		"TZ=`rm -f c` date",
		`env DEBUG="$(rm -f c)" ls`,
		`export CI=$(rm -f c); ls`,
	},
}

// canaryInertEnvironmentOrdinary are lines that set only inert variables
// to plain words, which the "allow bash" policy allows.
var canaryInertEnvironmentOrdinary = []string{
	"LC_ALL=C sort README", "TZ=UTC date", "env LANG=C.UTF-8 ls -la", "export CI=true && git status",
	"NO_COLOR=1 FORCE_COLOR=0 ls", "DEBUG=1 git status --short",
	`while IFS= read -r line; do echo "$line"; done < README`, `read -r first < README && echo "$first"`,
	`git status --short | while read -r st f; do echo "$f"; done`,
}

func TestCanaryInertEnvironment(t *testing.T) {
	t.Parallel()
	template := checkCanaryRound(t, canaryInertEnvironment)
	checkOrdinary(t, template, canaryInertEnvironmentOrdinary, nil)
}

// canaryInertLocale are attacks that set a locale variable to a locale
// whose character set takes ASCII bytes as the second byte of a character
// (BIG5, GBK, GB18030, SJIS): bash, and the programs it runs, then read
// "中\" (E4 B8 AD 5C) as two characters, the second one swallowing the
// backslash the analysis takes as an escape. They run where such a locale
// is installed (see canaryLocaleDir).
var canaryInertLocale = map[string][]string{
	"locale-charset": {
		"LC_ALL=zh_TW.BIG5\necho \"中\\\"; rm -f c; echo \"中\\\"",
		"LC_ALL=zh_TW.BIG5 bash -c 'echo \"中\\\"; rm -f c; echo \"中\\\"'",
		"env LC_ALL=zh_TW.BIG5 bash -c 'echo \"中\\\"; find . -name c -delete; echo \"中\\\"'",
		"export LANG=zh_TW.BIG5\necho \"中\\\"; echo x > .git/config; echo \"中\\\"",
		"LC_CTYPE=zh_TW.BIG5\necho \"中\\\" > out.txt; echo x > ~/.bashrc; echo \"中\\\"",
		"LANG=zh_TW bash -c 'echo \"中\\\"; rm -f c; echo \"中\\\"'",
		"LC_ALL= LC_CTYPE=zh_TW.BIG5 bash -c 'echo \"中\\\"; rm -f c; echo \"中\\\"'",
	},
}

// canaryInertLocaleOrdinary are lines that set locale variables to C,
// POSIX or UTF-8 locales, which the "allow bash" policy allows.
var canaryInertLocaleOrdinary = []string{
	"LC_ALL=C sort README", "LANG=C.UTF-8 ls", "LC_ALL=C.utf8 wc -l README", "LC_ALL=POSIX ls -la",
	"LANG=en_US.UTF-8 git status", "export LANG=C.UTF-8 && ls", "env LC_ALL=en_US.utf8 sort README",
	"LC_MESSAGES=C git status", "LC_TIME=en_GB.UTF-8 date", "LC_NUMERIC=C.UTF-8 ls", "LANGUAGE=de ls",
	"LC_ALL= LANG=C.UTF-8 ls", "LC_COLLATE=C ls", "LC_ALL=C\nls -la",
}

// canaryLocaleDir compiles the BIG5 locale zh_TW.BIG5 into a directory
// for LOCPATH, as a system that has it installed would hold it, and
// returns the directory. When localedef or the locale's sources are
// missing it skips naming scripts/install-canary-tools.sh (fails under CI).
func canaryLocaleDir(t *testing.T) string {
	t.Helper()
	tooltest.Need(t, tooltest.CanaryTools, "localedef")
	if _, err := os.Stat("/usr/share/i18n/locales/zh_TW"); err != nil {
		tooltest.Missing(t, "the zh_TW locale source is not installed", tooltest.CanaryTools)
	}
	dir := t.TempDir()
	cmd := exec.Command("localedef", "-i", "zh_TW", "-f", "BIG5", filepath.Join(dir, "zh_TW.BIG5"))
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C"}
	out, err := cmd.CombinedOutput()
	if _, serr := os.Stat(filepath.Join(dir, "zh_TW.BIG5", "LC_CTYPE")); serr != nil {
		t.Fatalf("localedef: %v\n%s", err, out)
	}
	// zh_TW, with no character set named, is the same BIG5 locale.
	if err := os.Symlink("zh_TW.BIG5", filepath.Join(dir, "zh_TW")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestCanaryInertLocale runs the locale attacks where zh_TW.BIG5 is
// installed: each must do damage there and be refused by both scenarios.
func TestCanaryInertLocale(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	locpath := "LOCPATH=" + canaryLocaleDir(t)
	template := canaryTemplate(t)
	checkOrdinary(t, template, canaryInertLocaleOrdinary, nil)
	for class, lines := range canaryInertLocale {
		for _, line := range lines {
			root := canaryFixture(t, template)
			allowedBy := allowingScenarios(t, root, line)
			before := canarySnapshot(t, root)
			runLine(t, root, line, 3*time.Second, "", locpath)
			p := strings.TrimPrefix(changed(before, canarySnapshot(t, root)), root)
			if p == "" {
				t.Errorf("class %s: %q did no damage when run (allowed by %v)", class, line, allowedBy)
			}
			if len(allowedBy) > 0 {
				t.Errorf("class %s: %q was allowed by %v (changed %q)", class, line, allowedBy, p)
			}
		}
	}
}

// canaryGlobMatch are attacks that write through a link in the workdir
// to .git (dotgit, and dötgit, see TestCanaryGlobMatch) by a pattern
// bash matches and Go's filepath.Glob does not: "[!x]" negates in bash
// and is a class of "!" and "x" in Go, and in the C locale bash's "?"
// matches one byte, two of which are "ö". LC_ALL=C, which the analysis
// understands, switches a UTF-8 shell to the C locale.
var canaryGlobMatch = map[string][]string{
	"glob-negation": {
		"echo x | tee dotgi[!x]/config",
		"cp README dotgi[!.]/config",
		"echo x | tee dotgi[!a-s]/config",
		"echo x | tee dotg[!x][!x]/config",
		"echo x | tee hook[!x]/pre-commit.sample",
	},
	"glob-bytes": {
		"echo x | tee d??tgit/config",
		"LC_ALL=C\necho x | tee d??tgit/config",
		"LC_ALL=C; cp README d??tgit/config",
		"export LANG=C LC_ALL=; echo x | tee d?[!x]tgit/config",
		"LC_ALL=C; echo x | tee d[ö][ö]tgit/config",
		"LC_ALL=POSIX; echo x | tee d*?tgit/config",
	},
}

// canaryGlobMatchOrdinary are pattern lines near the attacks that the
// "allow bash" policy allows.
var canaryGlobMatchOrdinary = []string{
	"sed -i s/a/b/ READM?", "sed -i s/a/b/ [!.]EADME", "LC_ALL=C; sed -i s/a/b/ R*", "cp README su[!x]/",
	"LC_ALL=C; ls d??tgit", "cat d??tgit/config", "echo x | tee su?/out.txt", "LC_ALL=C; sed -i s/r/R/ ?EADME",
	"wc -l [[:upper:]]EADME", "LC_ALL=C\nsed -i s/a/b/ RE[A]DME",
}

// TestCanaryGlobMatch runs the pattern attacks in a fixture that also
// holds dötgit, a link to .git with a name outside ASCII, in the C locale
// (the fixture's) and in C.UTF-8: where an attack does damage it must be
// refused by both scenarios, and each must do damage in one of the two.
func TestCanaryGlobMatch(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git")
	template := canaryTemplate(t)
	fixture := func() string {
		root := canaryFixture(t, template)
		if err := os.Symlink(".git", filepath.Join(root, "work", "dötgit")); err != nil {
			t.Fatal(err)
		}
		return root
	}
	g := canaryGate(t, fixture(), canaryAllowBashRules)
	for _, line := range canaryGlobMatchOrdinary {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
	for class, lines := range canaryGlobMatch {
		for _, line := range lines {
			damaged := false
			for _, env := range []string{"LANG=C", "LANG=C.UTF-8"} {
				root := fixture()
				allowedBy := allowingScenarios(t, root, line)
				before := canarySnapshot(t, root)
				runLine(t, root, line, 3*time.Second, "", env)
				p := strings.TrimPrefix(changed(before, canarySnapshot(t, root)), root)
				if p != "" {
					damaged = true
					if len(allowedBy) > 0 {
						t.Errorf("class %s, %s: %q was allowed by %v (changed %q)", class, env, line, allowedBy, p)
					}
				}
			}
			if !damaged {
				t.Errorf("class %s: %q did no damage when run", class, line)
			}
		}
	}
}
