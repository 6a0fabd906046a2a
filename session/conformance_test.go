package session_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/session/sessiontest"
)

func TestFileCheckpointer(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T) session.Checkpointer {
		cp, err := session.NewFileCheckpointer(t.TempDir(), session.FileOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return cp
	})
}

func TestDurableRepairingFileCheckpointer(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T) session.Checkpointer {
		cp, err := session.NewFileCheckpointer(t.TempDir(), session.FileOptions{Durable: true, RepairTail: true})
		if err != nil {
			t.Fatal(err)
		}
		return cp
	})
}

// TestZeroMemoryCheckpointer checks that the zero MemoryCheckpointer is
// ready to use.
func TestZeroMemoryCheckpointer(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T) session.Checkpointer { return new(session.MemoryCheckpointer) })
}

func TestMemoryCheckpointer(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T) session.Checkpointer {
		return session.NewMemoryCheckpointer()
	})
}
