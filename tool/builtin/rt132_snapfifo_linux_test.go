//go:build linux

package builtin_test

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/tool"
	"github.com/lite-agent/lite-agent-go/tool/builtin"
)

// TestASnapshotNeverWaitsOnAFIFOSwappedIn (rt132files): the snapshot of
// write_file and delete_file read the file it opened after the check that
// it was a regular file, without looking again, so a FIFO put in its place
// in between (bash: mkfifo p; sleep 1000 <> p & and a background mv p f;
// a child swapping the two names made a delete_file hang this way) that a
// writer holds open without writing blocked the call, and the lock on the
// file, until the writer went away. The swap is made here at the gate's
// check of what was opened, which runs in that window. Every call must
// return at once without reading the FIFO, and the ordinary write and
// delete of a regular file must still record the previous content.
func TestASnapshotNeverWaitsOnAFIFOSwappedIn(t *testing.T) {
	for _, tt := range []struct {
		tool  string
		input map[string]any
	}{
		{"write_file", map[string]any{"path": "f", "content": "new f"}},
		{"delete_file", map[string]any{"path": "f"}},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			e := newFileEnv(t, builtin.FileOptions{})
			f, fifo := e.path("f"), e.path("fifo")
			writeFile(t, f, "regular f")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			holder, err := os.OpenFile(fifo, os.O_RDWR, 0) // a writer that never writes
			if err != nil {
				t.Fatal(err)
			}
			defer holder.Close()

			// The ordinary case: nothing moves.
			res := callCtx(t, tool.WithPathCheck(context.Background(), func(context.Context, string) error { return nil }), e.tool(t, tt.tool), tt.input)
			if res.IsError {
				t.Fatalf("ordinary %s: %q", tt.tool, res.Content)
			}
			if evs := e.rec.all(); len(evs) != 1 || evs[0].Before == nil || *evs[0].Before != "regular f" {
				t.Fatalf("ordinary snapshot = %+v", evs)
			}
			writeFile(t, f, "regular f")

			swap := func(context.Context, string) error {
				if err := unix.Renameat2(unix.AT_FDCWD, f, unix.AT_FDCWD, fifo, unix.RENAME_EXCHANGE); err != nil {
					t.Skipf("renameat2(RENAME_EXCHANGE): %v", err)
				}
				return nil
			}
			ctx, cancel := context.WithCancel(tool.WithPathCheck(context.Background(), swap))
			defer cancel()
			res = callBounded(t, ctx, e.tool(t, tt.tool), tt.input)
			if !res.IsError || !strings.Contains(res.Content, "Not a regular file") {
				t.Errorf("%s with a FIFO swapped in = %q, want Not a regular file", tt.tool, res.Content)
			}
			if len(e.rec.all()) != 1 {
				t.Errorf("a snapshot was recorded of the FIFO: %+v", e.rec.all()[1:])
			}
			if got := readFile(t, fifo); got != "regular f" {
				t.Errorf("the regular file, now at fifo, holds %q", got)
			}
		})
	}
}
