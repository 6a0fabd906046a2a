package postgres_test

import (
	"errors"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/task"
)

// A data home holding a session whose delete did not finish (its log set
// aside, its private task list still there) is refused by ImportFiles
// with the session's *session.DeletingError, and nothing is copied: the
// import would carry the session's task list into the database without
// the session, where nothing would delete it.
func TestImportRefusesASessionBeingDeleted(t *testing.T) {
	ctx := t.Context()
	paths, enc, files := filesProject(t)
	for _, id := range []string{"a", "gone"} {
		if _, err := files.Append(ctx, id, []session.Event{session.UserEvent{Message: model.UserText("hello")}}, session.AnyHead); err != nil {
			t.Fatal(err)
		}
	}
	list, err := task.NewFileStore(paths.TasksDir, "gone", enc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := list.Create(ctx, task.CreateInput{Subject: "of the deleted session"}); err != nil {
		t.Fatal(err)
	}
	if err := files.BeginDelete(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	p := project(t, enc)
	_, err = p.ImportFiles(ctx, paths)
	var de *session.DeletingError
	if !errors.As(err, &de) || de.SessionID != "gone" {
		t.Fatalf("ImportFiles = %v, want the *session.DeletingError of session gone", err)
	}
	if empty, err := p.Empty(ctx); err != nil || !empty {
		t.Errorf("the refused import left records in the project: empty %v, %v", empty, err)
	}
}
