//go:build !linux

package permission

import "io/fs"

// stampOf returns the stamp of a file: its modification time, size and
// mode.
func stampOf(fi fs.FileInfo) stamp {
	return stamp{exists: true, mtime: fi.ModTime().UnixNano(), size: fi.Size(), mode: fi.Mode()}
}
