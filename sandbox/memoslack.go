//go:build !sandbox_shortslack

package sandbox

import "time"

// memoSlack is how long before a run of the check a directory must have
// last changed for the run to remember it (dirMemo). It is far above a
// tick of the kernel's coarse clock, so that a file system whose clock is
// a little behind the host's (a network one) is covered too.
const memoSlack = time.Second
