//go:build unix

package postgres_test

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// TestImportRefusesALogThatIsNoFileWithAStorageError puts a FIFO where a
// session log is read (one planted between ImportFiles' listing and its
// read): ReadLogLines refuses it, without waiting, with a *storage.Error
// naming the log, as the file store does, not an untyped error (review
// 128b).
func TestImportRefusesALogThatIsNoFileWithAStorageError(t *testing.T) {
	log := filepath.Join(t.TempDir(), "s1.jsonl")
	if err := syscall.Mkfifo(log, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	_, err := postgres.ReadLogLines(log)
	var se *storage.Error
	if !errors.As(err, &se) || se.File != log || se.Kind != storage.KindCheckpoint {
		t.Fatalf("ReadLogLines = %v (%T), want a *storage.Error naming the log", err, err)
	}
}
