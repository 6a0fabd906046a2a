//go:build !unix

package filestamp

import "io/fs"

// sysStamp adds nothing: device, inode and change time are not available
// here.
func sysStamp(*Stamp, fs.FileInfo) {}
