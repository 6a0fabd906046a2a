package archive_test

import (
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/archive/archivetest"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestFileArchiveConformance(t *testing.T) {
	archivetest.Run(t, func(t *testing.T) archive.Archive {
		a, err := archive.NewFileArchive(filepath.Join(t.TempDir(), "s1.context"), archive.Options{SessionID: "s1"})
		if err != nil {
			t.Fatal(err)
		}
		return a
	})
}

func TestFileArchiveEncodedConformance(t *testing.T) {
	archivetest.RunEncoded(t, func(t *testing.T) archivetest.Opener {
		dir := filepath.Join(t.TempDir(), "s1.context")
		return func(enc storage.Encoding) (archive.Archive, error) {
			return archive.NewFileArchive(dir, archive.Options{Encoding: enc, SessionID: "s1"})
		}
	})
}

func TestMemoryArchiveConformance(t *testing.T) {
	archivetest.Run(t, func(t *testing.T) archive.Archive { return archive.NewMemoryArchive() })
}
