package session_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestTooLongSessionIDIsRefusedBeforeAnyFile(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	for _, n := range []int{storage.MaxIDLength + 1, 300} {
		id := strings.Repeat("s", n)
		_, err := cp.Append(t.Context(), id, []session.Event{session.UserEvent{Message: model.UserText("hi")}}, session.AnyHead)
		var se *storage.Error
		if !errors.As(err, &se) || !errors.Is(err, storage.ErrIDTooLong) {
			t.Fatalf("Append with a %d-character id: %v, want a *storage.Error wrapping ErrIDTooLong", n, err)
		}
	}
	id := strings.Repeat("s", storage.MaxIDLength)
	if _, err := cp.Append(t.Context(), id, []session.Event{session.UserEvent{Message: model.UserText("hi")}}, session.AnyHead); err != nil {
		t.Fatalf("Append with a %d-character id: %v", len(id), err)
	}
}
