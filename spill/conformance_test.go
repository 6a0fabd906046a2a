package spill_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/spill/spilltest"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestMemoryStoreConformance(t *testing.T) {
	spilltest.Run(t, func(t *testing.T) spill.Store { return spill.NewMemoryStore() })
}

// TestZeroMemoryStoreConformance checks that the zero MemoryStore is a
// ready, empty store.
func TestZeroMemoryStoreConformance(t *testing.T) {
	spilltest.Run(t, func(t *testing.T) spill.Store { return new(spill.MemoryStore) })
}

func TestFileStoreConformance(t *testing.T) {
	spilltest.Run(t, func(t *testing.T) spill.Store {
		s, err := spill.NewFileStore(t.TempDir(), storage.Encoding{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestFileStoreEncodedConformance(t *testing.T) {
	spilltest.RunEncoded(t, func(t *testing.T) spilltest.Opener {
		dir := t.TempDir()
		return func(enc storage.Encoding) (spill.Store, error) {
			return spill.NewFileStore(dir, enc)
		}
	})
}
