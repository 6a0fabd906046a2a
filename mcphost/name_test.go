package mcphost

import (
	"regexp"
	"strings"
	"testing"
)

func TestNameValidatorsMatchTheirPatterns(t *testing.T) {
	server := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,24}$`)
	env := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	names := []string{
		"", "a", "_", "-", "9", "Z", "github", "my-server_2", "a__b", "__", "a_b", "a b", "a.b", "a\n", "é", "a=b",
		"PATH", "_X1", "9X", "X-Y", strings.Repeat("a", 24), strings.Repeat("a", 25), strings.Repeat("-", 24),
	}
	for _, n := range names {
		if got, want := validName(n), server.MatchString(n) && !strings.Contains(n, "__") && !strings.HasSuffix(n, "_"); got != want {
			t.Errorf("validName(%q) = %v, want %v", n, got, want)
		}
		if got, want := validEnvName(n), env.MatchString(n); got != want {
			t.Errorf("validEnvName(%q) = %v, want %v", n, got, want)
		}
	}
}
