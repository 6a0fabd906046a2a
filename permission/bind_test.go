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

// TestAnUnboundFilePolicyReadsNothingBeforeBindOrUse checks that
// NewUnboundFilePolicy reads no rule file: broken files at the paths of its
// options fail neither it nor Status; Bind to good paths loads only those;
// and an unbound policy used directly loads its own files on the first
// Check, whose error is the *ConfigError naming the broken file, and keeps
// failing closed until the file is fixed.
func TestAnUnboundFilePolicyReadsNothingBeforeBindOrUse(t *testing.T) {
	p := newProject(t)
	brokenFile := p.write("home/permissions.json", rules(`{"tool":`))
	opts := p.opts()
	opts.Default = allow
	fp, err := permission.NewUnboundFilePolicy(opts)
	if err != nil {
		t.Fatalf("NewUnboundFilePolicy read a rule file: %v", err)
	}
	if st := fp.Status(); st.Err != nil || st.Files != nil || !st.LoadedAt.IsZero() {
		t.Errorf("Status before any load = %+v, want the zero Status", st)
	}
	if got := fp.Sources(); len(got) != 2 || got[0].Path != brokenFile {
		t.Errorf("Sources = %+v", got)
	}
	// Used unbound: the first Check loads and names the broken file.
	var ce *permission.ConfigError
	if _, err := fp.Check(t.Context(), call("usr", `{}`)); !errors.As(err, &ce) || ce.File != brokenFile {
		t.Fatalf("first Check = %v, want a *permission.ConfigError naming %s", err, brokenFile)
	}
	if _, err := fp.Check(t.Context(), call("usr", `{}`)); !errors.As(err, &ce) {
		t.Errorf("second Check = %v, want the *permission.ConfigError again", err)
	}
	p.write("home/permissions.json", rules(`{"tool":"usr","effect":"deny"}`))
	if got := check(t, fp, call("usr", `{}`)); got.Decision != deny {
		t.Errorf("after the fix, usr = %+v", got)
	}

	// Bound before any use: only the agent's files are read.
	fp, err = permission.NewUnboundFilePolicy(permission.FileOptions{HomeDir: filepath.Join(p.root, "userhome"), Default: allow})
	if err != nil {
		t.Fatal(err)
	}
	agentHome := filepath.Join(p.root, "agenthome")
	p.write("agenthome/permissions.json", rules(`{"tool":"agt","effect":"deny"}`))
	if err := fp.Bind(p.workdir, storage.Options{Namespace: "acme", Home: agentHome}); err != nil {
		t.Fatal(err)
	}
	if st := fp.Status(); st.Err != nil || len(st.Files) != 1 || st.Files[0] != filepath.Join(agentHome, "permissions.json") || st.Reloads != 0 {
		t.Errorf("Status after Bind = %+v", st)
	}
	if got := check(t, fp, call("agt", `{}`)); got.Decision != deny {
		t.Errorf("after Bind, agt = %+v", got)
	}

	// Invalid options are still refused at once.
	for _, bad := range []permission.FileOptions{
		{Default: permission.Decision(99)},
		{Storage: storage.Options{Namespace: "Bad NS"}},
		{Inline: []permission.Rule{{Tool: []string{"bash"}, Effect: permission.Decision(99)}}},
	} {
		if _, err := permission.NewUnboundFilePolicy(bad); err == nil {
			t.Errorf("NewUnboundFilePolicy(%+v) = nil error", bad)
		}
	}
}
