//go:build unix && !linux

package builtin

import "golang.org/x/sys/unix"

// openat2Beneath reports ENOSYS: only Linux has openat2, so the caller
// opens the path one component at a time instead.
func openat2Beneath(dirfd int, rel string) (int, error) { return -1, unix.ENOSYS }
