//go:build !unix

package skill

// openFlags is zero where O_NOFOLLOW and O_NONBLOCK do not exist; Load
// still refuses entries listed as links or special files.
const openFlags = 0
