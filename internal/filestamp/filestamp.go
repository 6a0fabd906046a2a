// Package filestamp identifies one state of a file by what a stat call
// tells, so that a cache keyed by it notices when the file is replaced,
// grows or is rewritten.
package filestamp

import "io/fs"

// A Stamp identifies one state of a file: the zero Stamp is "missing";
// otherwise Exists is set with the file's size and modification time in
// nanoseconds, plus its device, inode and change time where the system
// tells them. Two stats of an unchanged file give equal Stamps.
type Stamp struct {
	Exists       bool
	Dev, Ino     uint64
	Size         int64
	Mtime, Ctime int64
}

// Of returns the stamp of the file fi describes.
func Of(fi fs.FileInfo) Stamp {
	s := Stamp{Exists: true, Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}
	sysStamp(&s, fi)
	return s
}
