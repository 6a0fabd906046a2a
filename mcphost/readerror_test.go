//go:build unix

package mcphost_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/mcphost"
)

// TestConfigReadErrorKeepsItsCause checks that an mcps.json that cannot be
// opened fails with a *ConfigError that names the file, says why in its
// text and wraps the system error, so that errors.Is and errors.As reach
// it.
func TestConfigReadErrorKeepsItsCause(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, file string)
		errno syscall.Errno
	}{
		{"ProjectDirIsAFile", func(t *testing.T, file string) {
			writeFile(t, filepath.Dir(file), "a file where the project config directory should be")
		}, syscall.ENOTDIR},
		{"SymlinkLoop", func(t *testing.T, file string) {
			if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("mcps.json", file); err != nil {
				t.Fatal(err)
			}
		}, syscall.ELOOP},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := layout(t, "")
			file := filepath.Join(p.ProjectConfigDir, mcphost.ConfigFile)
			tt.setup(t, file)
			_, err := mcphost.LoadConfig(mcphost.LoadOptions{Paths: p})
			var ce *mcphost.ConfigError
			if !errors.As(err, &ce) || ce.File != file {
				t.Fatalf("err = %v, want a *ConfigError naming %s", err, file)
			}
			if !errors.Is(err, tt.errno) {
				t.Errorf("err = %v does not wrap %v", err, tt.errno)
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) || pe.Path != file {
				t.Errorf("err = %v does not wrap the *fs.PathError of %s", err, file)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.errno.Error()) || strings.Count(msg, file) != 1 {
				t.Errorf("err = %q, want the file once and the cause %q", msg, tt.errno.Error())
			}
		})
	}
}
