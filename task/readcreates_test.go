package task

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// TestAReadOfAListRemovedMeanwhileCreatesNothing checks that a read (List,
// Get), MarkShared and ClearForking, which open the list directory without creating
// it, do not make it again when it is removed (a session's delete, the
// cleanup sweep) after they found it and before they anchored it: the list
// reads as empty (ClearForking reports the mark lost) and no directory
// is left, which would make the deleted session's id look taken and
// break "reading a list creates nothing" (Agent.TaskList opens a list for
// each read).
func TestAReadOfAListRemovedMeanwhileCreatesNothing(t *testing.T) {
	for name, read := range map[string]func(context.Context, *FileStore) error{
		"List": func(ctx context.Context, s *FileStore) error {
			ts, err := s.List(ctx)
			if err == nil && len(ts) != 0 {
				t.Errorf("List of a removed list = %+v", ts)
			}
			return err
		},
		"Get": func(ctx context.Context, s *FileStore) error {
			_, ok, err := s.Get(ctx, "1")
			if ok {
				t.Error("Get found a task in a removed list")
			}
			return err
		},
		"MarkShared": func(ctx context.Context, s *FileStore) error {
			return s.MarkSharedContext(ctx) // marks with the first write, creating nothing
		},
		"ClearForking": func(ctx context.Context, s *FileStore) error {
			if err := s.ClearForking(ctx); !errors.As(err, new(*storage.ForkMarkLostError)) {
				t.Errorf("ClearForking of a removed list = %v, want a *storage.ForkMarkLostError", err)
			}
			return nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			s := newFile(t, dir, "gone", plain) // not there yet: anchored on use
			if err := os.Mkdir(s.Dir(), 0o700); err != nil {
				t.Fatal(err)
			}
			s.anchoring = func() {
				if err := os.Remove(s.Dir()); err != nil {
					t.Fatal(err)
				}
			}
			if err := read(t.Context(), s); err != nil {
				t.Errorf("%s of a list removed as it was opened: %v", name, err)
			}
			if _, err := os.Lstat(s.Dir()); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s made the removed list directory again (Lstat: %v)", name, err)
			}
		})
	}
}
