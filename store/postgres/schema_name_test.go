package postgres

import (
	"regexp"
	"strings"
	"testing"
)

func TestValidSchemaMatchesItsPattern(t *testing.T) {
	pattern := regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)
	names := []string{
		"", "a", "_", "lite_agent", "t_0123abcd", "9a", "_9", "A", "aB", "a-b", "a b", "a.b", "a\n", "é",
		strings.Repeat("a", 63), strings.Repeat("a", 64), "_" + strings.Repeat("9", 62), "_" + strings.Repeat("9", 63),
	}
	for _, n := range names {
		if got, want := validSchema(n), pattern.MatchString(n); got != want {
			t.Errorf("validSchema(%q) = %v, want %v", n, got, want)
		}
	}
}
