package safefs

import (
	"io/fs"
	"testing"
)

// Resolve and the by-name OpenFile refuse a path component that leads
// elsewhere. On Windows a directory junction, which needs no privilege to
// create, is reported by os.Lstat as irregular: neither a symlink nor a
// directory. Such a component must be refused as a symlink is; Linux never
// reports one, so the rule is tested on the modes themselves.
func TestLinkLikeRefusesJunctionsAsSymlinks(t *testing.T) {
	for _, c := range []struct {
		name string
		mode fs.FileMode
		want bool
	}{
		{"symlink", fs.ModeSymlink | 0o777, true},
		{"junction (Windows mount point)", fs.ModeIrregular | 0o666, true},
		{"directory symlink (Windows)", fs.ModeSymlink | 0o666, true},
		{"directory", fs.ModeDir | 0o700, false},
		{"regular file", 0o600, false},
	} {
		if got := linkLike(c.mode); got != c.want {
			t.Errorf("%s (%v): linkLike = %v, want %v", c.name, c.mode, got, c.want)
		}
	}
}
