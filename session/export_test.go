package session

import "time"

// SetClock replaces the clock that stamps batches and names broken files.
func SetClock(c *FileCheckpointer, now func() time.Time) { c.now = now }

// SetMaxLine lowers the line length limit so tests need no huge lines.
func SetMaxLine(c *FileCheckpointer, n int) { c.maxLine = n }
