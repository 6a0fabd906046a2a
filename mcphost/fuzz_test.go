package mcphost

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParseFile checks that the strict reader of mcps.json never panics,
// accepts nothing encoding/json rejects, and returns only valid servers.
func FuzzParseFile(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"mcpServers": {}}`,
		`{"mcpServers": {"a": {"command": "x", "args": ["-v"], "env": {"K": "v"}, "timeoutMs": 1000}}}`,
		`{"mcpServers": {"w": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "t"}}}}`,
		`{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`,
		`{"mcpServers": {"a": {"command": "x", "cwd": "/"}}}`,
		`{"mcpServers": {"a": {"type": "http", "url": "http://10.0.0.1/"}}}`,
		`[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]`,
		"{\"mcpServers\": {\"\xff\": {}}}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		servers, err := parseFile(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		seen := map[string]bool{}
		for _, s := range servers {
			if err := ValidateName(s.Name); err != nil || seen[s.Name] {
				t.Fatalf("accepted bad or duplicate name %q", s.Name)
			}
			seen[s.Name] = true
			if err := s.Config.Validate(); err != nil {
				t.Fatalf("accepted invalid server %q: %v", s.Name, err)
			}
		}
	})
}
