//go:build linux

package permission_test

import (
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRT59Settings are lines that write a settings file naming a
// command to run or a directory in the home to write, then run the
// program that reads it where it runs: Doxygen's INPUT_FILTER, hugo's
// publishDir, autoconf's m4_esyscmd, pandoc's defaults file and its
// output-file, pytest -c's cache_dir. Each changes the home. "allow bash"
// allowed each before. latexmk's -e (Perl run at start) was confirmed by
// hand and is in TestRedteam59SettingsNameCode; it has no row here:
// Debian's latexmk brings TeX Live, too much for the canary script.
var canaryRT59Settings = []struct {
	program string
	line    string
}{
	{"doxygen", `printf 'INPUT = README\nINPUT_FILTER = "touch ../home/pwn-doxygen"\nGENERATE_LATEX = NO\nOUTPUT_DIRECTORY = out\n' > Doxyfile && doxygen`},
	{"doxygen", `printf 'INPUT = README\nGENERATE_LATEX = NO\nOUTPUT_DIRECTORY = ../home/doc\n' > d.cfg; doxygen d.cfg`},
	{"hugo", `printf 'baseURL = "http://x/"\npublishDir = "../home/site"\n' > hugo.toml && hugo`},
	{"autoconf", `printf 'AC_INIT([x],[1])\nm4_esyscmd([touch ../home/pwn-autoconf])\nAC_OUTPUT\n' > configure.ac && autoconf`},
	{"pandoc", `printf 'output-file: ../home/out.html\n' > d.yaml && pandoc -d d.yaml README`},
	{"pytest", `printf '[pytest]\ncache_dir = ../home/pc\n' > other.ini && pytest -q -c other.ini sub`},
}

// TestCanaryRT59Settings runs each line whose program is installed in a
// fresh fixture: it must change the home when run, and be refused by both
// scenarios.
func TestCanaryRT59Settings(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	for _, c := range canaryRT59Settings {
		if _, err := exec.LookPath(c.program); err != nil {
			tooltest.LeftOut(t, fmt.Sprintf("%s is not installed: %q is left out", c.program, c.line), tooltest.CanaryTools)
			continue
		}
		root := canaryFixture(t, template)
		checkRT57Attack(t, root, c.line, 60*time.Second, "")
	}
}
