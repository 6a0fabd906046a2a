//go:build !unix

package permission

import (
	"errors"
	"io/fs"
	"os"
)

// openRule opens a rule file for reading; with nofollow it refuses a
// symbolic link (checked before opening).
func openRule(name string, nofollow bool) (*os.File, error) {
	if nofollow {
		fi, err := os.Lstat(name)
		if err != nil {
			return nil, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, errors.New("is a symbolic link")
		}
	}
	return os.Open(name)
}
