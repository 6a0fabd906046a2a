package task_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
	"github.com/lite-agent/lite-agent-go/task/tasktest"
)

func TestMemoryStoreConformance(t *testing.T) {
	tasktest.Run(t, func(t *testing.T) task.Store { return task.NewMemoryStore() })
}

// TestZeroMemoryStoreConformance checks that the zero MemoryStore is a
// ready, empty list.
func TestZeroMemoryStoreConformance(t *testing.T) {
	tasktest.Run(t, func(t *testing.T) task.Store { return new(task.MemoryStore) })
}

func TestFileStoreConformance(t *testing.T) {
	tasktest.Run(t, func(t *testing.T) task.Store {
		s, err := task.NewFileStore(t.TempDir(), "conformance", storage.Encoding{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestFileStoreEncodedConformance(t *testing.T) {
	tasktest.RunEncoded(t, func(t *testing.T) tasktest.Opener {
		dir := t.TempDir()
		return func(enc storage.Encoding) (task.Store, error) {
			return task.NewFileStore(dir, "conformance", enc)
		}
	})
}
