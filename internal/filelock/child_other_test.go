//go:build !unix

package filelock_test

import (
	"fmt"
	"os"
)

// unixChild: the tests that run these children need Unix.
func unixChild(mode, _ string) int {
	fmt.Fprintln(os.Stderr, "unknown child mode", mode)
	return 2
}
