//go:build unix

package hook_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/hook"
)

// TestHooksFileReadErrorSaysItsCause: a hooks.json that cannot be opened
// (its project config directory is a file; it is a symlink loop) fails
// with a *ConfigError naming the file once and saying the system error,
// which errors.Is and errors.As reach.
func TestHooksFileReadErrorSaysItsCause(t *testing.T) {
	for _, tt := range []struct {
		name  string
		plant func(t *testing.T, dir, file string)
		errno syscall.Errno
	}{
		{"ProjectDirIsAFile", func(t *testing.T, dir, _ string) {
			if err := os.WriteFile(dir, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, syscall.ENOTDIR},
		{"SymlinkLoop", func(t *testing.T, dir, file string) {
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(hook.FileName, file); err != nil {
				t.Fatal(err)
			}
		}, syscall.ELOOP},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, paths := layout(t, "")
			file := filepath.Join(paths.ProjectConfigDir, hook.FileName)
			tt.plant(t, paths.ProjectConfigDir, file)
			_, err := hook.LoadFiles(t.Context(), paths)
			var ce *hook.ConfigError
			if !errors.As(err, &ce) || ce.File != file {
				t.Fatalf("err = %v, want a *ConfigError naming %s", err, file)
			}
			var pe *fs.PathError
			if !errors.Is(err, tt.errno) || !errors.As(err, &pe) {
				t.Errorf("err = %v does not wrap the *fs.PathError of %v", err, tt.errno)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.errno.Error()) || strings.Count(msg, file) != 1 {
				t.Errorf("err = %q, want the file once and the cause %q", msg, tt.errno.Error())
			}
		})
	}
}
