//go:build unix

package filestamp

import (
	"io/fs"
	"syscall"
)

// sysStamp adds the device, inode and change time of fi to s.
func sysStamp(s *Stamp, fi fs.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.Dev, s.Ino = uint64(st.Dev), uint64(st.Ino)
		c := ctime(st)
		s.Ctime = c.Nano()
	}
}
