//go:build linux && !migrate_portable

package migrate

import (
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/internal/filestamp"
)

// stampsOpenFiles reports that touch sets the times of an open file.
const stampsOpenFiles = true

// touch sets the access and modification times of the file to t through
// its descriptor (futimens: utimensat of the descriptor with no name),
// then returns its state as one fstat finds it after that.
func (f *fdFile) touch(t time.Time) (filestamp.Stamp, error) {
	// Not through UnixNano, which wraps outside 1678-2262.
	ts, err := unix.TimeToTimespec(t)
	if err != nil {
		return filestamp.Stamp{}, err
	}
	times := [2]unix.Timespec{ts, ts}
	err = ignoringEINTR(func() error {
		_, _, errno := unix.Syscall6(unix.SYS_UTIMENSAT, uintptr(f.fd), 0, uintptr(unsafe.Pointer(&times)), 0, 0, 0)
		if errno != 0 {
			return errno
		}
		return nil
	})
	if err != nil {
		return filestamp.Stamp{}, err
	}
	return f.stamp()
}
