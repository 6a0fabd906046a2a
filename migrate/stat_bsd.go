//go:build darwin || freebsd || netbsd

package migrate

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// changeTimes returns a file's modification and change times.
func changeTimes(st *syscall.Stat_t) (mtime, ctime syscall.Timespec) {
	return st.Mtimespec, st.Ctimespec
}

// unixChangeTimes is changeTimes for a status from golang.org/x/sys/unix.
func unixChangeTimes(st *unix.Stat_t) (mtime, ctime syscall.Timespec) {
	return syscall.Timespec{Sec: st.Mtim.Sec, Nsec: st.Mtim.Nsec}, syscall.Timespec{Sec: st.Ctim.Sec, Nsec: st.Ctim.Nsec}
}
