//go:build unix

package frontmatter

import "syscall"

// openFlags refuse a symbolic link and keep a FIFO from blocking the open.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
