package task_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// TestZeroFileStoreFails checks that the zero FileStore, which names no
// directory, neither reads as an empty list nor panics: every operation
// fails with a *storage.Error.
func TestZeroFileStoreFails(t *testing.T) {
	ctx := context.Background()
	ops := map[string]func(*task.FileStore) error{
		"Create": func(s *task.FileStore) error { _, err := s.Create(ctx, task.CreateInput{Subject: "x"}); return err },
		"Update": func(s *task.FileStore) error {
			st := task.Pending
			_, err := s.Update(ctx, "1", task.UpdateInput{Status: &st})
			return err
		},
		"Get":        func(s *task.FileStore) error { _, _, err := s.Get(ctx, "1"); return err },
		"List":       func(s *task.FileStore) error { _, err := s.List(ctx); return err },
		"Render":     func(s *task.FileStore) error { _, err := s.Render(ctx, task.RenderOptions{}); return err },
		"MarkShared": func(s *task.FileStore) error { return s.MarkShared() },
	}
	for name, op := range ops {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", name, r)
				}
			}()
			err := op(new(task.FileStore))
			var se *storage.Error
			if !errors.As(err, &se) {
				t.Errorf("%s: err = %v, want a *storage.Error", name, err)
			}
		}()
	}
}
