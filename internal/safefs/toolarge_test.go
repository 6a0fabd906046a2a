package safefs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// TestReadFileRefusesAFileOverTheLimit plants a record that is a sparse
// file larger than any record (round 128: a 4 GiB one costs no disk, and
// tasks list ran out of memory reading it): ReadFile refuses it with a
// *storage.Error before reading it. Without the limit the test reads 1 GiB
// and fails; it has no larger row, so that it stays safe to run so.
func TestReadFileRefusesAFileOverTheLimit(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int64
		ok   bool
	}{
		{"small", 10, true},
		{"one byte over", safefs.MaxReadBytes + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := safefs.Anchor(filepath.Join(t.TempDir(), "store"))
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(d.Path(), "1.json")
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Truncate(tc.size); err != nil {
				t.Skip("sparse file:", err)
			}
			f.Close()
			b, err := d.ReadFile("1.json")
			if tc.ok {
				if err != nil || int64(len(b)) != tc.size {
					t.Fatalf("ReadFile = %d bytes, %v", len(b), err)
				}
				return
			}
			wantStorageError(t, err, "larger than 1 GiB")
		})
	}
}
