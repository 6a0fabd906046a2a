//go:build !unix

package subagent

// openFlags is zero where O_NOFOLLOW and O_NONBLOCK do not exist; Load
// still refuses entries listed as links or special files.
const openFlags = 0
