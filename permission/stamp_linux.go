package permission

import (
	"io/fs"
	"syscall"
)

// stampOf returns the stamp of a file: modification and change times,
// size, device and inode, so that a file replaced or rewritten in the same
// nanosecond with the same size is still seen to change.
func stampOf(fi fs.FileInfo) stamp {
	s := stamp{exists: true, mtime: fi.ModTime().UnixNano(), size: fi.Size(), mode: fi.Mode()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ctime = int64(st.Ctim.Sec)*1e9 + int64(st.Ctim.Nsec)
		s.dev, s.ino = uint64(st.Dev), st.Ino
	}
	return s
}
