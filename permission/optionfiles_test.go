package permission

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// A glob given to a command is expanded against the project: one that
// matches a file named like an option, from any directory the line works
// in, makes the line opaque; one that does not, or one given to a plain
// reader, does not.
func TestOptionFilesAreFoundWhereTheLineWorks(t *testing.T) {
	t.Parallel()
	wd := t.TempDir()
	for _, p := range []string{"sub/-delete", "sub/a.txt", "b.txt", "deep/x/-rf"} {
		if err := os.MkdirAll(filepath.Join(wd, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(wd, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := &Gate{workdir: wd}
	for _, tt := range []struct {
		line   string
		opaque bool
	}{
		{"tar cf /dev/null *", false},
		{"cd sub && tar cf /dev/null *", true},
		{"cd ./sub && find . -name c ?delete", true},
		{"cd sub/../sub && tar cf /dev/null *", true},
		{"cd deep/x && chmod 644 *", true},
		{"tar cf /dev/null sub/*", false},
		{"cd sub && ls *", false},
		{"cd sub && tar cf /dev/null *.txt", false},
	} {
		a := shellscan.Analyze(tt.line, shellscan.Options{Workdir: wd})
		if got := g.optionFiles(a) != ""; got != tt.opaque {
			t.Errorf("%q: opaque %v, want %v (%q)", tt.line, got, tt.opaque, g.optionFiles(a))
		}
	}
}
