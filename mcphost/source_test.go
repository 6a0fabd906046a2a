package mcphost_test

import (
	"encoding/json"
	"testing"

	"github.com/lite-agent/lite-agent-go/mcphost"
)

// The mcp_connect input says where the server was configured, in the same
// words as a hook's permission input, so one rule covers both.
func TestConnectInputCarriesWhereTheServerWasConfigured(t *testing.T) {
	for _, tc := range []struct {
		source         mcphost.Source
		file, want     string
		wantConfigFile bool
	}{
		{mcphost.SourceGlobal, "/home/u/.acme/mcps.json", "user", true},
		{mcphost.SourceProject, "/w/.acme/mcps.json", "project", true},
		{mcphost.SourceConstructor, "", "host", false},
		{"", "", "project", false},
		{"instance", "", "project", false},
	} {
		req := mcphost.ConnectRequest{Server: "s", Source: tc.source, File: tc.file, Type: mcphost.TransportHTTP, Origin: "https://mcp.example.com"}
		var in map[string]any
		if err := json.Unmarshal(req.Input(), &in); err != nil {
			t.Fatal(err)
		}
		if in["source"] != tc.want || tc.source.PermissionSource() != tc.want {
			t.Errorf("source %q: input %s, PermissionSource %q; want %q", tc.source, req.Input(), tc.source.PermissionSource(), tc.want)
		}
		if f, ok := in["configFile"]; ok != tc.wantConfigFile || (ok && f != tc.file) {
			t.Errorf("source %q: input %s, want configFile %q", tc.source, req.Input(), tc.file)
		}
	}
}
