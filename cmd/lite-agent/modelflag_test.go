package main

import (
	"slices"
	"testing"
)

// TestEmptyModelIsAUsageError: an empty or blank --model (an unset
// variable, "--model $MODEL") is a usage error naming the flag, before any
// model call and any write, on every command that takes it; before, an
// empty one ran the provider's default model, a blank one failed at the
// provider.
func TestEmptyModelIsAUsageError(t *testing.T) {
	isolateEnv(t)
	srv := fakeAPI(t)
	home, work := t.TempDir(), t.TempDir()
	base := []string{"--home", home, "--workdir", work}
	for _, args := range [][]string{
		{"run", "--model=", "hi"},
		{"run", "--model", "  ", "hi"},
		{"run", "--provider", "openai", "--base-url", "http://127.0.0.1:1/v1", "--model=", "hi"},
		{"chat", "--model="},
		{"sessions", "compact", "--model=", "s1"},
	} {
		before := tree(t, home)
		r := runCLI(t, append(base, args...)...)
		if want := "lite-agent: --model must not be empty: give a model id, or leave the flag out for the provider's default\n"; r.code != exitUsage || r.stdout != "" || r.stderr != want {
			t.Errorf("%q: code %d stdout %q stderr %q, want %d and %q", args, r.code, r.stdout, r.stderr, exitUsage, want)
		}
		if after := tree(t, home); !slices.Equal(before, after) {
			t.Errorf("%q changed the data home:\nbefore %q\nafter  %q", args, before, after)
		}
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.bodies) != 0 {
		t.Errorf("%d model calls, want none", len(srv.bodies))
	}
}
