//go:build !unix

package permission

import "io/fs"

// rootOnly reports false: this system does not report owners.
func rootOnly(fs.FileInfo) bool { return false }
