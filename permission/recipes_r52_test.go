package permission_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/permission"
)

// TestR52RecipeIncludes: a makefile's include the gate could not read
// (larger than it reads, a FIFO, a name made of a variable, a name without
// an extension, standard input, a third include deep) ran a tsc the gate never saw: each line
// below was allowed after gate61 (review52g). A FIFO Makefile is decided at
// once.
func TestR52RecipeIncludes(t *testing.T) {
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	tsc := "x:\n\ttsc\n"
	files := map[string]string{
		"big/Makefile":  "include big.mk\nall:\n\techo\n",
		"big/big.mk":    tsc + strings.Repeat("#", 9<<20),
		"fifo/Makefile": "include f.mk\nall:\n\techo\n",
		"var/Makefile":  "X = v\ninclude $(X).mk\nall:\n\techo\n",
		"var/v.mk":      tsc,
		"bare/Makefile": "include common\nall:\n\techo\n",
		"bare/common":   tsc,
		"in/Makefile":   "include /dev/stdin\nall:\n\techo\n",
		"rel/Makefile":  "-include ../../../../../../../../dev/stdin\nall:\n\techo\n",
		"deep/Makefile": "include a.mk\nall:\n\techo\n",
		"deep/a.mk":     "include b.mk\n",
		"deep/b.mk":     "include c.mk\n",
		"deep/c.mk":     tsc,
		"ok/Makefile":   "include rules.mk\nall:\n\techo\n",
		"ok/rules.mk":   "CC = cc\n",
	}
	for name, text := range files {
		p := filepath.Join(wd, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(wd, "fifo", "f.mk"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(wd, "pipe"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(wd, "pipe", "Makefile"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: home})
	for _, line := range []string{
		`echo '{}' > tsconfig.json && make -C big`, `echo '{}' > tsconfig.json && make -C fifo`,
		`echo '{}' > tsconfig.json && make -C var`, `echo '{}' > tsconfig.json && make -C bare`,
		`echo '{}' > tsconfig.json && printf 'x:\n\ttsc\n' | make -C in`,
		`echo '{}' > tsconfig.json && printf 'x:\n\ttsc\n' | make -C rel`,
		`echo '{}' > tsconfig.json && make -C pipe`, `echo '{}' > tsconfig.json && make -C deep`,
	} {
		start := time.Now()
		if out := authorize(t, g, line); out.Run {
			t.Errorf("%q was allowed", line)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q took %v", line, d)
		}
	}
	for _, line := range []string{`make -C ok`, `echo '{}' > tsconfig.json && make -C ok`, `make -C var`, `make -C fifo`} {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("%q was refused: %+v", line, out.Verdict)
		}
	}
}
