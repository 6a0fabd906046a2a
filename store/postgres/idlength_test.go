package postgres_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// TestIDsOfMaxIDLengthAreKept checks that the database keeps a session,
// its lease and a task list under an id of storage.MaxIDLength characters,
// as the data home does, so that such a session moves between the two,
// and refuses one character more with the same typed error.
func TestIDsOfMaxIDLengthAreKept(t *testing.T) {
	ctx := t.Context()
	p := project(t, storage.Encoding{Namespace: "acme", ProjectID: "p0"})
	cp := p.Checkpointer()
	// 244: what a data home allows (the reference's <id>.jsonl.lock fits
	// in 255 bytes; longer names take short forms).
	id := strings.Repeat("L", 244)
	if storage.MaxIDLength != len(id) {
		t.Fatalf("storage.MaxIDLength = %d, want %d", storage.MaxIDLength, len(id))
	}
	release, err := cp.LeaseSession(ctx, id)
	if err != nil {
		t.Fatalf("LeaseSession: %v", err)
	}
	if _, err := cp.Append(ctx, id, []session.Event{session.UserEvent{Message: model.UserText("hi")}}, session.AnyHead); err != nil {
		t.Fatalf("Append: %v", err)
	}
	release()
	infos, err := cp.List(ctx)
	if err != nil || len(infos) != 1 || infos[0].ID != id {
		t.Errorf("List = %v, %v", infos, err)
	}
	tl, err := p.TaskList(id)
	if err != nil {
		t.Fatalf("TaskList: %v", err)
	}
	if _, err := tl.Create(ctx, task.CreateInput{Subject: "long"}); err != nil {
		t.Fatalf("Create: %v", err)
	}
	over := strings.Repeat("L", storage.MaxIDLength+1)
	_, err = cp.Append(ctx, over, []session.Event{session.UserEvent{Message: model.UserText("hi")}}, session.AnyHead)
	if se := (*storage.Error)(nil); !errors.As(err, &se) || !errors.Is(err, storage.ErrIDTooLong) {
		t.Errorf("Append with %d characters: %v, want a *storage.Error wrapping ErrIDTooLong", len(over), err)
	}
	if _, err := p.TaskList(over); !errors.Is(err, storage.ErrIDTooLong) {
		t.Errorf("TaskList with %d characters: %v, want ErrIDTooLong", len(over), err)
	}
}
