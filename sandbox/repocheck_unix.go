//go:build unix

package sandbox

import (
	"os"
	"syscall"
)

// The flags the repository check opens with: never through a final link,
// never waiting on a fifo.
const (
	checkDirFlags  = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_DIRECTORY | syscall.O_NOFOLLOW
	checkFileFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOFOLLOW
)
