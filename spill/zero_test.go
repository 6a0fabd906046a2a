package spill_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestZeroFileStoreFails checks that every operation of a FileStore not made
// by NewFileStore fails with a *storage.Error instead of panicking.
func TestZeroFileStoreFails(t *testing.T) {
	ctx := context.Background()
	ops := map[string]func(*spill.FileStore) error{
		"Put":    func(s *spill.FileStore) error { _, err := s.Put(ctx, "body"); return err },
		"Get":    func(s *spill.FileStore) error { _, _, err := s.Get(ctx, spill.Ref("body")); return err },
		"Verify": func(s *spill.FileStore) error { _, err := s.Verify(ctx); return err },
	}
	for name, op := range ops {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", name, r)
				}
			}()
			var se *storage.Error
			if err := op(new(spill.FileStore)); !errors.As(err, &se) {
				t.Errorf("%s: err = %v, want a *storage.Error", name, err)
			}
		}()
	}
	if d := new(spill.FileStore).Dir(); d != "" {
		t.Errorf("Dir = %q", d)
	}
}
