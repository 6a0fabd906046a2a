package postgres

import (
	"context"
	"path/filepath"
	"time"
)

// SetImportChecked makes ImportFiles into p call f once it has found p
// empty and before it copies anything, so that a test can act as an agent
// that writes to p meanwhile.
func SetImportChecked(p *Project, f func()) { p.importChecked = f }

// SetImportCopied makes ImportFiles into p call f once it has copied
// everything and before it verifies the copy.
func SetImportCopied(p *Project, f func()) { p.importCopied = f }

// SetSweepChose makes Sweep of s call f once it has chosen the sessions to
// delete and before it deletes the first.
func SetSweepChose(s *Store, f func()) { s.sweepChose = f }

// SetImportSession makes ImportFiles into p call f with the id of each
// session once it has copied it.
func SetImportSession(p *Project, f func(id string)) { p.importSession = f }

// SetClock makes s read the client's time from f, as a host whose clock is
// skewed would.
func SetClock(s *Store, f func() time.Time) { s.clock = f }

// SetImportVerified makes ImportFiles into p call f once the copy is
// verified, before its last check of the files' sessions.
func SetImportVerified(p *Project, f func()) { p.importVerified = f }

// SetImportKept makes ImportFiles into p call f after its last check of
// the files' sessions, before its marker goes.
func SetImportKept(p *Project, f func()) { p.importKept = f }

// RemoveImported is p.removeImported of the given sessions, archives and
// lists, as a failed ImportFiles calls it.
func RemoveImported(ctx context.Context, p *Project, sessions, archives, lists []string, keepMarker bool) error {
	return p.removeImported(ctx, imported{sessions: sessions, archives: archives, lists: lists}, keepMarker)
}

// SetImportMarker writes p's import marker, as ImportFiles does first.
func SetImportMarker(ctx context.Context, p *Project) error { return p.setImportMarker(ctx) }

// Unreleased returns how many leases of s whose Release failed s still
// remembers (Store.unreleased).
func Unreleased(s *Store) int {
	s.settleMu.Lock()
	defer s.settleMu.Unlock()
	return len(s.unreleased)
}

// SetBackendPID makes s take f(pid) for the process id of the backend of
// each connection it first uses for a one-statement append, as if the
// operating system had handed out the pid f returns: that of another
// backend, once the append's was gone.
func SetBackendPID(s *Store, f func(pid uint32) uint32) { s.backendPID = f }

// SchemaLockKey is the first key of the advisory lock Open takes to create
// or check a schema (the second is hashtext of the schema's name).
const SchemaLockKey = schemaLockKey

// OpenConns returns how many network connections to the server s holds
// open (those of its pool and of the checks after a lost reply).
func OpenConns(s *Store) int {
	s.conns.mu.Lock()
	defer s.conns.mu.Unlock()
	return len(s.conns.m)
}

// ErrChecksClosed is the Check of an *OutcomeUnknownError whose check
// after a lost reply was ended by Close.
var ErrChecksClosed = errChecksClosed

// ReadLogLines is readLogLines, ImportFiles' reading of a session log, of
// the log at path, in its directory anchored as ImportFiles anchors it.
func ReadLogLines(path string) ([][]byte, error) {
	dir, err := openSrcDir(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	return readLogLines(dir, filepath.Base(path))
}
