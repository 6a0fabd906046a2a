package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/storage"
)

// BenchmarkPolicyCheck compares the CLI's layered policy with the plain
// FilePolicy it is built from, on a bash line of three commands under a
// user file of a few rules.
func BenchmarkPolicyCheck(b *testing.B) {
	home, work := b.TempDir(), b.TempDir()
	rules := `{"version":1,"rules":[` +
		`{"id":"status","tool":"bash","when":{"command":{"equals":"git status"}},"effect":"allow"},` +
		`{"id":"push","tool":"bash","when":{"command":{"startsWith":"git push"}},"effect":"ask"},` +
		`{"id":"env","tool":"read_file","when":{"path":{"glob":"**/.env"}},"effect":"deny"}]}`
	if err := os.WriteFile(filepath.Join(home, "permissions.json"), []byte(rules), 0o600); err != nil {
		b.Fatal(err)
	}
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: work, Storage: storage.Options{Home: home}})
	if err != nil {
		b.Fatal(err)
	}
	layered, err := (&agentFlags{allow: []string{"read_file"}}).policy(project{paths: paths})
	if err != nil {
		b.Fatal(err)
	}
	plain, err := permission.NewFilePolicy(permission.FileOptions{Workdir: work, Storage: storage.Options{Home: home}, Default: permission.Ask})
	if err != nil {
		b.Fatal(err)
	}
	call := permission.Call{Name: "bash", Input: json.RawMessage(`{"command":"git status && go build ./... && ls -la"}`)}
	for _, bc := range []struct {
		name string
		p    permission.Policy
	}{{"file-policy", plain}, {"cli-layers", layered}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := bc.p.Check(b.Context(), call); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
