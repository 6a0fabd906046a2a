package safefstest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TreeHash hashes every entry under root (its name and type, a file's
// bytes, and sizes and modification times), so that a write, a removal,
// a rename or a touch anywhere in it changes the hash. With skipLocks,
// lock directories (<name>.lock and what is in them) and directories' own
// sizes and times, which change with the locks made in them, are left
// out, for a test of code that takes its locks by path
// (filelock.Acquire), which a link swapped in can lead outside, as an
// empty directory made, renamed or removed there. safefs.Dir.Lock takes
// them relative to a proven handle on Unix systems: the swap-race tests
// compare everything.
func TreeHash(t testing.TB, root string, skipLocks bool) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if skipLocks && strings.Contains(e.Name(), ".lock") {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fmt.Fprintf(h, "%s %v\n", rel, st.Mode())
		if !skipLocks || !st.IsDir() {
			fmt.Fprintf(h, "%d %d\n", st.Size(), st.ModTime().UnixNano())
		}
		if st.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}
