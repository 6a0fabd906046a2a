package archive_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestZeroFileArchiveFails checks that every operation of a FileArchive not
// made by NewFileArchive fails at once with a *storage.Error, instead of
// waiting forever or panicking.
func TestZeroFileArchiveFails(t *testing.T) {
	ops := map[string]func(context.Context, *archive.FileArchive) error{
		"Put": func(ctx context.Context, a *archive.FileArchive) error {
			_, err := a.Put(ctx, "content", nil)
			return err
		},
		"Search": func(ctx context.Context, a *archive.FileArchive) error {
			_, err := a.Search(ctx, archive.Query{Text: "content"})
			return err
		},
		"Read": func(ctx context.Context, a *archive.FileArchive) error {
			_, err := a.Read(ctx, archive.ReadRequest{Ref: "0123456789abcdef"})
			return err
		},
		"Notes": func(ctx context.Context, a *archive.FileArchive) error {
			_, err := a.Notes(ctx)
			return err
		},
		"Verify": func(ctx context.Context, a *archive.FileArchive) error {
			_, err := a.Verify(ctx)
			return err
		},
	}
	for name, op := range ops {
		done := make(chan error, 1)
		go func() { done <- op(context.Background(), new(archive.FileArchive)) }()
		select {
		case err := <-done:
			var se *storage.Error
			if !errors.As(err, &se) {
				t.Errorf("%s: err = %v (%T), want a *storage.Error", name, err, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s on the zero FileArchive does not return", name)
		}
	}
	if d := new(archive.FileArchive).Dir(); d != "" {
		t.Errorf("Dir = %q", d)
	}
}
