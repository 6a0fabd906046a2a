package builtin_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

func TestFileRestorerFollowsTheWriteRules(t *testing.T) {
	ctx := context.Background()
	dir, outside := t.TempDir(), t.TempDir()
	protected := filepath.Join(dir, ".git")
	os.Mkdir(protected, 0o755)
	os.WriteFile(filepath.Join(outside, "x"), []byte("x"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "link"))
	r, err := builtin.NewFileRestorer(builtin.FileOptions{Workdir: dir, Protected: []string{protected}})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := r.Canonical(ctx, filepath.Join(dir, "sub", "..", "a.txt")); err != nil || p != "a.txt" {
		t.Errorf("Canonical = %q, %v", p, err)
	}
	if err := r.Write(ctx, "sub/dir/a.txt", []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if data, ok, err := r.Read(ctx, "sub/dir/a.txt"); err != nil || !ok || string(data) != "hi" {
		t.Errorf("Read = %q %v %v", data, ok, err)
	}
	if _, ok, err := r.Read(ctx, "none/b.txt"); err != nil || ok {
		t.Errorf("Read of a missing file: %v %v", ok, err)
	}
	if err := r.Remove(ctx, "sub/dir/a.txt"); err != nil || r.Remove(ctx, "sub/dir/a.txt") != nil {
		t.Errorf("Remove: %v", err)
	}
	for _, c := range []struct{ path, want string }{
		{"link/x", "Symlink"},
		{"../escape", "escapes"},
		{".git/config", "protected"},
	} {
		_, err1 := r.Canonical(ctx, c.path)
		err2 := r.Write(ctx, c.path, []byte("no"))
		if err2 == nil || !strings.Contains(strings.ToLower(err2.Error()), strings.ToLower(c.want)) {
			t.Errorf("Write(%s) = %v, want %q", c.path, err2, c.want)
		}
		var refused *builtin.RefusedError
		var protected *builtin.ProtectedPathError
		if typed := errors.As(err2, &protected) || (errors.As(err2, &refused) && refused.Path == c.path); !typed {
			t.Errorf("Write(%s) error %T %v, want a *builtin.RefusedError naming the path or a *builtin.ProtectedPathError", c.path, err2, err2)
		}
		if c.want != "protected" && err1 == nil {
			t.Errorf("Canonical(%s) accepted", c.path)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "x")); string(b) != "x" {
		t.Error("wrote through the link")
	}
}
