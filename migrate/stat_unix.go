//go:build unix && !(darwin || freebsd || netbsd)

package migrate

import "syscall"

// changeTimes returns a file's modification and change times.
func changeTimes(st *syscall.Stat_t) (mtime, ctime syscall.Timespec) {
	return st.Mtim, st.Ctim
}
