//go:build !unix || safefs_portable

package retention

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Where /proc/self/fd does not name the directory, the lock is taken by
// the directory's own path, but only if no symlink leads there.
func TestAnchorWithoutProc(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(base, "link")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, fds, want string
	}{
		{real, "/proc/self/fd/", "/proc/self/fd/"},
		{real, filepath.Join(base, "nofds") + "/", real},
		{filepath.Join(base, "link"), filepath.Join(base, "nofds") + "/", ""},
	} {
		r, err := os.OpenRoot(tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		p, f, err := anchorVia(r, tc.fds)
		switch {
		case tc.want == "":
			if !errors.Is(err, errChanged) {
				t.Errorf("%s via %s: %q, %v; want refused", tc.dir, tc.fds, p, err)
			}
		case err != nil || !strings.HasPrefix(p, tc.want):
			t.Errorf("%s via %s: %q, %v; want %s…", tc.dir, tc.fds, p, err, tc.want)
		}
		if f != nil {
			_ = f.Close()
		}
		_ = r.Close()
	}
}
