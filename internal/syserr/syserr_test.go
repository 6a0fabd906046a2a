package syserr_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/syserr"
)

func TestText(t *testing.T) {
	_, missing := os.Open(filepath.Join(t.TempDir(), "nope"))
	plain := errors.New("disk on fire")
	for _, c := range []struct {
		err  error
		want string
	}{
		{missing, "no such file or directory"},
		{fmt.Errorf("reading: %w", missing), "no such file or directory"},
		{&fs.PathError{Op: "stat", Path: "/x", Err: fs.ErrPermission}, "permission denied"},
		{plain, "disk on fire"},
	} {
		if got := syserr.Text(c.err); got != c.want {
			t.Errorf("Text(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
