package permission

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// TestAnApprovedCallInAnotherCaseRunsOnAVolumeThatIgnoresCase
// (review65f): on a volume that ignores letter case (macOS, Windows) the
// workspace resolver gives rules the real path in the case of the names
// on disk, while the file tools open the name in the case the model (or
// the configured workdir) spelled it: the same file. The check of what a
// tool opened must see that, and not refuse an approved write_file of
// "README.MD" over README.md as "changed after the permission check".
// A folding resolver is forced here, as on such a volume, with the real
// file tools on a temporary (case-sensitive) workspace, where writing
// README.MD makes a second file: the path checks are the same. A link
// flipped to a denied file after the approval is still refused.
func TestAnApprovedCallInAnotherCaseRunsOnAVolumeThatIgnoresCase(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"README.md": "readme", ".env": "SECRET=env", "ok.txt": "ok"} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inner, err := New(Options{
		Rules: []Rule{{ID: "env", Tool: []string{"read_file"}, Effect: Deny, When: map[string]Condition{"path": Glob("**/.env")}}},
		Ask:   []string{"write_file", "read_file"},
		Allow: []string{"*"},
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := newFSResolver(ws, ws)
	if err != nil {
		t.Fatal(err)
	}
	r.fold = true // as on a volume that ignores case
	var flip func()
	approve := func(ctx context.Context, req ApprovalRequest) (Decision, error) {
		if flip != nil {
			flip()
		}
		return Allow, nil
	}
	gate := NewGate(GateOptions{Policy: &workspacePolicy{p: inner, r: r}, Approve: approve, Queue: NewApprovalQueue()})
	files, err := builtin.FileTools(builtin.FileOptions{Workdir: ws})
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]tool.Tool{}
	for _, f := range gate.WrapAll(files) {
		tools[f.Name()] = f
	}
	failures := 0
	for _, p := range []string{"README.md", "README.MD", "Notes/a.txt", "NOTES/A.TXT"} {
		in, _ := json.Marshal(map[string]string{"path": p, "content": "approved"})
		res, err := tools["write_file"].Call(context.Background(), &tool.Call{ID: "1"}, in)
		if err != nil || res.IsError {
			failures++
			t.Errorf("approved write_file %s: %q, %v", p, res.Content, err)
		}
	}
	// Still refused: ok.txt made a link to .env between the approval and
	// the open.
	flip = func() {
		_ = os.Remove(filepath.Join(ws, "ok.txt"))
		_ = os.Symlink(".env", filepath.Join(ws, "ok.txt"))
	}
	res, err := tools["read_file"].Call(context.Background(), &tool.Call{ID: "2"}, json.RawMessage(`{"path":"ok.txt"}`))
	if err != nil || strings.Contains(res.Content, "SECRET") || !strings.Contains(res.Content, "blocked by policy") {
		failures++
		t.Errorf("read_file ok.txt flipped to a link to .env after the approval: %q, %v", res.Content, err)
	}
	t.Logf("%d failures", failures)
}
