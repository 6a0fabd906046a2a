package builtin

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/tool"
)

func TestProtectedPathErrorIsTyped(t *testing.T) {
	ws := t.TempDir()
	perms := filepath.Join(ws, ".acme", "permissions.json")
	ft, err := newFileTools(FileOptions{Workdir: ws, Protected: []string{perms}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ft.writeFile(t.Context(), &tool.Call{}, writeFileInput{Path: ".acme/permissions.json", Content: "{}"})
	var pe *ProtectedPathError
	if !errors.As(err, &pe) || pe.Op != "write" || pe.Path != ".acme/permissions.json" {
		t.Fatalf("writeFile: %v (%T), want a *ProtectedPathError for write", err, err)
	}
	if _, err := os.Stat(perms); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the refused write created %s: %v", perms, err)
	}
}

func TestByIdentity(t *testing.T) {
	a, b, c := fileID{1, 10}, fileID{1, 11}, fileID{1, 12}
	tests := []struct {
		name  string
		now   []protection
		chain []fileID
		names []string
		want  bool
	}{
		{"ExistingFile", []protection{{anchor: c}}, []fileID{a, b, c}, []string{"d", "f"}, true},
		{"BeneathDir", []protection{{anchor: b}}, []fileID{a, b, c}, []string{"d", "f"}, true},
		{"MissingBelowAnchor", []protection{{anchor: a, rest: []string{".acme", "hooks.json"}}}, []fileID{a, b}, []string{".ACME", "hooks.json"}, true},
		{"SiblingOfMissing", []protection{{anchor: a, rest: []string{".acme", "hooks.json"}}}, []fileID{a, b}, []string{".acme", "notes.md"}, false},
		{"AncestorOfProtected", []protection{{anchor: a, rest: []string{".acme", "agents"}}}, []fileID{a}, []string{".acme"}, false},
		{"Unrelated", []protection{{anchor: fileID{2, 10}}}, []fileID{a, b, c}, []string{"d", "f"}, false},
		{"UnknownIdentityMatchesNothing", []protection{{}}, []fileID{{}, {}}, []string{"f"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := byIdentity(tt.now, tt.chain, tt.names); got != tt.want {
				t.Errorf("byIdentity = %t, want %t", got, tt.want)
			}
		})
	}
}
