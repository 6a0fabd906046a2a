//go:build unix

package spill_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestPutTouchesNoHardLinkedBody plants a spilled body that is a hard link
// to a file outside the data home holding the same bytes (round 128): a
// Put of that content touched the body to keep it from the sweep, which
// set the times of the outside file. The Put still returns the ref, and
// the outside file keeps its times.
func TestPutTouchesNoHardLinkedBody(t *testing.T) {
	for _, tc := range []struct {
		name   string
		linked bool
	}{
		{"hard-linked body", true},
		{"body of one link", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			s := newStore(t, filepath.Join(root, "spill"), storage.Encoding{Namespace: "lite-agent", ProjectID: "p0"})
			body := "tool output the operator keeps elsewhere\n"
			ref := spill.Ref(body)
			old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
			outside := filepath.Join(root, "outside.txt")
			writeFile(t, outside, []byte(body))
			if err := os.Chtimes(outside, old, old); err != nil {
				t.Fatal(err)
			}
			if tc.linked {
				if err := os.Link(outside, spillPath(s, ref)); err != nil {
					t.Fatal(err)
				}
			} else {
				writeFile(t, spillPath(s, ref), []byte(body))
				if err := os.Chtimes(spillPath(s, ref), old, old); err != nil {
					t.Fatal(err)
				}
			}
			got, err := s.Put(t.Context(), body)
			if err != nil || got != ref {
				t.Fatalf("Put = %q, %v; want %q", got, err, ref)
			}
			st, err := os.Stat(outside)
			if err != nil {
				t.Fatal(err)
			}
			if tc.linked && !st.ModTime().Equal(old) {
				t.Errorf("the outside file's time is %v, want %v", st.ModTime(), old)
			}
			if st, err := os.Stat(spillPath(s, ref)); err != nil || !tc.linked && st.ModTime().Equal(old) {
				t.Errorf("the body of one link was not touched: %v, %v", st.ModTime(), err)
			}
		})
	}
}
