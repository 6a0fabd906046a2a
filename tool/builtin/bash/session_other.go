//go:build unix && !linux

package bash

// killSession does nothing where processes are not listed by session:
// the command's process group is all that is killed.
func killSession(int) {}
