package filestamp

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestStampChangesWithTheFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	stat := func() Stamp {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return Of(fi)
	}
	if err := os.WriteFile(p, []byte("a"), 0o600); err != nil {
		t.Fatal(err)
	}
	first := stat()
	if !first.Exists || first.Size != 1 || first.Mtime == 0 {
		t.Fatalf("stamp = %+v", first)
	}
	if again := stat(); again != first {
		t.Fatalf("an unchanged file: %+v, then %+v", first, again)
	}
	// Replaced by a file of the same size and time: only the inode tells.
	q := filepath.Join(dir, "g")
	if err := os.WriteFile(q, []byte("b"), 0o600); err != nil {
		t.Fatal(err)
	}
	mt := time.Unix(0, first.Mtime)
	if err := os.Chtimes(q, mt, mt); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(q, p); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
		if replaced := stat(); replaced == first || replaced.Ino == 0 {
			t.Errorf("a replaced file has the same stamp %+v", replaced)
		}
	}
	if (Stamp{}).Exists {
		t.Error("the zero stamp exists")
	}
}
