package builtin_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/testcodec"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

func TestSpilledTool(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	store, err := spill.NewFileStore(dir, storage.Encoding{})
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Repeat("spilled line 界😀\n", 2000)
	ref, err := store.Put(context.Background(), body)
	if err != nil {
		t.Fatal(err)
	}
	tl := builtin.SpilledTool(store)
	if tl.Name() != "read_spilled" {
		t.Errorf("name %q", tl.Name())
	}
	tests := []struct {
		name string
		ref  string
		want string
	}{
		{"stored body", ref, body},
		{"unknown ref", "0123456789abcdef", "No spilled content for ref '0123456789abcdef'"},
		{"malformed ref", "../etc/passwd", "No spilled content for ref '../etc/passwd'"},
		{"archive ref", strings.Repeat("a", 64), "No spilled content for ref '" + strings.Repeat("a", 64) + "'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, tl, map[string]any{"ref": tt.ref})
			if res.IsError || res.Content != tt.want {
				t.Errorf("got %.80q (error %v), want %.80q", res.Content, res.IsError, tt.want)
			}
		})
	}

	// A ref is required.
	if res := call(t, tl, map[string]any{}); !res.IsError {
		t.Errorf("no ref: got %q, want an error result", res.Content)
	}

	// A body that does not match its ref fails the call and is left as it is.
	path := filepath.Join(dir, ref+spill.FileSuffix)
	if err := os.WriteFile(path, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := call(t, tl, map[string]any{"ref": ref})
	if !res.IsError || !strings.Contains(res.Content, "does not match its ref") {
		t.Fatalf("damaged body: got %q, want an error result", res.Content)
	}
	if got, _ := os.ReadFile(path); string(got) != "garbage" {
		t.Error("the damaged file was changed")
	}
}

func TestSpilledToolWithCodec(t *testing.T) {
	enc := testcodec.Encoding(testcodec.AEAD("k1", "a"))
	store, err := spill.NewFileStore(filepath.Join(t.TempDir(), "spill"), enc)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := store.Put(context.Background(), "secret body")
	if err != nil {
		t.Fatal(err)
	}
	if res := call(t, builtin.SpilledTool(store), map[string]any{"ref": ref}); res.Content != "secret body" {
		t.Errorf("got %q", res.Content)
	}
	// The file holds no plaintext.
	data, err := os.ReadFile(filepath.Join(store.Dir(), ref+spill.FileSuffix))
	if err != nil || strings.Contains(string(data), "secret") {
		t.Errorf("spill file: %v, plaintext: %v", err, strings.Contains(string(data), "secret"))
	}
}
