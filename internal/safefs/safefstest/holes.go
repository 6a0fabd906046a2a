package safefstest

import (
	"os"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// HolesSeen reports whether safefs sees more than safefs.MaxHoleBytes of
// holes in the file at p, as its refusal of sparse files would: a test
// that planted a sparse file skips where the file system keeps no holes.
func HolesSeen(t testing.TB, p string) bool {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	n, err := safefs.HoleBytes(f, st.Size(), safefs.MaxHoleBytes)
	return err == nil && n > safefs.MaxHoleBytes
}
