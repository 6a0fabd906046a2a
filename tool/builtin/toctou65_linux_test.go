//go:build linux

package builtin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestALinkFlippedAfterTheGateIsNotFollowedToADeniedFile (files65): a child
// process flips "ok.txt" between a plain file and a symbolic link to the
// denied ".env", and "d" between a plain directory and a link to the
// denied "secrets/", in a tight loop, while the model calls read_file on
// ok.txt and d/key and write_file and edit_file on them, behind a gate
// that denies .env and secrets/. The gate checks the name as it is at the
// check; the tool must check what it opened: no read may return the
// secrets, and they must keep their content.
func TestALinkFlippedAfterTheGateIsNotFollowedToADeniedFile(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "secrets"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(ws, ".env"), "SECRET=env")
	writeFile(t, filepath.Join(ws, "secrets", "key"), "SECRET=key")
	writeFile(t, filepath.Join(ws, "ok.txt"), "plain ok")
	writeFile(t, filepath.Join(ws, "d", "key"), "plain key")
	symlink(t, ".env", filepath.Join(ws, "okl"))
	symlink(t, "secrets", filepath.Join(ws, "dl"))
	_, tools := gatedFileTools(t, ws)
	startSwapper(t, filepath.Join(ws, "ok.txt"), filepath.Join(ws, "okl"))
	startSwapper(t, filepath.Join(ws, "d"), filepath.Join(ws, "dl"))

	steps := []struct {
		tool  string
		input map[string]any
	}{
		{"read_file", map[string]any{"path": "ok.txt"}},
		{"read_file", map[string]any{"path": "d/key"}},
		{"write_file", map[string]any{"path": "ok.txt", "content": "written ok"}},
		{"edit_file", map[string]any{"path": "d/key", "old_text": "key", "new_text": "key"}},
		{"write_file", map[string]any{"path": "d/key", "content": "written key"}},
	}
	const rounds = 500
	var calls, reads, okReads, leaks int
	for range rounds {
		for _, s := range steps {
			res := call(t, byName(t, tools, s.tool), s.input)
			calls++
			if s.tool == "read_file" {
				reads++
				if !res.IsError {
					okReads++
				}
			}
			if strings.Contains(res.Content, "SECRET") {
				leaks++
				if leaks <= 3 {
					t.Errorf("%s %v returned a denied file: %q", s.tool, s.input, res.Content)
				}
			}
		}
	}
	if got := readFile(t, filepath.Join(ws, ".env")); got != "SECRET=env" {
		t.Errorf(".env is now %q", got)
	}
	if got := readFile(t, filepath.Join(ws, "secrets", "key")); got != "SECRET=key" {
		t.Errorf("secrets/key is now %q", got)
	}
	t.Logf("%d calls (%d reads, %d succeeded), %d returned a secret", calls, reads, okReads, leaks)
	if leaks > 0 {
		t.Errorf("%d of %d reads returned a file the gate denies", leaks, reads)
	}
	if okReads == 0 {
		t.Errorf("no read succeeded in %d: the test exercised nothing", reads)
	}
}

// TestALinkThatStaysPutIsReadAsBefore (files65): a symbolic link inside
// the workspace to another file inside it reads through read_file behind
// the gate when neither name is denied, and a link to a denied file is
// blocked by the gate itself, as before the check of what was opened.
func TestALinkThatStaysPutIsReadAsBefore(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(ws, ".env"), "SECRET=env")
	writeFile(t, filepath.Join(ws, "docs", "a.md"), "doc a")
	symlink(t, "docs/a.md", filepath.Join(ws, "a.md"))
	symlink(t, "docs", filepath.Join(ws, "d"))
	symlink(t, ".env", filepath.Join(ws, "env"))
	_, tools := gatedFileTools(t, ws)
	read := byName(t, tools, "read_file")
	for _, p := range []string{"a.md", "d/a.md", "docs/a.md"} {
		if res := call(t, read, map[string]any{"path": p}); res.IsError || res.Content != "doc a" {
			t.Errorf("read_file %s: %q", p, res.Content)
		}
	}
	if res := call(t, read, map[string]any{"path": "env"}); !res.IsError || strings.Contains(res.Content, "SECRET") {
		t.Errorf("read_file env (a link to .env): %q", res.Content)
	}
}
