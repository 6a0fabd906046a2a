package builtin_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/tool/builtin"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// A file whose name is up to NAME_MAX (255 bytes) long can be written,
// edited and written again: the temporary file beside it shortens the
// name to fit. Names of 238 bytes and more failed with "file name too
// long" (round rt132files). A short name keeps its whole name in the
// temporary one.
func TestChangesOfFilesWithLongNames(t *testing.T) {
	for _, name := range []string{
		"short.txt",
		strings.Repeat("a", 237),
		strings.Repeat("b", 238),
		strings.Repeat("c", 255),
		strings.Repeat("é", 127),                         // 254 bytes of two-byte characters
		strings.Repeat("d", 1) + strings.Repeat("€", 84), // 253 bytes, cut inside a three-byte character
	} {
		t.Run(fmt.Sprintf("%d bytes %.4s", len(name), name), func(t *testing.T) {
			e := newFileEnv(t, builtin.FileOptions{})
			if res := call(t, e.tool(t, "write_file"), map[string]any{"path": name, "content": "one\n"}); res.IsError {
				t.Fatalf("write_file of a %d-byte name: %s", len(name), res.Content)
			}
			if res := call(t, e.tool(t, "edit_file"), map[string]any{"path": name, "old_text": "one", "new_text": "two"}); res.IsError {
				t.Fatalf("edit_file of a %d-byte name: %s", len(name), res.Content)
			}
			if res := call(t, e.tool(t, "write_file"), map[string]any{"path": name, "content": "three\n"}); res.IsError {
				t.Fatalf("write_file over a %d-byte name: %s", len(name), res.Content)
			}
			if got := readFile(t, e.path(name)); got != "three\n" {
				t.Fatalf("%d-byte name holds %q", len(name), got)
			}
		})
	}
}

// TempName cuts at the start of a character and keeps ASCII names whole
// up to the limit.
func TestTempNameCutsAtACharacter(t *testing.T) {
	for _, base := range []string{"x" + strings.Repeat("€", 85), strings.Repeat("x", 300), "short"} {
		got := safefs.TempName(base, "0123456789ab")
		if len(got) > 255 || !strings.HasSuffix(got, ".0123456789ab.tmp") || !strings.HasPrefix(got, ".") {
			t.Errorf("TempName(%d bytes) = %d bytes %q", len(base), len(got), got)
		}
		if !utf8.ValidString(got) {
			t.Errorf("TempName(%d bytes) cut inside a character: %q", len(base), got)
		}
	}
}
