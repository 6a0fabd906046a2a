//go:build !linux || migrate_portable

package migrate

// prefetch does nothing where posix_fadvise is not available to ask for a
// log ahead of its copy (see prefetch_linux.go).
func (m *migration) prefetch(u *unit) {}
