package permission_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
)

// done returns a context cancelled already.
func done(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	return ctx
}

// TestBindContextDoneBeforeReadsNoFile checks that BindContext with a ctx
// done before the call returns its error and reads no rule file (the
// broken user file's *ConfigError does not come back), leaving the policy
// unbound: a later BindContext with a live ctx loads the files.
func TestBindContextDoneBeforeReadsNoFile(t *testing.T) {
	p := newProject(t)
	p.write("home/permissions.json", `{"version":1,"rules":[{"effect":"allow","effect":"allow"}]}`)
	fp, err := permission.NewUnboundFilePolicy(permission.FileOptions{HomeDir: p.opts().HomeDir})
	if err != nil {
		t.Fatal(err)
	}
	st := storage.Options{Home: p.home}
	err = fp.BindContext(done(t), p.workdir, st)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("BindContext(cancelled) = %v, want context.Canceled", err)
	}
	var ce *permission.ConfigError
	if errors.As(err, &ce) {
		t.Errorf("a cancelled BindContext read the rule files: %v", err)
	}
	if s := fp.Status(); s.Err != nil || !s.LoadedAt.IsZero() {
		t.Errorf("status after a cancelled BindContext = %+v, want the zero Status", s)
	}
	if err := fp.BindContext(t.Context(), p.workdir, st); !errors.As(err, &ce) {
		t.Errorf("BindContext = %v, want the user file's *ConfigError", err)
	}
}

// TestReloadContextDoneBeforeIsNotAFailedReload checks that ReloadContext
// with a ctx done before the call returns its error and reads no file: a
// rule file broken since the last load does not fail the policy, which
// goes on deciding by the rules loaded.
func TestReloadContextDoneBeforeIsNotAFailedReload(t *testing.T) {
	p := newProject(t)
	p.write("home/permissions.json", rules(`{"id":"ok","tool":"read_file","effect":"allow"}`))
	fp := p.policy(p.opts())
	p.write("home/permissions.json", `{"version":1,"rules":[{"effect":"allow","effect":"allow"}]}`)
	if err := fp.ReloadContext(done(t)); !errors.Is(err, context.Canceled) {
		t.Fatalf("ReloadContext(cancelled) = %v, want context.Canceled", err)
	}
	if s := fp.Status(); s.Err != nil || s.Reloads != 0 {
		t.Errorf("status after a cancelled ReloadContext = %+v, want no error and no reload", s)
	}
	var ce *permission.ConfigError
	if err := fp.ReloadContext(t.Context()); !errors.As(err, &ce) {
		t.Errorf("ReloadContext = %v, want the user file's *ConfigError", err)
	}
}
