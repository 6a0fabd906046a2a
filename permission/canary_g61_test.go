//go:build linux

package permission_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryG61Recipes are projects whose recipe (a Makefile, build.ninja,
// package.json's scripts) runs hugo or doxygen, and lines that write the
// tool's settings file with an output directory in the home (HOMEDIR)
// before running the recipe: real make, ninja and npm ran hugo or doxygen,
// which created HOMEDIR/g61. Each was allowed by "allow bash" at stop 60.
var canaryG61Recipes = []struct {
	program string
	files   map[string]string
	line    string
}{
	{"hugo", map[string]string{"Makefile": "all:\n\thugo --quiet\n"},
		`printf 'baseURL = "/"\npublishDir = "HOMEDIR/g61"\n' > hugo.toml && make`},
	{"doxygen", map[string]string{"Makefile": "docs:\n\tdoxygen\n"},
		`printf 'OUTPUT_DIRECTORY = HOMEDIR/g61\nGENERATE_LATEX = NO\n' > Doxyfile && make docs`},
	{"ninja", map[string]string{"build.ninja": "rule h\n  command = hugo --quiet\nbuild always: h\n"},
		`printf 'baseURL = "/"\npublishDir = "HOMEDIR/g61"\n' > hugo.toml && ninja`},
	{"npm", map[string]string{"package.json": `{"name":"y","version":"1.0.0","scripts":{"docs":"doxygen"}}`},
		`printf 'OUTPUT_DIRECTORY = HOMEDIR/g61\nGENERATE_LATEX = NO\n' > Doxyfile && npm run docs`},
}

func TestCanaryG61Recipes(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "make", "ninja", "npm", "hugo", "doxygen")
	template := canaryTemplate(t)
	for i, c := range canaryG61Recipes {
		t.Run("recipe-"+string(rune('0'+i)), func(t *testing.T) {
			t.Parallel()
			prog, err := exec.LookPath(c.program)
			if err != nil {
				t.Fatal(err)
			}
			root := canaryFixture(t, template)
			home := filepath.Join(root, "home")
			files := map[string]string{"content/a.md": "---\ntitle: a\n---\nx\n", "a.c": "int a;\n"}
			for k, v := range c.files {
				files[k] = v
			}
			g57WriteWork(t, root, files)
			line := strings.ReplaceAll(c.line, "HOMEDIR", home)
			// The same line writing notes instead stays allowed.
			ordinary := strings.Replace(strings.Replace(line, "> hugo.toml", "> notes.txt", 1), "> Doxyfile", "> notes.txt", 1)
			if out := authorize(t, canaryGate(t, root, canaryAllowBashRules), ordinary); !out.Run {
				t.Errorf("ordinary line %q was refused: %+v", ordinary, out.Verdict)
			}
			refusedEverywhere(t, root, line)
			out := runLine(t, root, line, 2*time.Minute, filepath.Dir(prog))
			if _, err := os.Stat(filepath.Join(home, "g61")); err != nil {
				t.Errorf("%q did not write the home when run (%v):\n%s", line, err, out)
			}
		})
	}
}

// g61Newc returns a cpio archive (newc format) of the files, by name.
func g61Newc(files ...string) []byte {
	var out []byte
	pad := func() {
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	add := func(name, data string) {
		h := fmt.Sprintf("070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
			1, 0o100644, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name)+1, 0)
		out = append(append(append(out, h...), name...), 0)
		pad()
		out = append(out, data...)
		pad()
	}
	for _, f := range files {
		add(f, "g61\n")
	}
	add("TRAILER!!!", "")
	return out
}

// TestCanaryG61Extractors: aunpack of a cpio archive whose member is an
// absolute path writes it there (real atool 0.39 with GNU cpio 2.13 wrote
// HOMEDIR/g61.txt); it was allowed by "allow bash" at stop 60, as atool -x
// was. The list of the same archive stays allowed.
func TestCanaryG61Extractors(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "aunpack", "atool", "cpio")
	template := canaryTemplate(t)
	for i, line := range []string{"aunpack e.cpio", "atool -x e.cpio"} {
		t.Run("extract-"+string(rune('0'+i)), func(t *testing.T) {
			t.Parallel()
			root := canaryFixture(t, template)
			home := filepath.Join(root, "home")
			if err := os.WriteFile(filepath.Join(root, "work", "e.cpio"), g61Newc(filepath.Join(home, "g61.txt"), "z"), 0o644); err != nil {
				t.Fatal(err)
			}
			if out := authorize(t, canaryGate(t, root, canaryAllowBashRules), "atool -l e.cpio"); !out.Run {
				t.Errorf("ordinary line atool -l was refused: %+v", out.Verdict)
			}
			refusedEverywhere(t, root, line)
			out := runLine(t, root, line, time.Minute, "/usr/bin")
			if _, err := os.Stat(filepath.Join(home, "g61.txt")); err != nil {
				t.Errorf("%q did not write the home when run (%v):\n%s", line, err, out)
			}
		})
	}
}
