//go:build !unix

package safefs

import "io/fs"

// LinkCount returns 1: hard links are not detected on this platform.
func LinkCount(fs.FileInfo) uint64 { return 1 }
