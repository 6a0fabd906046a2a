package mcphost_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/mcphost"
)

// TestLoadConfigContextDoneBeforeReadsNoFile checks that
// LoadConfigContext with a ctx done before the call returns its error
// and reads no mcps.json: neither the valid global file's servers nor the
// broken project file's *ConfigError come back.
func TestLoadConfigContextDoneBeforeReadsNoFile(t *testing.T) {
	p, _ := layout(t, "")
	writeFile(t, filepath.Join(p.Home, "mcps.json"), `{"mcpServers": {"g": {"command": "srv"}}}`)
	writeFile(t, filepath.Join(p.ProjectConfigDir, "mcps.json"), `{not json`)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	cfg, err := mcphost.LoadConfigContext(ctx, mcphost.LoadOptions{Paths: p})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("LoadConfigContext(cancelled) = %+v, %v; want context.Canceled", cfg, err)
	}
	var ce *mcphost.ConfigError
	if errors.As(err, &ce) {
		t.Errorf("a cancelled load read the project file: %v", err)
	}
	// The same options with a live ctx read both files.
	if _, err := mcphost.LoadConfigContext(t.Context(), mcphost.LoadOptions{Paths: p}); !errors.As(err, &ce) {
		t.Errorf("LoadConfigContext = %v, want the project file's *ConfigError", err)
	}
}
