package liteagent_test

import (
	"errors"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestResumeRefusesAnEmptyIDWithAStorageError checks that Resume("") is the
// same typed error as any other invalid id, whatever keeps the sessions,
// and leaves the current session as it was.
func TestResumeRefusesAnEmptyIDWithAStorageError(t *testing.T) {
	for name, edit := range map[string]func(*liteagent.Options){
		"files":        func(*liteagent.Options) {},
		"checkpointer": func(o *liteagent.Options) { o.Checkpointer = session.NewMemoryCheckpointer() },
		"memory":       func(o *liteagent.Options) { o.DisableSessions = true },
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			opts := f.options(nil)
			edit(&opts)
			a := f.agent(t, opts)
			before := a.SessionID()
			var se *storage.Error
			if err := a.Resume(""); !errors.As(err, &se) {
				t.Errorf("Resume(\"\") = %v (%T), want a *storage.Error", err, err)
			}
			if got := a.SessionID(); got != before {
				t.Errorf("the current session changed from %q to %q", before, got)
			}
		})
	}
}
