//go:build !unix

package frontmatter

// openFlags is zero where O_NOFOLLOW and O_NONBLOCK do not exist; Walk
// still refuses entries listed as links or special files.
const openFlags = 0
