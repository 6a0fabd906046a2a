//go:build linux

package builtin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// gatedSearchTools returns the search tools of ws behind a gate on
// policy, with the Readable filter an agent gives them: the policy's
// read_file verdict.
func gatedSearchTools(t *testing.T, ws string, policy permission.Policy) []tool.Tool {
	t.Helper()
	readable := func(ctx context.Context, sessionID, p string) (bool, error) {
		input, err := json.Marshal(map[string]string{"path": p})
		if err != nil {
			return false, err
		}
		v, err := policy.Check(ctx, permission.Call{Name: "read_file", Input: input, SessionID: sessionID})
		return err == nil && v.Decision == permission.Allow, err
	}
	search, err := builtin.SearchTools(builtin.FileOptions{Workdir: ws}, builtin.SearchOptions{Readable: readable})
	if err != nil {
		t.Fatal(err)
	}
	return permission.NewGate(permission.GateOptions{Policy: policy}).WrapAll(search)
}

// TestASearchThroughAFlippedDirectoryNeverReadsADeniedFile (rt132files):
// a child process flips "d" between a plain directory and a symbolic link
// to the denied "secrets/" (a link inside the workspace, as a cloned
// repository or a `git checkout` loop between two branches plants it) in
// a tight loop, while grep searches d/key and d, and list_dir lists d,
// behind the gate and with the read_file filter an agent gives them. The
// gate and the filter judge the names as they are at their check; grep
// then opened what the name led to, following a link that stays inside
// the workspace: no result may show the secret. The same searches of a
// directory that stays put find its lines, as before.
func TestASearchThroughAFlippedDirectoryNeverReadsADeniedFile(t *testing.T) {
	ws := t.TempDir()
	for _, d := range []string{"secrets", "d", "plain"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(ws, "secrets", "key"), "SECRET=key")
	writeFile(t, filepath.Join(ws, "d", "key"), "plain key")
	writeFile(t, filepath.Join(ws, "plain", "key"), "plain key")
	symlink(t, "secrets", filepath.Join(ws, "dl"))
	policy, _ := gatedFileTools(t, ws)
	tools := gatedSearchTools(t, ws, policy)

	// The ordinary case first, before anything flips.
	for _, c := range []struct{ tool, in, want string }{
		{"grep", `{"pattern":"key","path":"plain/key"}`, "plain/key:1: plain key"},
		{"grep", `{"pattern":"key","path":"plain"}`, "plain/key:1: plain key"},
		{"grep", `{"pattern":"key","path":"d"}`, "d/key:1: plain key"},
		{"list_dir", `{"path":"plain"}`, "key (file, 9 bytes)"},
	} {
		if res := call(t, byName(t, tools, c.tool), c.in); res.IsError || !strings.Contains(res.Content, c.want) {
			t.Errorf("%s %s = %q, want %q", c.tool, c.in, res.Content, c.want)
		}
	}
	for _, in := range []string{`{"pattern":"SECRET","path":"dl/key"}`, `{"pattern":"SECRET","path":"dl"}`} {
		if res := call(t, byName(t, tools, "grep"), in); strings.Contains(res.Content, "SECRET") {
			t.Errorf("grep %s through the link itself = %q, want the secret left out", in, res.Content)
		}
	}

	startSwapper(t, filepath.Join(ws, "d"), filepath.Join(ws, "dl"))
	steps := []struct{ tool, in string }{
		{"grep", `{"pattern":"key","path":"d/key"}`},
		{"grep", `{"pattern":"key","path":"d"}`},
		{"grep", `{"pattern":"key","path":"d","include":"key"}`},
	}
	const rounds = 1500
	var calls, found, leaks int
	for range rounds {
		for _, s := range steps {
			res := call(t, byName(t, tools, s.tool), s.in)
			calls++
			if strings.Contains(res.Content, "plain key") {
				found++
			}
			if strings.Contains(res.Content, "SECRET") {
				leaks++
				if leaks <= 3 {
					t.Errorf("%s %s returned a denied file: %q", s.tool, s.in, res.Content)
				}
			}
		}
	}
	t.Logf("%d calls, %d found the plain key, %d returned the secret", calls, found, leaks)
	if leaks > 0 {
		t.Errorf("%d of %d searches returned a file the gate denies", leaks, calls)
	}
	if found == 0 {
		t.Errorf("no search found the plain key in %d: the test exercised nothing", calls)
	}
}
