//go:build linux

package permission_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRT60 are lines of round redteam60 that change the home when run
// and "allow bash" allowed before: pydoc3 imports the module the line
// wrote, isympy runs the code of its standard input, a docutils front end
// writes the warning_stream a written docutils.conf names, a pandoc
// filter that is a shell runs the file named by the output format,
// ipython3 profile create writes ~/.ipython and lesskey writes ~/.less.
// programs lists the names the row may run under ({prog} in the line),
// the first installed one used (Debian's rst2html, pip's rst2html.py),
// whose directory leads PATH.
var canaryRT60 = []struct {
	programs []string
	line     string
}{
	{[]string{"pydoc3"}, `printf 'import os\nos.system("touch ../home/pwn-pydoc")\n' > rt60mod.py; {prog} rt60mod`},
	{[]string{"isympy"}, `printf 'import os\nos.system("touch ../home/pwn-isympy")\n' | {prog}`},
	{[]string{"rst2html", "rst2html.py"}, `printf '[general]\nwarning_stream: ../home/w\n' > docutils.conf; printf 'T\n=\n\n.. bogus::\n' > c.rst; {prog} c.rst out.html`},
	{[]string{"pandoc"}, `printf 'touch ../home/pwn-pandoc\n' > html; {prog} --filter=sh README -t html`},
	{[]string{"ipython3"}, `{prog} profile create --reset`},
	{[]string{"lesskey"}, `printf '#env\nLESSOPEN=|touch ../home/pwn-less %%s\n' > k; {prog} k`},
}

// TestCanaryRT60 runs each line whose program is installed in a fresh
// fixture: it must change the home when run, and be refused by both
// scenarios.
func TestCanaryRT60(t *testing.T) {
	t.Parallel()
	template := canaryTemplate(t)
	for _, c := range canaryRT60 {
		prog, dir := "", ""
		for _, p := range c.programs {
			if found, err := exec.LookPath(p); err == nil {
				prog, dir = p, filepath.Dir(found)
				break
			}
		}
		line := strings.ReplaceAll(c.line, "{prog}", prog)
		if prog == "" {
			tooltest.LeftOut(t, fmt.Sprintf("none of %v is installed: %q is left out", c.programs, line), tooltest.CanaryTools)
			continue
		}
		root := canaryFixture(t, template)
		checkRT57Attack(t, root, line, 90*time.Second, dir)
	}
}
