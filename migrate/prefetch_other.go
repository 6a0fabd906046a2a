//go:build !linux || migrate_portable

package migrate

import "io"

// prefetch does nothing where posix_fadvise is not available to ask for a
// log ahead of its copy (see prefetch_linux.go).
func (m *migration) prefetch(u *unit) {}

// readLog returns the reader of the source log f for its copy: f itself,
// where nothing is prefetched.
func (m *migration) readLog(f *fdFile) io.Reader { return f }
