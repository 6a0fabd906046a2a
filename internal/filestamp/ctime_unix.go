//go:build unix && !(darwin || freebsd || netbsd)

package filestamp

import "syscall"

// ctime returns the change time of st.
func ctime(st *syscall.Stat_t) syscall.Timespec { return st.Ctim }
