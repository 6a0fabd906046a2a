//go:build !linux && !darwin

package session

import "io/fs"

// stamp identifies one state of a log file: "missing", or its size and
// modification time (inode and change time are not available here). A
// cached head is valid only while the stamp is unchanged.
type stamp struct {
	exists       bool
	ino          uint64
	size         int64
	mtime, ctime int64
}

func stampOf(fi fs.FileInfo) stamp {
	return stamp{exists: true, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}
