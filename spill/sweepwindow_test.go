package spill_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A sweep removes an old body under the body's lock (<ref>.txt.lock), after
// one last look at its modification time. A Put that reuses the body and
// refreshes its time between that look and the unlink hands out a ref whose
// body is then removed. The test acts as such a sweep: it takes the lock,
// sees the body old, and unlinks it right after the Put's refresh, then
// releases the lock at once or a little later (the Put still running). The
// ref the Put returns must read back.
func TestPutReusingABodyTheSweepRemovesMeanwhile(t *testing.T) {
	for _, tc := range []struct {
		name  string
		delay time.Duration // before the sweep releases its lock, after the unlink
	}{
		{"released at once", 0},
		{"released later", 100 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "spill")
			s, err := spill.NewFileStore(dir, storage.Encoding{})
			if err != nil {
				t.Fatal(err)
			}
			const body = "a large tool result"
			ref, err := s.Put(t.Context(), body)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, ref+spill.FileSuffix)
			old := time.Now().Add(-40 * 24 * time.Hour)
			if err := os.Chtimes(file, old, old); err != nil {
				t.Fatal(err)
			}
			// The sweep: its lock, its last look.
			l, err := filelock.Acquire(t.Context(), file, filelock.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if st, err := os.Lstat(file); err != nil || !st.ModTime().Equal(old) {
				t.Fatalf("the body before the Put: %v %v", st, err)
			}
			released := make(chan error, 1)
			spill.SetAfterTouch(s, func() {
				// The sweep's unlink, after the Put's refresh.
				if err := os.Remove(file); err != nil {
					t.Error(err)
				}
				release := func() { released <- l.Release() }
				if tc.delay == 0 {
					release()
					return
				}
				go func() {
					time.Sleep(tc.delay)
					release()
				}()
			})
			again, err := s.Put(t.Context(), body)
			if err != nil || again != ref {
				t.Fatalf("Put: %q %v, want %q", again, err, ref)
			}
			if err := <-released; err != nil {
				t.Error(err)
			}
			if got, ok, err := s.Get(t.Context(), ref); err != nil || !ok || got != body {
				t.Errorf("Get of the ref the Put handed out: %q %v %v", got, ok, err)
			}
		})
	}
}
