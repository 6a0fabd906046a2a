package permission_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// A written pattern whose component may match .. (bash before 5.2
// expands .? and .[!a] to it) is opaque: it may name a path outside the
// workdir. Patterns that cannot match it stay allowed.
func TestRedteam54PatternsMatchingDotDot(t *testing.T) {
	t.Parallel()
	home, wd := gateFixture(t)
	allow := permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
		return permission.Verdict{Decision: permission.Allow}, nil
	})
	g := permission.NewGate(permission.GateOptions{Policy: allow, Workdir: wd, HomeDir: home,
		Protected: []string{filepath.Join(wd, ".git", "config")}})
	for line, want := range map[string]permission.Decision{
		"truncate -s 0 .?/x":         permission.Deny,
		"tee .?/x < README":          permission.Deny,
		"sed -i 1d .[!a]/home/x":     permission.Deny,
		"truncate -s 0 ./.?/x":       permission.Deny,
		"cp README .?/x":             permission.Deny,
		"frobnicate .?/x":            permission.Deny,
		"dd if=README of={.,/tmp}/x": permission.Deny,
		"dd if=README of={/tmp,.}/x": permission.Deny,
		"dd if=README of=x{,.bak}":   permission.Allow,
		"truncate -s 0 */x":          permission.Allow,
		"sed -i 1d *.go":             permission.Allow,
		"touch .x?":                  permission.Allow,
		"truncate -s 0 sub/?.txt":    permission.Allow,
		"sed -i s/a/b/ sub/*/x.go":   permission.Allow,
	} {
		if out := authorize(t, g, line); out.Decision != want {
			t.Errorf("%q: %s (%s), want %s", line, out.Decision, out.Verdict.Reason, want)
		}
	}
}
