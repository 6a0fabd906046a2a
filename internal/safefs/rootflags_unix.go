//go:build unix

package safefs

import "syscall"

// rootOpenFlags are added to every open through a Dir's handle: O_NONBLOCK
// makes the open of a FIFO planted under a record's name return at once,
// and O_NOCTTY keeps a terminal from becoming the process's (os.Root adds
// O_NOFOLLOW itself).
const rootOpenFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY
