//go:build darwin

package session

import (
	"io/fs"
	"syscall"
)

// stamp identifies one state of a log file: "missing", or its inode, size,
// and modification and change times in nanoseconds. A cached head is valid
// only while the stamp is unchanged.
type stamp struct {
	exists       bool
	ino          uint64
	size         int64
	mtime, ctime int64
}

func stampOf(fi fs.FileInfo) stamp {
	s := stamp{exists: true, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ino = uint64(st.Ino)
		s.ctime = st.Ctimespec.Nano()
	}
	return s
}
