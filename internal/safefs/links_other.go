//go:build !unix

package safefs

import "io/fs"

// linkCount returns 1: hard links are not detected on this platform.
func linkCount(fs.FileInfo) uint64 { return 1 }
