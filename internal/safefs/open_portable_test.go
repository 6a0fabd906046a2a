//go:build unix && safefs_portable

package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The by-name OpenFile looks at the name before the open and after it; a
// symlink planted between the first look and the open must not make the
// open create or truncate the file the link points to, even though the
// second look then refuses the open.
func TestPortableOpenFollowsNoLinkPlantedBeforeTheOpen(t *testing.T) {
	for _, tc := range []struct {
		name   string
		flag   int
		exists bool // a regular file is at the name at the first look
	}{
		{"create", os.O_WRONLY | os.O_APPEND | os.O_CREATE, false},
		{"create or truncate", os.O_RDWR | os.O_CREATE | os.O_TRUNC, false},
		{"create exclusively", os.O_RDWR | os.O_CREATE | os.O_EXCL, false},
		{"truncate an existing file", os.O_WRONLY | os.O_TRUNC, true},
		{"create or truncate an existing file", os.O_WRONLY | os.O_CREATE | os.O_TRUNC, true},
	} {
		for _, targetExists := range []bool{false, true} {
			name := tc.name
			if targetExists {
				name += ", link to a file"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				p := filepath.Join(dir, "record")
				target := filepath.Join(dir, "elsewhere", "target")
				if err := os.Mkdir(filepath.Dir(target), 0o700); err != nil {
					t.Fatal(err)
				}
				if targetExists {
					if err := os.WriteFile(target, []byte("keep me"), 0o600); err != nil {
						t.Fatal(err)
					}
				}
				if tc.exists {
					if err := os.WriteFile(p, []byte("record"), 0o600); err != nil {
						t.Fatal(err)
					}
				}
				planted := false
				f, err := openFile(p, tc.flag, FileMode, func() {
					if planted {
						return
					}
					planted = true
					_ = os.Remove(p)
					if err := os.Symlink(target, p); err != nil {
						t.Error(err)
					}
				})
				if err == nil {
					f.Close()
					t.Fatal("the open went through a planted symlink")
				}
				// A dangling link opened without O_CREATE is just missing.
				if !errors.Is(err, syscall.ELOOP) && !errors.Is(err, os.ErrExist) && (targetExists || !errors.Is(err, os.ErrNotExist)) {
					t.Errorf("err = %v, want a refusal of the symlink", err)
				}
				got, rerr := os.ReadFile(target)
				switch {
				case !targetExists && rerr == nil:
					t.Errorf("the open created the link's target")
				case targetExists && string(got) != "keep me":
					t.Errorf("the link's target holds %q, %v; want it untouched", got, rerr)
				}
			})
		}
	}
}

// Without a link in the way, the portable OpenFile creates, opens and
// truncates as os.OpenFile does.
func TestPortableOpenCreatesOpensAndTruncates(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "record")
	f, err := OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, FileMode)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("one")
	f.Close()
	if f, err = OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, FileMode); err != nil {
		t.Fatal(err)
	}
	f.WriteString("two")
	f.Close()
	if got, _ := os.ReadFile(p); string(got) != "onetwo" {
		t.Fatalf("after two appends the file holds %q", got)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != FileMode {
		t.Errorf("mode %v, want %v", st.Mode().Perm(), os.FileMode(FileMode))
	}
	if f, err = OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, FileMode); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got, _ := os.ReadFile(p); len(got) != 0 {
		t.Errorf("O_TRUNC left %q", got)
	}
	if _, err := OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, FileMode); !errors.Is(err, os.ErrExist) {
		t.Errorf("O_EXCL on an existing file = %v, want ErrExist", err)
	}
}
