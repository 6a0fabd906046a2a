//go:build unix

package permission

import (
	"os"
	"syscall"
)

// openRule opens a rule file for reading without blocking on a FIFO and,
// when nofollow is set, without following a symbolic link in its last
// component.
func openRule(name string, nofollow bool) (*os.File, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK
	if nofollow {
		flags |= syscall.O_NOFOLLOW
	}
	return os.OpenFile(name, flags, 0)
}
