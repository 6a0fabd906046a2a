package session

import "time"

// SetClock replaces the clock that stamps batches and names broken files.
func SetClock(c *FileCheckpointer, now func() time.Time) { c.now = now }

// SetMaxLine lowers the line length limit so tests need no huge lines.
func SetMaxLine(c *FileCheckpointer, n int) { c.maxLine = n }

// SetDecodeFloor lowers the least an encoded log's records may decode to
// in all, so tests need no huge records.
func SetDecodeFloor(c *FileCheckpointer, n int64) { c.decodeFloor = n }

// SetParallelMin sets the size from which logs are read on several cores;
// 1 makes every non-empty log go through the parallel scan.
func SetParallelMin(c *FileCheckpointer, n int64) { c.parallelMin = n }

// SetStep sets the hook told each step of setting a torn tail aside done
// (torn-created, torn-copied, torn-cut).
func SetStep(c *FileCheckpointer, f func(name string)) { c.step = f }

// SetSyncDir replaces the directory sync of durable appends.
func SetSyncDir(c *FileCheckpointer, f func(dir string) error) { c.syncDir = f }

// CopyName is copyName: the name of the copy of kind of the log rel set
// aside at ms after try names were found taken.
func CopyName(rel string, kind CopyKind, ms int64, try int) string {
	return copyName(rel, kind, ms, try)
}
