//go:build !sandbox_shortslack

package sandbox

import "time"

// memoSlack is how long before a run of the check a directory must have
// last changed for the run to remember it (dirMemo). It is above one
// second and a tick of the kernel's coarse clock: a file system that keeps
// times to the second (ext4 with 128-byte inodes) can give a change made
// just after the read the same time as the one before it.
const memoSlack = 2 * time.Second
