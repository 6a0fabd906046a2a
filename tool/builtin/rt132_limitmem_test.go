package builtin_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// TestReadFileLimitOfAFileOfNewlinesStaysSmall (rt132files): read_file
// with limit split the whole text into lines first, one 16-byte string
// header a line, so a file of newlines at the size limit (bash: head -c
// 64M /dev/zero | tr '\0' '\n' > big) made one call allocate 20 times its
// size (1.2 GiB for the default 64 MiB), and a turn of parallel calls
// exhausted memory. A call may allocate a few times the file (8 under the race detector), no more; the
// ordinary limits keep their results (a look-alike of TestReadFileLimit).
func TestReadFileLimitOfAFileOfNewlinesStaysSmall(t *testing.T) {
	const size = 8 << 20
	e := newFileEnv(t, builtin.FileOptions{MaxFileBytes: size})
	if err := os.WriteFile(filepath.Join(e.dir, "big"), bytes.Repeat([]byte("\n"), size), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFile(t, e.path("f"), "1\n2\n3\n4\n5")
	for _, tt := range []struct {
		path  string
		limit int
		want  string
	}{
		{"big", 1, "\n... (8388608 more lines)"},
		{"big", 3, "\n\n\n... (8388606 more lines)"},
		{"f", 2, "1\n2\n... (3 more lines)"},
		{"f", 5, "1\n2\n3\n4\n5"},
		{"f", 6, "1\n2\n3\n4\n5"},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res := call(t, e.tool(t, "read_file"), map[string]any{"path": tt.path, "limit": tt.limit})
		runtime.ReadMemStats(&after)
		if res.Content != tt.want {
			t.Errorf("%s limit %d = %.80q, want %q", tt.path, tt.limit, res.Content, tt.want)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*size {
			t.Errorf("%s limit %d allocated %d MiB for a file of %d MiB", tt.path, tt.limit, alloc>>20, size>>20)
		}
	}
}
