//go:build !linux

package safefs

import "os"

// SyncData flushes the data of f to the disk: f.Sync, which is fsync(2),
// or F_FULLFSYNC on macOS.
func SyncData(f *os.File) error { return f.Sync() }
