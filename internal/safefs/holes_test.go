package safefs_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// holesSupported makes a file with a hole in the middle and reports
// whether HoleBytes finds it: where the file system (or the build) cannot
// tell holes, the tests of the refusal have nothing to refuse.
func holesSupported(t *testing.T) bool {
	p := filepath.Join(t.TempDir(), "probe")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte("x"), 4<<20); err != nil {
		t.Fatal(err)
	}
	n, err := safefs.HoleBytes(f, 4<<20+1, 8<<20)
	return err == nil && n >= 1<<20
}

// TestReadFileRefusesASparseRecord plants records that are sparse files
// under safefs.MaxReadBytes (round 133: four 1000 MiB task files, which
// cost no disk, took lite-agent verify to 4.3 GB of memory and tasks list
// to 2.2 GB, each read whole as zeros). A record whose holes add up to
// more than MaxHoleBytes is refused with a *storage.Error before it is
// read; a record with a short hole (what a crash may leave) and an
// ordinary one are read as before.
func TestReadFileRefusesASparseRecord(t *testing.T) {
	if !holesSupported(t) {
		t.Skip("the file system (or build) tells no holes")
	}
	for _, tc := range []struct {
		name string
		make func(f *os.File) error
		size int64
		ok   bool
	}{
		{"ordinary", func(f *os.File) error { _, err := f.WriteString(`{"id":"1"}`); return err }, 10, true},
		{"short hole", func(f *os.File) error { _, err := f.WriteAt([]byte("}"), 1<<20); return err }, 1<<20 + 1, true},
		{"hole over the limit", func(f *os.File) error { return f.Truncate(900 << 20) }, 900 << 20, false},
		{"holes over the limit between data", func(f *os.File) error {
			for i := range int64(5) {
				if _, err := f.WriteAt([]byte("\n"), i*(16<<20)); err != nil {
					return err
				}
			}
			return f.Truncate(80 << 20)
		}, 80 << 20, false},
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
			if err := tc.make(f); err != nil {
				t.Fatal(err)
			}
			f.Close()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b, err := d.ReadFile("1.json")
			runtime.ReadMemStats(&after)
			if tc.ok {
				if err != nil || int64(len(b)) != tc.size {
					t.Fatalf("ReadFile = %d bytes, %v", len(b), err)
				}
				return
			}
			wantStorageError(t, err, "sparse")
			if se := (*storage.Error)(nil); errors.As(err, &se) && se.File != p {
				t.Errorf("the error names %q, want %q", se.File, p)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
				t.Errorf("ReadFile allocated %d bytes to refuse the file", got)
			}
			if _, err := safefs.ReadFile(p); err == nil || !strings.Contains(err.Error(), "sparse") {
				t.Errorf("safefs.ReadFile = %v, want the refusal", err)
			}
		})
	}
}

// TestHoleBytesCountsTheHoles checks the count against a file of known
// layout and that the file's offset is left where it was.
func TestHoleBytesCountsTheHoles(t *testing.T) {
	if !holesSupported(t) {
		t.Skip("the file system (or build) tells no holes")
	}
	const mib = 1 << 20
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// data [0,1) MiB, hole [1,3), data [3,4), hole [4,8).
	if _, err := f.WriteAt([]byte(strings.Repeat("x", mib)), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(strings.Repeat("x", mib)), 3*mib); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(8 * mib); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(123, 0); err != nil {
		t.Fatal(err)
	}
	if n, err := safefs.HoleBytes(f, 8*mib, 64*mib); err != nil || n != 6*mib {
		t.Errorf("HoleBytes = %d, %v; want %d", n, err, 6*mib)
	}
	if n, err := safefs.HoleBytes(f, 2*mib, 64*mib); err != nil || n != mib {
		t.Errorf("HoleBytes of the first 2 MiB = %d, %v; want %d", n, err, mib)
	}
	if off, err := f.Seek(0, 1); err != nil || off != 123 {
		t.Errorf("offset %d, %v after HoleBytes, want 123", off, err)
	}
}
