package hook_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/hook"
)

func TestLayerPermissionSource(t *testing.T) {
	for _, tc := range []struct {
		layer hook.Layer
		want  string
	}{
		{hook.LayerGlobal, "user"},
		{hook.LayerProject, "project"},
		{hook.LayerProgrammatic, "host"},
		{"", "project"},
		{"other", "project"},
	} {
		if got := tc.layer.PermissionSource(); got != tc.want {
			t.Errorf("Layer(%q).PermissionSource() = %q, want %q", tc.layer, got, tc.want)
		}
	}
}

// The permission input of each command hook says where it was configured,
// so that a rule can tell the user's own hooks from a repository's.
func TestPermitInputCarriesWhereTheHookWasConfigured(t *testing.T) {
	workdir, paths := layout(t, "acme")
	global := filepath.Join(paths.Home, "hooks.json")
	project := filepath.Join(workdir, ".acme", "hooks.json")
	writeFile(t, global, `{"version":1,"hooks":{"run:start":[{"command":"echo mine"}]}}`)
	writeFile(t, project, `{"version":1,"hooks":{"run:start":[{"command":"echo theirs"}]}}`)
	cfg, err := hook.LoadFiles(t.Context(), paths)
	if err != nil {
		t.Fatal(err)
	}
	type input struct {
		Command    string `json:"command"`
		Source     string `json:"source"`
		ConfigFile string `json:"configFile"`
	}
	var mu sync.Mutex
	var asked []input
	r, err := hook.New(cfg, hook.Options{
		Workdir:      workdir,
		Programmatic: []hook.Hook{{Event: hook.EventRunStart, Command: "echo host"}},
		Permit: func(_ context.Context, req hook.PermitRequest) (bool, error) {
			var in input
			if err := json.Unmarshal(req.Input, &in); err != nil {
				t.Errorf("input %s: %v", req.Input, err)
			}
			mu.Lock()
			asked = append(asked, in)
			mu.Unlock()
			return false, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r.Fire(t.Context(), hook.RunStart{Identity: hook.Identity{RunID: "r", SessionID: "s", Source: hook.SourceUser}, Input: json.RawMessage(`"hi"`)})
	want := []input{
		{"echo mine", "user", global},
		{"echo theirs", "project", project},
		{"echo host", "host", ""},
	}
	if len(asked) != len(want) {
		t.Fatalf("asked %d times: %+v", len(asked), asked)
	}
	for i := range want {
		if asked[i] != want[i] {
			t.Errorf("permission input %d = %+v, want %+v", i, asked[i], want[i])
		}
	}
}
