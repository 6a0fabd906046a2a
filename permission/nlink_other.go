//go:build !unix

package permission

import "io/fs"

// linkCount returns 1: this system does not report hard links.
func linkCount(fs.FileInfo) uint64 { return 1 }

// rootOnly reports false: this system does not report owners.
func rootOnly(fs.FileInfo) bool { return false }
