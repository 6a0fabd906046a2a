package permission_test

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestBindTakesTheAgentsFilesOnlyWhereLeftZero checks that Bind resolves
// the rule files again with the agent's workdir and storage in the fields
// a policy was made without, keeps the policy unchanged when the new files
// do not load (a *ConfigError) or a given field differs (a *BindError),
// and refuses another project once bound.
func TestBindTakesTheAgentsFilesOnlyWhereLeftZero(t *testing.T) {
	p := newProject(t)
	p.write("home/permissions.json", rules(`{"tool":"usr","effect":"deny"}`))
	p.write("work/.acme/permissions.json", rules(`{"tool":"prj","effect":"deny"}`, `{"tool":"oops"`))
	fp := p.policy(permission.FileOptions{HomeDir: filepath.Join(p.root, "userhome"), Default: allow})
	before := fp.Sources()
	acme := storage.Options{Namespace: "acme", Home: p.home}

	// A broken file at the agent's paths: nothing changes.
	var ce *permission.ConfigError
	if err := fp.Bind(p.workdir, acme); !errors.As(err, &ce) {
		t.Fatalf("Bind with a broken project file = %v, want a *permission.ConfigError", err)
	}
	if got := fp.Sources(); got[0] != before[0] || got[1] != before[1] {
		t.Fatalf("a failed Bind changed the sources: %+v", got)
	}
	if got := check(t, fp, call("usr", `{}`)); got.Decision != allow {
		t.Errorf("before a successful Bind, usr = %+v", got)
	}

	p.write("work/.acme/permissions.json", rules(`{"tool":"prj","effect":"deny"}`))
	if err := fp.Bind(p.workdir, acme); err != nil {
		t.Fatal(err)
	}
	want := []permission.Source{
		{Layer: permission.LayerUser, Path: filepath.Join(p.home, "permissions.json")},
		{Layer: permission.LayerProject, Path: filepath.Join(p.workdir, ".acme", "permissions.json")},
	}
	if got := fp.Sources(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("Sources after Bind = %+v, want %+v", got, want)
	}
	for _, tool := range []string{"usr", "prj"} {
		if got := check(t, fp, call(tool, `{}`)); got.Decision != deny {
			t.Errorf("after Bind, %s = %+v, want deny", tool, got)
		}
	}
	// Relative rule paths and self-protection follow the new workdir.
	if got := check(t, fp, call("write_file", `{"path":".acme/permissions.json"}`)); got.Layer != permission.LayerSelfProtection {
		t.Errorf("the bound project file is not protected: %+v", got)
	}
	if err := fp.Bind(p.workdir, acme); err != nil {
		t.Errorf("Bind to the same values again = %v", err)
	}
	for _, tc := range []struct {
		workdir string
		st      storage.Options
		field   string
	}{
		{p.root, acme, "Workdir"},
		{p.workdir, storage.Options{Namespace: "other", Home: p.home}, "Storage.Namespace"},
		{p.workdir, storage.Options{Namespace: "acme", Home: p.root}, "Storage.Home"},
	} {
		var be *permission.BindError
		if err := fp.Bind(tc.workdir, tc.st); !errors.As(err, &be) || be.Field != tc.field {
			t.Errorf("Bind(%s, %+v) = %v, want a *permission.BindError for %s", tc.workdir, tc.st, err, tc.field)
		}
	}
}

// TestBindWhileChecking runs Bind while other goroutines check calls; run
// it with -race.
func TestBindWhileChecking(t *testing.T) {
	p := newProject(t)
	p.write("home/permissions.json", rules(`{"tool":"usr","effect":"deny"}`))
	fp := p.policy(permission.FileOptions{HomeDir: filepath.Join(p.root, "userhome"), Default: allow})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				_, _ = fp.Check(t.Context(), call("write_file", `{"path":"x"}`))
				_ = fp.Sources()
			}
		})
	}
	if err := fp.Bind(p.workdir, storage.Options{Home: p.home}); err != nil {
		t.Error(err)
	}
	wg.Wait()
	if got := check(t, fp, call("usr", `{}`)); got.Decision != deny {
		t.Errorf("after Bind, usr = %+v", got)
	}
}
